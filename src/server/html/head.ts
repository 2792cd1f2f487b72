// A state's head tags as HTML for a snapshot: attribute values HTML-escaped, JSON-LD as script
// text that no data can close (src/head.ts writes `<` as \u003c). Which tags and which keys is
// src/head.ts's business, shared with the client; this file only serialises.

import { jsonLdText, type HeadTag } from '../../head.js';
import { escapeHtml } from './escape.js';

/** The HTML of head tags, in order. */
export function headHtml(tags: readonly HeadTag[]): string {
  let out = '';
  for (const t of tags) {
    if (t.tag === 'script') out += `<script type="application/ld+json">${jsonLdText(t.json)}</script>`;
    else out += `<${t.tag}${t.attrs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('')}>`;
  }
  return out;
}
