import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the size script is plain JavaScript with no types of its own
import { budgets, bundleSize, fileSize } from '../scripts/size.mjs';

describe('bundle sizes', () => {
  // The budgets and their history: scripts/size.mjs.
  const cases = Object.entries(budgets as Record<string, { code: string | null; external?: string[]; gzip: number }>);
  it.each(cases)('keeps %s within its budget', async (_, { code, external, gzip }) => {
    const size = (code === null ? await fileSize('dist/crawlable-router.umd.min.js') : await bundleSize(code, { external })) as {
      gzip: number;
    };
    expect(size.gzip).toBeLessThanOrEqual(gzip);
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
