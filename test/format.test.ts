import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

// One formatter for the whole code base (.prettierrc.json), applied once and kept: a file that
// `npx prettier --write` would change fails here, so formatting never drifts or hides in a diff.
const ROOTS = ['src', 'test', 'bench', 'demo', 'scripts'];
const SKIP = /(^|\/)(node_modules|dist|public|app)(\/|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (SKIP.test(file)) return [];
    return entry.isDirectory() ? sources(file) : /\.(ts|mts|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

describe('formatting', () => {
  it('every source file is as prettier writes it', async () => {
    const unformatted: string[] = [];
    for (const file of ROOTS.flatMap(sources)) {
      const options = await resolveConfig(file);
      if (!(await check(readFileSync(file, 'utf8'), { ...options, filepath: file }))) unformatted.push(file);
    }
    expect(unformatted, 'run npx prettier --write on these').toEqual([]);
    // Prettier reads some 250 files: a minute on a busy two-core machine.
  }, 120_000);
});
