// Keeps exactly one state's head tags in document.head. Each call undoes the previous one (its
// tags removed, the shell's tags it displaced put back where they were), then writes the new
// state's tags, first taking out any shell tag with the same key (src/head.ts holds the key rule).

import { CANONICAL_KEY, headKey, jsonLdText, type HeadTag } from '../head.js';
import type { RouterDocument, RouterElement, RouterNode } from './dom.js';

/**
 * A function that makes document.head show `tags` and nothing else of the previous state's.
 * `rendered`: the head was written by the server for a state (cleanUrls 'all'), so tags with the
 * state's keys are that state's, not the shell's: they are replaced for good, never put back. Its
 * canonical link (the server writes it; the client has no origin to write one) is that state's
 * too: kept while `same` (the state shown is the one the server rendered), removed after.
 */
export function createHead(doc: RouterDocument): (tags: readonly HeadTag[], rendered?: boolean, same?: boolean) => void {
  let added: RouterElement[] = [];
  let taken: [RouterElement, RouterNode, RouterNode | null][] = [];
  return (tags, rendered, same) => {
    for (const el of added) el.remove();
    // Put back in reverse, so each one's next sibling is in place (or gone: then at the end).
    for (const [el, parent, next] of taken.reverse()) parent.insertBefore(el, next?.parentNode === parent ? next : null);
    added = [];
    taken = [];
    const head = doc.head;
    if (!head) return;
    const keys = new Set(tags.map((t) => t.key));
    for (const el of head.querySelectorAll('meta,link,script')) {
      const key = headKey(el.localName, (name) => el.getAttribute(name));
      if (key && keys.has(key)) (rendered || taken.push([el, el.parentNode as RouterNode, el.nextSibling]), el.remove());
      // The server's canonical link names the state it rendered.
      else if (rendered && key === CANONICAL_KEY) same ? added.push(el) : el.remove();
    }
    for (const t of tags) {
      const el = doc.createElement(t.tag);
      for (const [name, value] of t.attrs) el.setAttribute(name, value);
      if (t.tag === 'script') el.textContent = jsonLdText(t.json);
      // appendChild gives back the node it appended.
      added.push(head.appendChild(el) as RouterElement);
    }
  };
}
