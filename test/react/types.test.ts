import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The built types as an app's compiler reads them through the exports map (test/types/ checks the
// sources): the binding's .d.ts names the core's types by `crawlable-router`, so a table of route()
// routes registered for Link keeps its names and params, and reactRenderer fits createSnapshotHandler.
// The app is TSX, as React apps are: JSX's element type needs no props resolved, so a view in the
// table may render a Link to the table (with createElement its return type would have to be written).

const APP = `import { createRoutes } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { Link, Outlet, RouterProvider, route, type ViewProps } from 'crawlable-router/react';
import { reactRenderer } from 'crawlable-router/react/server';
import { createSnapshotHandler } from 'crawlable-router/server';

interface Book { id: string; title: string }
const BookPage = ({ data }: ViewProps<{ id: string }, Book>) => <h1>{data.title}</h1>;
export const routes = createRoutes([
  route({ path: '/', name: 'home', view: () => <Link to="book" params={{ id: '1' }}>Dune</Link> }),
  route({ path: '/books/:id', name: 'book', load: async ({ params }): Promise<Book> => ({ id: params.id, title: 'Dune' }), view: BookPage }),
]);
declare module 'crawlable-router/react' {
  interface Register {
    routes: typeof routes;
  }
}
const router = createRouter({ routes });
export const app = (
  <RouterProvider router={router} routes={routes}>
    <Outlet />
    <Link to="home" className="home">Home</Link>
  </RouterProvider>
);
// @ts-expect-error: no route is named "nope"
export const nope = <Link to="nope" />;
// @ts-expect-error: the book route needs \`id\`
export const slug = <Link to="book" params={{ slug: '1' }} />;
export const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer: reactRenderer({ routes }) });
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
        await writeFile(file, APP);
        await writeFile(path.join(root, 'package.json'), module === 'esnext' ? '{ "type": "module" }\n' : '{}\n');
        const program = ts.createProgram([file], {
          strict: true,
          jsx: ts.JsxEmit.ReactJSX,
          noEmit: true,
          skipLibCheck: false,
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
  );
});
