// Scroll positions: the top on a new entry, the saved position on back/forward, the anchor's element
// when the location has one. Positions are saved per history entry key, in memory.

import { unshadowed } from './document.js';
import type { RouterDocument, RouterWindow } from './dom.js';
import { POP, PUSH, type Kind } from './steps.js';

/** Scrolls to the element an in-page anchor names (`id`, else the first `name`); false when there is none. */
export function scrollToAnchor(doc: RouterDocument, anchor: string): boolean {
  const el = anchor && (doc.getElementById(anchor) ?? doc.getElementsByName(anchor)[0]);
  // jsdom has no scrollIntoView: the anchor is still found (no scroll to the top), and nothing throws.
  // Read from its prototype: a form's `<input name="scrollIntoView">` shadows its own.
  if (el) unshadowed(el).scrollIntoView?.();
  return !!el;
}

/** Saves and restores positions; an anchor's element is found in `doc` (the window's document). */
export function createScroll(win: RouterWindow, doc: RouterDocument) {
  const saved = new Map<string, [number, number]>();
  let restoration: string | undefined;
  return {
    /** Takes scrolling over from the browser, which would restore before our content is rendered. */
    start() {
      restoration = win.history.scrollRestoration;
      win.history.scrollRestoration = 'manual';
    },
    stop() {
      if (!restoration) return;
      win.history.scrollRestoration = restoration;
      restoration = undefined;
    },
    /** Remembers where the entry being left was scrolled to. */
    save(key: string) {
      saved.set(key, [win.scrollX, win.scrollY]);
    },
    /** Scrolls for a committed navigation. */
    apply(kind: Kind, key: string, anchor: string) {
      let at = kind === POP ? saved.get(key) : undefined;
      if (!at && !scrollToAnchor(doc, anchor) && kind === PUSH) at = [0, 0];
      // Only a move: a window already there is left alone (jsdom, which cannot scroll, logs each scrollTo as not implemented).
      if (at && (at[0] !== win.scrollX || at[1] !== win.scrollY)) win.scrollTo(...at);
    },
  };
}
