import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinEnvironments } from 'vitest/runtime';
import type { Router } from 'crawlable-router/client';
import type { SnapshotHandler } from 'crawlable-router/server';
import { appFolder, readDoc, recipesUnder, type AppFolder } from './recipes.js';

// docs/react.md: its views, table, browser and server recipes run as printed (test/docs/recipes.ts;
// vitest compiles the `.jsx` file as Vite would), the server's page then hydrated by the browser's.
// Its TypeScript block is compiled by test/react/types.test.ts. The file runs in Node, as the
// recipes' working folder asks (a happy-dom environment's imports fail after a chdir); the browser's
// recipe gets happy-dom's globals as vitest's environment sets them, for that test alone.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DOC = readDoc('docs/react.md');
const SECTIONS = {
  views: 'A route table with views',
  browser: 'In the browser: `mount`, the outlet and links',
  server: 'On the server: `reactRenderer()`',
};
const ORIGIN = 'https://example.com';
/** The app's own data, which the recipes import, counting what is asked of it. */
const DATA = `export const asked = [];
const BOOKS = { 1: { title: 'Dune', summary: 'Spice & sand' }, 2: { title: 'Emma', summary: 'Matchmaking' } };
export async function getBook(id, signal) {
  asked.push(id);
  signal.throwIfAborted();
  return BOOKS[id];
}
`;
const SHELL =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Books</title><script type="module" src="/assets/main.js"></script></head>' +
  '<body><div id="app"></div></body></html>\n';

let folders: AppFolder[] = [];
let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
  for (const folder of folders.splice(0)) folder.remove();
  vi.restoreAllMocks();
});

/** A folder with the app's data and shell, and every recipe of the page written as printed. */
function app() {
  const folder = appFolder({ 'data.js': DATA, 'dist/index.html': SHELL });
  folders.push(folder);
  const recipes = Object.values(SECTIONS).flatMap((heading) => recipesUnder(DOC, heading));
  for (const recipe of recipes) folder.write(recipe);
  return { folder, files: recipes.map((recipe) => recipe.file) };
}

const outletOf = (html: string) => /<div id="app"[^>]*>([\s\S]*?)<\/div><\/body>/.exec(html)?.[1];

describe('docs/react.md', () => {
  it('prints a table with views, a browser and a server', () => {
    expect(app().files).toEqual(['views.jsx', 'routes.js', 'main.js', 'server.js']);
  });

  it("runs the server recipe: the views rendered with the hooks' title, head and statuses", async () => {
    const { folder } = app();
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const page = (await snapshots.fetch(new Request(`${ORIGIN}/books/1`)))!;
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title data-router-title="Books">Dune</title>');
    expect(html).toContain('<meta name="description" content="Spice &amp; sand"');
    expect(outletOf(html)).toBe(
      '<article><h1>Dune</h1><p>Book <!-- -->1<!-- -->: <!-- -->Spice &amp; sand</p><a href="/">All books</a> <button>Back</button></article>',
    );
    const home = await (await snapshots.fetch(new Request(`${ORIGIN}/`)))!.text();
    expect(outletOf(home)).toBe('<main><h1>Books</h1><a href="/books/1">Dune</a></main>');
    const missing = (await snapshots.fetch(new Request(`${ORIGIN}/books/9`)))!;
    expect(missing.status).toBe(404);
    expect(outletOf(await missing.text())).toBe('<h1>Nothing at <!-- -->/books/9</h1>');
  });

  it("runs the browser recipe on the server's page: hydrated, no second load, then navigating", async () => {
    const { folder } = app();
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const { asked } = await folder.load<{ asked: string[] }>('data.js');
    const html = await (await snapshots.fetch(new Request(`${ORIGIN}/books/1`)))!.text();
    expect(asked).toEqual(['1']);
    const dom = await builtinEnvironments['happy-dom'].setup(globalThis, {});
    cleanup.push(() => void dom.teardown(globalThis));
    window.history.replaceState(null, '', '/books/1');
    const page = new DOMParser().parseFromString(html, 'text/html');
    // The page's script is main.js, the recipe run below (happy-dom loads no file).
    page.querySelector('script[src]')?.remove();
    document.head.replaceWith(document.importNode(page.head, true));
    document.body.replaceWith(document.importNode(page.body, true));
    const outlet = document.getElementById('app') as HTMLElement;
    const heading = outlet.querySelector('h1');
    const mutations: MutationRecord[] = [];
    const observer = new MutationObserver((records) => void mutations.push(...records));
    observer.observe(outlet, { childList: true, subtree: true, characterData: true, attributes: true });
    const errors = vi.spyOn(console, 'error');
    let main: { router: Router; root: Root } | undefined;
    await act(async () => void (main = await folder.run('main.js')));
    const { router, root } = main as { router: Router; root: Root };
    cleanup.push(() => (act(() => root.unmount()), router.destroy()));
    await new Promise((resolve) => setTimeout(resolve, 0));
    mutations.push(...observer.takeRecords());
    observer.disconnect();
    // The page's data, not a second load; the server's nodes, kept; no mismatch.
    expect(asked).toEqual(['1']);
    expect(mutations).toEqual([]);
    expect(outlet.querySelector('h1')).toBe(heading);
    expect(errors).not.toHaveBeenCalled();
    // The links are the router's: "All books" draws the home view, Back returns, loading again.
    await act(async () => void (outlet.querySelector('a') as HTMLAnchorElement).click());
    await act(() => router.settled());
    expect([window.location.pathname, document.title, outlet.querySelector('h1')?.textContent]).toEqual(['/', 'Books', 'Books']);
    await act(async () => void (outlet.querySelector('a') as HTMLAnchorElement).click());
    await act(() => router.settled());
    expect([window.location.pathname, document.title]).toEqual(['/books/1', 'Dune']);
    await act(async () => void (outlet.querySelector('button') as HTMLButtonElement).click());
    await act(() => router.settled());
    expect(window.location.pathname).toBe('/');
    expect(asked).toEqual(['1', '1']);
  });
});
