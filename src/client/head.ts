// Keeps exactly one state's head tags in document.head. Each call undoes the previous one (its
// tags removed, the shell's tags it displaced put back where they were), then writes the new
// state's tags, first taking out any shell tag with the same key (src/contract/head.ts holds the key rule).
// Each tag written is marked with its state's location (HEAD_ATTRIBUTE), and so is each tag a
// snapshot added for its state: a tag found marked is a state's, never the shell's.

import { headKey, jsonLdText, type HeadTag } from '../contract/head.js';
import { HEAD_ATTRIBUTE } from '../contract/hydration.js';
import type { RouterDocument, RouterElement, RouterNode } from './dom.js';

/**
 * A function that makes document.head show the tags of the state at `location` and nothing else of
 * the previous state's. A tag found marked as a state's (written by a snapshot for the state it was
 * rendered for, or by another router) is never put back: a tag with its key replaces it for good;
 * any other (the snapshot's canonical link, which the client has no origin to write) stays while it
 * names `location` and goes on the next call, and one naming another location goes at once.
 */
export function createHead(doc: RouterDocument): (tags: readonly HeadTag[], location: string) => void {
  const added: RouterElement[] = [];
  const taken: [RouterElement, RouterNode, RouterNode | null][] = [];
  return (tags, location) => {
    for (const el of added.splice(0)) el.remove();
    // Put back in reverse, so each one's next sibling is in place (or gone: then at the end).
    for (const [el, parent, next] of taken.splice(0).reverse()) parent.insertBefore(el, next?.parentNode === parent ? next : null);
    const head = doc.head;
    if (!head) return;
    for (const el of head.querySelectorAll('meta,link,script')) {
      const key = headKey(el.localName, (name) => el.getAttribute(name));
      const of = el.getAttribute(HEAD_ATTRIBUTE);
      if (tags.some((t) => t.key === key)) {
        if (of === null) taken.push([el, el.parentNode as RouterNode, el.nextSibling]);
        el.remove();
      } else if (of !== null) of === location ? added.push(el) : el.remove();
    }
    for (const t of tags) {
      const el = doc.createElement(t.tag);
      for (const [name, value] of t.attrs) el.setAttribute(name, value);
      el.setAttribute(HEAD_ATTRIBUTE, location);
      if (t.tag === 'script') el.textContent = jsonLdText(t.json);
      // appendChild gives back the node it appended.
      added.push(head.appendChild(el) as RouterElement);
    }
  };
}
