import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the size script is plain JavaScript with no types of its own
import { bundleSize, fileSize } from '../scripts/size.mjs';

// Size budgets on the built files, in bytes of min+gzip, bundled as an app's production build
// would (process.env.NODE_ENV "production": what src/dev.ts guards is dropped). Each budget is the
// size measured last plus ~30 B, so that nothing grows unnoticed; the goal column is issue 17's.
// Issue 17's goal is 6,144 B for a real app (createRouter with createRoutes, path-to-regexp inside)
// and for the UMD bundle; both are short (bench/RESULTS.md). The codec alone and createRouter alone
// have no goal of issue 17's, only budgets.
// Measured after issue 17's three size branches (long error texts of the router, the route table,
// redirect() and the codec behind DEV; the UMD min file built for production; one UTF-8 decoder;
// a smaller commit and head merge): app 10,122 -> 9,585, UMD 10,640 -> 10,125, createRouter alone
// 5,770 -> 5,609, the codec alone 1,586 -> 1,587. Then two costs, both taken for correctness or
// speed: production errors that are never blank (+28 B) and matching's fast path for a location
// that is a path alone (+30 B): app 9,644, UMD 10,184, createRouter alone 5,620. Later fixes
// brought them to app 9,668, UMD 10,210, createRouter alone 5,649. Then path-to-regexp built in as
// an ES module (scripts/vendor.mjs), so that its match() and stringify() are dropped: app 9,298
// (-370 B), UMD 9,878 (-384 B, then +52 B for the licence notice it lacked). Then the client read
// ugly URLs without CodecError and wrote URLs through toUrl's core, paths were written without
// path-to-regexp's compile(), the segment index was built in one pass, and the texts of percent
// faults and of params of the wrong type became development-only: app 9,298 -> 8,805, UMD 9,878 ->
// 9,624, createRouter alone 5,649 -> 5,386, the codec alone 1,589 -> 1,557. Removing a server-rendered
// page's canonical link once its state is left: app 8,805 -> 8,824, UMD 9,624 -> 9,645, createRouter
// alone 5,386 -> 5,408. Taking a snapshot opened at its ugly URL for a rendered page (its head tags
// are the state's): app 8,834, UMD 9,655, createRouter alone 5,417.
// Then fixes of a hostile review: params named like Object.prototype's members (+10 B), the
// index's reading of `/feed{/:lang}.xml` (+22 B) and no href with an empty segment (+5 B), measured
// on their own: after both merges, app 8,873, UMD 9,689, createRouter alone 5,417.
// The window typed by shape (types only, 0 B) and an anchor's target scrolled only where the DOM
// has scrollIntoView (jsdom has none, +1 B): app 8,875, UMD 9,690, createRouter alone 5,418.
// Then a client pass (redundant null tests and a second scan for `#!` dropped, the UMD minifier given
// ES2020, three passes and arrows; shorter property names and shared literals measured, and worth
// nothing once gzipped): app 8,875 -> 8,837, UMD 9,690 -> 9,641, createRouter alone 5,418 -> 5,383.
// [name, what an app imports (null: the built UMD file), budget, the goal]
const budgets: [name: string, code: string | null, gzip: number, goal: number | null][] = [
  [
    'the codec alone',
    `export { toUglyUrl, toPrettyUrl, isPrettyUrl, isUglyUrl, escapeFragment, unescapeFragment, CodecError } from 'crawlable-router';`,
    1587,
    null,
  ],
  ['an app importing only createRouter', `export { createRouter } from 'crawlable-router/client';`, 5413, null],
  [
    'an app importing createRouter and createRoutes',
    `export { createRouter } from 'crawlable-router/client'; export { createRoutes } from 'crawlable-router';`,
    8867,
    6144,
  ],
  ['the UMD bundle (min file)', null, 9671, 6144],
];

describe('bundle sizes', () => {
  it.each(budgets)('keeps %s within its budget', async (_, code, budget) => {
    const size = (code === null ? await fileSize('dist/crawlable-router.umd.min.js') : await bundleSize(code)) as { gzip: number };
    expect(size.gzip).toBeLessThanOrEqual(budget);
  });
});

describe('the history package', () => {
  it('is never imported by the built client: an app that passes no instance bundles none of it', () => {
    const files = readdirSync('dist/client').filter((f) => /\.c?js$/.test(f));
    expect(files).toContain('history.js');
    for (const file of files)
      expect(readFileSync(`dist/client/${file}`, 'utf8')).not.toMatch(/from ['"]history['"]|require\(['"]history['"]\)/);
  });
});
