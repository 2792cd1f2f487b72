import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the size script is plain JavaScript with no types of its own
import { bundleSize, fileSize } from '../scripts/size.mjs';

// Size budgets on the built files, in bytes of min+gzip, bundled as an app's bundler would.
// The performance issue's goals are codec 1 KB, createRouter-only app 4.5 KB (met: the router does
// not bundle the route table it is given), UMD 5 KB; where a goal is not met yet (bench/RESULTS.md
// says by how much) the budget holds the line at today's size plus a little, so that nothing grows
// unnoticed. A real app also imports createRoutes: that line has no goal of the issue's, only a budget.
// [name, what an app imports (null: the built UMD file), budget, the goal]
const budgets: [name: string, code: string | null, gzip: number, goal: number | null][] = [
  ['the codec alone', `export { toUglyUrl, toPrettyUrl, isPrettyUrl, isUglyUrl, escapeFragment, unescapeFragment, CodecError } from 'crawlable-router';`, 1600, 1024],
  // The readable paramAt (named character codes, no assignment in a loop condition) costs 5 B here (4,614).
  ['an app importing only createRouter', `export { createRouter } from 'crawlable-router/client';`, 4620, 4608],
  // The history instance adapter and the file:// probe cost +81 B here (8,432 -> 8,513), net of the encoder an app that only reads URLs no longer bundles.
  ['an app importing createRouter and createRoutes', `export { createRouter } from 'crawlable-router/client'; export { createRoutes } from 'crawlable-router';`, 8540, null],
  // The UMD bundle carries the `history` instance adapter and the file://-and-sandbox probe (+301 B).
  ['the UMD bundle (min file)', null, 9100, 5120],
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
    for (const file of files) expect(readFileSync(`dist/client/${file}`, 'utf8')).not.toMatch(/from ['"]history['"]|require\(['"]history['"]\)/);
  });
});
