import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewServer } from 'vite';
import { crawlableRouter } from 'crawlable-router/vite';
import { askAlone, BOT, BROWSER, get, makeApp, ORIGIN, previewServer, urlOf, viteBuild, withMiddlewares, type App } from './app.js';

// `vite preview` with the plugin: bots and ugly URLs get the snapshots `vite build` prerendered,
// never the bare shell, read from the build's folder and never written there.

describe('vite preview with crawlableRouter', () => {
  let app: App;
  let server: PreviewServer;
  let url: string;
  beforeAll(async () => {
    app = await makeApp();
    await viteBuild(app);
    // Marked on disk after the build: an answer holding the mark was read from the file, not rendered again.
    const file = 'dist/books/1/index.html';
    await app.write(file, (await app.read(file)).replace('</body>', '<!-- prerendered --></body>'));
    server = await previewServer(app);
    url = urlOf(server);
  });
  afterAll(async () => {
    await server?.close();
    await app?.remove();
  });

  it('answers a bot at a clean URL with the prerendered snapshot', async () => {
    const page = await get(`${url}books/1`, BOT);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Book: Book 1</h1>');
    expect(page.body).toContain('<!-- prerendered -->');
    expect(page.body).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
  });

  it('leaves to Vite a request whose Host the preview server does not allow, whichever of the two runs first', async () => {
    const configurePreviewServer = crawlableRouter({ routes: 'routes.ts', origin: ORIGIN }).configurePreviewServer as (
      server: PreviewServer,
    ) => Promise<void>;
    const alone = (target: string, host: string) =>
      askAlone((middlewares) => configurePreviewServer(withMiddlewares(server, middlewares)), target, host);
    for (const target of ['/books/1', '/?_escaped_fragment_=/books/1'])
      expect(await alone(target, 'evil.example')).toEqual({ status: 404, body: 'next' });
    expect((await alone('/books/1', '127.0.0.1:4173')).body).toContain('<!-- prerendered -->');
  });

  it('answers an ugly URL with the prerendered snapshot', async () => {
    const page = await get(`${url}?_escaped_fragment_=/books/1`, BROWSER);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<!-- prerendered -->');
    expect((await get(`${url}?_escaped_fragment_=/books/2`, BOT)).body).toContain('<h1>Book: Book 2</h1>');
  });

  it('answers a bot at the home page with its snapshot, and a state with no file with 404 and the notFound view', async () => {
    const home = await get(url, BOT);
    expect(home.status).toBe(200);
    expect(home.body).toContain('<h1>Books</h1>');
    const missing = await get(`${url}books/99`, BOT);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<h1>No such page</h1>');
  });

  it('gives a browser the built shell, and the assets as Vite serves them', async () => {
    const page = await get(`${url}books/1`, BROWSER);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app"></div>');
    // The shell as built, with the scheme's meta tag the handler adds to it.
    expect(page.body.replace('<meta name="fragment" content="!">', '')).toBe(await app.read('dist/.crawlable-router.shell.html'));
    const script = /src="\/(assets\/index-[\w-]+\.js)"/.exec(page.body)?.[1];
    const asset = await fetch(`${url}${script}`, { headers: { 'user-agent': BOT } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });

  it("answers a chunk the build has no file for with 404, not Vite's fallback: the home page's snapshot with 200", async () => {
    // A tab open across a rebuild asks for a chunk of the earlier build: Vite's SPA fallback gave it
    // index.html, which the build made the home page's snapshot, as a 200 HTML page (a MIME error
    // in the browser), where the library's server leaves it to the static server's 404.
    for (const agent of [BROWSER, BOT]) {
      const gone = await get(`${url}assets/index-gone1234.js`, agent);
      expect([gone.status, gone.body.includes('<h1>Books</h1>')]).toEqual([404, false]);
    }
    expect((await fetch(`${url}assets/index-gone1234.js`, { method: 'HEAD' })).status).toBe(404);
    // The build's files still go on to Vite.
    const script = /src="\/(assets\/index-[\w-]+\.js)"/.exec((await get(`${url}books/1`, BROWSER)).body)?.[1];
    expect((await get(`${url}${script}`, BROWSER)).status).toBe(200);
    expect((await get(`${url}sitemap.xml`, BOT)).status).toBe(200);
  });

  it('leaves the build folder as the build wrote it', async () => {
    await get(`${url}books/99`, BOT);
    await get(`${url}?_escaped_fragment_=/books/3`, BOT);
    expect(await app.read('dist/books/1/index.html')).toContain('<!-- prerendered -->');
    await expect(app.read('dist/books/99/index.html')).rejects.toThrow(/ENOENT/);
  });
});

describe('vite preview of a build that prerendered nothing', () => {
  it("renders a bot's state from the table's hooks into the built index.html", async () => {
    const app = await makeApp();
    try {
      await viteBuild(app, { prerender: false });
      const server = await previewServer(app, { prerender: false });
      try {
        const page = await get(`${urlOf(server)}books/2`, BOT);
        expect(page.status).toBe(200);
        expect(page.body).toContain('<h1>Book: Book 2</h1>');
        expect(page.body).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
        expect(await app.read('dist/index.html')).toContain('<div id="app"></div>');
      } finally {
        await server.close();
      }
    } finally {
      await app.remove();
    }
  });
});

describe('vite preview of a build whose client environment has an outDir of its own', () => {
  it("serves the prerendered snapshots from the folder Vite previews, the client's", async () => {
    // The shape of an app that also builds a server entry: `environments.client.build.outDir`, which
    // `vite build` writes and `vite preview` serves, where the top-level `build.outDir` stays 'dist'.
    const app = await makeApp();
    const extra = { environments: { client: { build: { outDir: 'dist/client' } } } };
    try {
      await viteBuild(app, {}, extra);
      const server = await previewServer(app, {}, extra);
      try {
        const page = await get(`${urlOf(server)}books/2`, BOT);
        expect(page.status).toBe(200);
        expect(page.body).toContain('<h1>Book: Book 2</h1>');
        expect(page.body).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
      } finally {
        await server.close();
      }
    } finally {
      await app.remove();
    }
  });
});
