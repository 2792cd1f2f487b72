// A state's head tags as HTML for a snapshot: attribute values HTML-escaped, JSON-LD as script
// text that no data can close (src/contract/head.ts writes `<` as \u003c), and each tag marked with the
// state's location (HEAD_ATTRIBUTE), as the client router marks the tags it writes, so the client
// on a page made from the snapshot knows them for that state's, not the shell's. Which tags and
// which keys is src/contract/head.ts's business, shared with the client; this file only serialises.

import { jsonLdText, type HeadTag } from '../../contract/head.js';
import { HEAD_ATTRIBUTE } from '../../contract/hydration.js';
import { escapeHtml } from './escape.js';

/** The HTML of head tags, in order, each marked as the tag of the state at `location` when given. */
export function headHtml(tags: readonly HeadTag[], location?: string): string {
  const mark = location === undefined ? '' : ` ${HEAD_ATTRIBUTE}="${escapeHtml(location)}"`;
  let out = '';
  for (const t of tags) {
    if (t.tag === 'script') out += `<script type="application/ld+json"${mark}>${jsonLdText(t.json)}</script>`;
    else out += `<${t.tag}${t.attrs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('')}${mark}>`;
  }
  return out;
}
