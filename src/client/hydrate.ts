// The client's half of server rendering: in `cleanUrls: 'all'` the page's JSON data script, read
// with JSON.parse (never eval), gives the router's first navigation its data instead of `load`.
// The page's other marks (the outlet's drawn location, the shell's title) are read by src/client/view.ts.

import { DATA_SCRIPT_ID, type HydrationPayload } from '../contract/hydration.js';
import type { RouterDocument } from './dom.js';

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
