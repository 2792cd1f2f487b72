// The client's half of server rendering: what a page the server rendered for a state gives the
// router's first navigation. In `cleanUrls: 'all'` the page's JSON data script, read with JSON.parse
// (never eval), gives its data instead of `load`, and the outlet's `data-router-rendered` attribute
// says the server already wrote that location's view into it; any rendered page names the shell's
// title on its `<title>` where the state's replaced it.

import { hasEscapedFragment } from '../codec.js';
import { DATA_SCRIPT_ID, RENDERED_ATTRIBUTE, SHELL_TITLE_ATTRIBUTE, type HydrationPayload } from '../hydration.js';
import type { RouterDocument, RouterElement } from './dom.js';

/**
 * What the page the router starts on gives its first navigation: the server's data for its state (a
 * hydration payload) or null; the location whose view the outlet already shows ('' for a snapshot
 * of an unnamed state, drawn anew; null when none); and the title a route without one shows, the
 * shell's. A tuple: the router's bundle pays for no property names.
 */
export type PageGifts = [seed: HydrationPayload | null, drawn: string | null, shellTitle: string];

/**
 * The page's hydration payload, or null when it has none or it does not read as one. Only a
 * `<script>` is read: another element with the id (a visitor's comment that a sanitizer let through
 * with its `id`) would hand the first navigation data that no `load` gave, for `render` to trust.
 */
export function readHydration(doc: RouterDocument): HydrationPayload | null {
  const script = doc.getElementById(DATA_SCRIPT_ID);
  try {
    const payload = JSON.parse((script?.localName === 'script' && script.textContent) || 'null') as HydrationPayload | null;
    return typeof payload?.location === 'string' ? payload : null;
  } catch {
    return null; // a page that mangled its own script loads as usual
  }
}

/** Reads what the page at `href` was rendered with: its data, its outlet's mark and the shell's title. */
export function readPage(doc: RouterDocument, outlet: RouterElement | null | undefined, href: string): PageGifts {
  return [
    readHydration(doc),
    // A page opened at an ugly URL is the server's snapshot of a state even without the mark: its
    // title may be that state's ('' matches no location, so the outlet is drawn anew). Its head
    // tags, as any page's, say which state they are of themselves (src/client/head.ts).
    outlet?.getAttribute(RENDERED_ATTRIBUTE) ?? (hasEscapedFragment(href) ? '' : null),
    doc.querySelector('title')?.getAttribute(SHELL_TITLE_ATTRIBUTE) ?? doc.title,
  ];
}
