import { describe, expect, it } from 'vitest';
import type { RenderJob } from '../../src/server/index.js';
import { createSnapshotHandler, type CleanUrls } from '../../src/server/index.js';
import { reactRenderer } from '../../src/react/server.js';
import { app } from './app.js';

// reactRenderer through createSnapshotHandler: the route hooks give data, title, head, status and
// redirects (RenderJob.hooks), React draws the view into the outlet with react-dom/server.

const ORIGIN = 'https://example.com';
const SHELL =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title></head><body><header>Books</header><main id="app"></main></body></html>';

function serve(cleanUrls: CleanUrls = 'all', base = '/') {
  const { routes, loads } = app(base);
  const handler = createSnapshotHandler({
    routes,
    origin: ORIGIN,
    shell: SHELL,
    cleanUrls,
    renderer: reactRenderer({ routes }),
    onError: () => {},
  });
  const get = (path: string) => handler.fetch(new Request(ORIGIN + path)) as Promise<Response>;
  return { get, loads };
}

/** The outlet's markup in a page. */
const outlet = (html: string) => /<main id="app"[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1];

describe('reactRenderer', () => {
  it("renders the state's view with its data into the outlet, with the hooks' title and head", async () => {
    const { get, loads } = serve();
    const page = await get('/books/1?tab=reviews');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(loads).toEqual(['1']);
    expect(html).toContain('<title data-router-title="Shell">Dune</title>');
    expect(html).toContain('<meta name="description" content="About Dune"');
    expect(html).toContain('<link rel="canonical" href="https://example.com/books/1?tab=reviews"');
    // The view's markup as react-dom/server writes it; Link's href is the clean URL (crawlers are told clean URLs).
    expect(outlet(html)).toBe(
      '<article><h1>Dune</h1><p id="where">1 at /books/1?tab=reviews (history)</p><button id="like">Liked 0</button>' +
        '<a id="next" class="next" href="/books/2?tab=reviews">Next</a></article>',
    );
    // In 'all' mode: the outlet marked and the data handed to the browser, for it to hydrate.
    expect(html).toContain('<main id="app" data-router-rendered="/books/1?tab=reviews">');
    expect(html).toContain('"location":"/books/1?tab=reviews","status":200,"data":{"id":"1","title":"Dune"}');
  });

  it('renders the notFound view with 404 for notFound() and for no match', async () => {
    const { get } = serve();
    for (const path of ['/books/9', '/nowhere']) {
      const page = await get(path);
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain('<title data-router-title="Shell">Not found</title>');
      expect(outlet(html)).toBe('<h1>Nothing here</h1>');
      expect(html).not.toContain('rel="canonical"');
      expect(html).toContain(`"location":"${path}","status":404`);
    }
  });

  it("answers a load's redirect and a redirect route, drawing nothing", async () => {
    const { get } = serve();
    const moved = await get('/moved');
    expect([moved.status, moved.headers.get('location')]).toEqual([302, `${ORIGIN}/books/2`]);
    const old = await get('/old/1');
    expect([old.status, old.headers.get('location')]).toEqual([301, `${ORIGIN}/books/1`]);
  });

  it('fails a state whose load throws as the hooks renderer does: 500, never cached', async () => {
    const { get } = serve();
    expect((await get('/broken')).status).toBe(500);
  });

  it("writes Link's href for crawlers under the base, and a snapshot at an ugly URL", async () => {
    const { get } = serve('bots', '/app/');
    const html = await (await get('/app/?_escaped_fragment_=/books/1')).text();
    expect(outlet(html)).toContain('<a id="next" class="next" href="/app/books/2?tab=reviews">Next</a>');
    expect(html).not.toContain('crawlable-router-data');
    const home = await (await get('/app/?_escaped_fragment_=/')).text();
    expect(outlet(home)).toBe('<main><h1>Books</h1><a id="first" href="/app/books/1">Dune</a></main>');
  });

  it('refuses a call without the route table at once, not at the first request', () => {
    const call = reactRenderer as (options?: unknown) => unknown;
    for (const options of [undefined, null, {}, { routes: [] }])
      expect(() => call(options)).toThrow(
        new TypeError("reactRenderer({ routes }): routes must be the route table from createRoutes(), the handler's"),
      );
  });

  it('refuses a job that carries no hooks (one made by hand): it renders the handler’s jobs', async () => {
    const { routes } = app();
    await expect(reactRenderer({ routes }).render({ location: '/' } as RenderJob)).rejects.toThrow(/createSnapshotHandler/);
  });
});
