import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { readPage, readTree } from '../../src/verify/page.js';
import type { Node } from '../../src/verify/tree.js';
import { fuzz } from './runs.js';

// readPage parses into a tree that keeps only what it reads (src/verify/tree.ts) and drops what
// closes empty; parse5's own tree keeps everything. Whatever the markup (misnested formatting, foster
// parenting, a head reopened, templates, foreign content, framesets), the facts read must agree.

const parts = [
  '<!doctype html>',
  '<html>',
  '</html>',
  '<head>',
  '</head>',
  '<body>',
  '</body>',
  '<title>',
  '</title>',
  'text',
  ' ',
  '&amp;',
  '<a href="/a1">',
  '<a href="/a2">',
  '<a>',
  '<meta charset="utf-8">',
  '<link rel="stylesheet" href="/s.css">',
  '</a>',
  '<area href="/ar">',
  '<b>',
  '</b>',
  '<i>',
  '</i>',
  '<nobr>',
  '</nobr>',
  '<p>',
  '</p>',
  '<div>',
  '</div>',
  '<li>',
  '<h1>',
  '</h1>',
  '<button>',
  '<form>',
  '</form>',
  '<select>',
  '<option>',
  '</select>',
  '<table>',
  '<tr>',
  '<td>',
  '</td>',
  '</tr>',
  '</table>',
  '<caption>',
  '<template>',
  '</template>',
  '<svg>',
  '</svg>',
  '<math>',
  '</math>',
  '<annotation-xml encoding="text/html">',
  '<foreignObject>',
  '<g>',
  '</g>',
  '<noscript>',
  '</noscript>',
  '<frameset>',
  '<frame>',
  '<script>',
  '</script>',
  '<style>',
  '</style>',
  '<textarea>',
  '</textarea>',
  '<plaintext>',
  '<!-- c -->',
  '<meta name="fragment" content="!">',
  '<meta name="description" content="d">',
  '<meta name="robots" content="noindex">',
  '<meta property="og:url" content="/o">',
  '<svg><title>',
  '<math><mi>',
  '<link rel="canonical" href="/c">',
  '<link rel="alternate" hreflang="fr" href="/fr">',
  '<base href="/b">',
  '<img>',
  '<br>',
  '</br>',
];

describe('readPage on the kept tree', () => {
  it('reads the facts parse5’s own tree gives, whatever the markup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 80, size: 'max' }), (tokens) => {
        const html = tokens.join('');
        expect(readPage(html)).toEqual(readTree(parse(html) as unknown as Node));
      }),
      fuzz(43, 3000),
    );
  });
});
