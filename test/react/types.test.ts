import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { blocksOf, readDoc, sectionOf } from '../docs/recipes.js';

// The built types as an app's compiler reads them through the exports map (test/types/ checks the
// sources), on docs/react.md's TypeScript example as printed: the binding's .d.ts names the core's
// types by `crawlable-router`, so a table of route() routes registered for Link keeps its names and
// params (its two `@ts-expect-error` lines are errors), views are typed by their routes, and
// reactRenderer fits createSnapshotHandler. The app is TSX, as React apps are: JSX's element type
// needs no props resolved, so a view in the table may render a Link to the table (with
// createElement its return type would have to be written).

/** The page's TypeScript example, as printed. */
const APP = blocksOf(sectionOf(readDoc('docs/react.md'), 'TypeScript')).find((block) => block.lang === 'tsx')?.code ?? '';
/** The app's own data, which the example imports. */
const DATA = `export interface Book { id: string; title: string }
export async function getBook(id: string, signal: AbortSignal): Promise<Book> {
  signal.throwIfAborted();
  return { id, title: 'Dune' };
}
`;

describe("the binding's built types", () => {
  it.each(['esnext', 'commonjs'] as const)(
    "keep a registered table's names and params for Link, through the exports map (module %s)",
    async (module) => {
      const root = await mkdtemp(path.join(tmpdir(), 'crawlable-router-react-types-'));
      try {
        await mkdir(path.join(root, 'node_modules', '@types'), { recursive: true });
        const link = (name: string, target = path.resolve('node_modules', name)) =>
          symlink(target, path.join(root, 'node_modules', name), 'dir');
        await Promise.all([
          link('crawlable-router', process.cwd()),
          ...['react', 'react-dom', '@types/react', '@types/react-dom', '@types/node'].map((name) => link(name)),
        ]);
        const file = path.join(root, 'app.tsx');
        expect(APP).toContain("declare module 'crawlable-router/react'");
        await writeFile(file, APP);
        await writeFile(path.join(root, 'data.ts'), DATA);
        await writeFile(path.join(root, 'package.json'), module === 'esnext' ? '{ "type": "module" }\n' : '{}\n');
        const program = ts.createProgram([file], {
          strict: true,
          jsx: ts.JsxEmit.ReactJSX,
          noEmit: true,
          // As apps compile: the declaration files' own checks are their authors' (and slow on a shared machine).
          skipLibCheck: true,
          target: ts.ScriptTarget.ES2022,
          lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
          types: ['node'],
          ...(module === 'esnext'
            ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }
            : { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }),
        });
        const problems = ts
          .getPreEmitDiagnostics(program)
          .filter((d) => !d.file || !d.file.fileName.includes('/node_modules/@types/'))
          .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        expect(problems).toEqual([]);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
    // A whole program with React's and Node's types: seconds alone, a minute beside other test files.
    120_000,
  );
});
