import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViteDevServer } from 'vite';
import { crawlableRouter } from 'crawlable-router/vite';
import { askAlone, BOT, BROWSER, devServer, get, makeApp, ORIGIN, routesTs, urlOf, VIEWS_TS, withMiddlewares, type App } from './app.js';

// `vite dev` with the plugin: snapshots from the table's hooks for bots and ugly URLs, Vite's page
// for browsers, and the routes module as it is now on every request.

describe('vite dev with crawlableRouter', () => {
  let app: App;
  let server: ViteDevServer;
  let url: string;
  beforeAll(async () => {
    app = await makeApp();
    server = await devServer(app);
    url = urlOf(server);
  });
  afterAll(async () => {
    await server?.close();
    await app?.remove();
  });

  it("answers a bot at a clean URL with the state's snapshot in Vite's page", async () => {
    const page = await get(`${url}books/1`, BOT);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<title[^>]*>Book 1<\/title>/);
    expect(page.body).toContain('<div id="app"><h1>Book: Book 1</h1></div>');
    expect(page.body).toContain('<link rel="canonical" href="https://example.com/books/1"');
    // The shell is Vite's transformed index.html: its client and the app's entry.
    expect(page.body).toContain('/@vite/client');
    expect(page.body).toContain('src="/main.ts"');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('answers any client at an ugly URL with the snapshot', async () => {
    const page = await get(`${url}?_escaped_fragment_=/books/2`, BROWSER);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<title[^>]*>Book 2<\/title>/);
    expect(page.body).toContain('<h1>Book: Book 2</h1>');
  });

  it("answers a state that does not exist with 404 and the table's notFound view", async () => {
    for (const target of ['books/99', '?_escaped_fragment_=/books/99']) {
      const page = await get(url + target, BOT);
      expect(page.status).toBe(404);
      expect(page.body).toContain('<h1>No such page</h1>');
    }
  });

  it("gives a browser Vite's own page, the router's to draw", async () => {
    const page = await get(`${url}books/1`, BROWSER);
    expect(page.status).toBe(200);
    expect(page.body).toContain('/@vite/client');
    expect(page.body).toContain('<div id="app"></div>');
    expect(page.body).not.toContain('Book 1');
  });

  it('leaves the modules a page asks for to Vite', async () => {
    const main = await fetch(`${url}main.ts`, { headers: { 'user-agent': BOT } });
    expect(main.status).toBe(200);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    const client = await fetch(`${url}@vite/client`, { headers: { 'user-agent': BOT } });
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toMatch(/javascript/);
  });

  it('shows an edit to the routes module on the next request, with no restart', async () => {
    const before = server.httpServer;
    const changed = new Promise((resolve) => server.watcher.once('change', resolve));
    await app.write('routes.ts', routesTs({ heading: 'Edited' }));
    await changed;
    // Vite's watcher has seen the file; the module graph is invalidated as its listener runs.
    let page = await get(`${url}books/1`, BOT);
    for (let i = 0; i < 40 && !page.body.includes('Edited'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = await get(`${url}books/1`, BOT);
    }
    expect(page.body).toContain('<h1>Edited: Book 1</h1>');
    expect(server.httpServer).toBe(before);
  });
});

describe("vite dev's Host check (DNS rebinding)", () => {
  let app: App;
  let server: ViteDevServer;
  beforeAll(async () => {
    app = await makeApp();
    server = await devServer(app);
  });
  afterAll(async () => {
    await server?.close();
    await app?.remove();
  });

  /** GET `target` as a bot with a `Host` header, from the plugin's dev middleware alone. */
  async function alone(target: string, host: string) {
    const configureServer = crawlableRouter({ routes: 'routes.ts', origin: ORIGIN }).configureServer as (
      server: ViteDevServer,
    ) => Promise<void>;
    return askAlone((middlewares) => configureServer(withMiddlewares(server, middlewares)), target, host);
  }

  it('leaves to Vite a request whose Host the dev server does not allow, whichever of the two runs first', async () => {
    // A page on evil.example whose name now resolves to 127.0.0.1 reads what it asks for: not the snapshot.
    for (const target of ['/books/1', '/?_escaped_fragment_=/books/1']) {
      expect(await alone(target, 'evil.example')).toEqual({ status: 404, body: 'next' });
      expect(await alone(target, 'evil.example:5173')).toEqual({ status: 404, body: 'next' });
    }
    // The hosts Vite allows still get it: an address, localhost, a name under .localhost.
    for (const host of ['127.0.0.1:5173', 'localhost:5173', 'app.localhost', '[::1]:5173']) {
      const page = await alone('/books/1', host);
      expect([page.status, page.body.includes('<h1>Book: Book 1</h1>')]).toEqual([200, true]);
    }
  });
});

describe('vite dev with a table of React views', () => {
  let app: App;
  let server: ViteDevServer;
  let url: string;
  beforeAll(async () => {
    app = await makeApp({ 'routes.ts': VIEWS_TS });
    server = await devServer(app);
    url = urlOf(server);
  });
  afterAll(async () => {
    await server?.close();
    await app?.remove();
  });

  it("answers a bot with the state's view drawn by React, its links and its 404 among them", async () => {
    const book = await get(`${url}books/1`, BOT);
    expect(book.status).toBe(200);
    expect(book.body).toContain('<div id="app"><h1>React: Book 1</h1></div>');
    expect((await get(`${url}?_escaped_fragment_=/`, BROWSER)).body).toContain('<h1>Drawn by React: <a href="/books/1">the first</a></h1>');
    const missing = await get(`${url}books/2`, BOT);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<h1>No such page, said React</h1>');
  });
});
