import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { readPage, readTree } from '../../src/verify/page.js';
import type { Node } from '../../src/verify/tree.js';
import { MARKUP } from './markup.js';
import { fuzz } from './runs.js';

// readPage parses into a tree that keeps only what it reads (src/verify/tree.ts) and drops what
// closes empty; parse5's own tree keeps everything. Whatever the markup (misnested formatting, foster
// parenting, a head reopened, templates, foreign content, framesets), the facts read must agree.

describe('readPage on the kept tree', () => {
  it('reads the facts parse5’s own tree gives, whatever the markup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...MARKUP), { maxLength: 80, size: 'max' }), (tokens) => {
        const html = tokens.join('');
        expect(readPage(html)).toEqual(readTree(parse(html) as unknown as Node));
      }),
      fuzz(43, 3000),
    );
  });
});
