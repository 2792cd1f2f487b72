// The client's half of server rendering (`cleanUrls: 'all'`): the page's JSON data script, read
// with JSON.parse (never eval), gives the first navigation its data instead of `load`; the outlet's
// `data-router-rendered` attribute says the server already wrote that location's view into it.

import { DATA_SCRIPT_ID, RENDERED_ATTRIBUTE, type HydrationPayload } from '../hydration.js';
import type { RouterDocument, RouterElement } from './dom.js';

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

/** The location whose view the server rendered into `outlet`, or null. */
export function renderedLocation(outlet: RouterElement | null): string | null {
  return outlet ? outlet.getAttribute(RENDERED_ATTRIBUTE) : null;
}
