import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/index.js';
import { listen, type Running } from '../server/helpers.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';
import { BROWSERS, launch, type BrowserName, type Session, type Tab } from './browsers.js';

// In real Chromium and Firefox, under cleanUrls 'all': a page the real app rendered in happy-dom
// (headlessRenderer), and a page prerender wrote, served from a fileStore. Their heads hold the
// first state's tags; once the visitor navigates on, no tag of that state may stay or come back,
// and its canonical link stays only while it is shown. The app is the UMD bundle of dist/ and the
// server the built package (`npm run build` first): the headless renderer starts from dist/.
const { createSnapshotHandler, headlessRenderer, prerender, fileStore } =
  (await import('crawlable-router/server')) as typeof import('../../src/server/index.js');

const ORIGIN = 'https://shop.example';
const ROUTES = `export const table = (createRoutes) =>
  createRoutes([
    { path: '/', title: 'Home', head: () => ({ meta: [{ property: 'og:title', content: 'Home' }] }), render: () => '<h1>Home</h1><a href="/items/1">Item 1</a>' },
    {
      path: '/items/:id',
      entries: () => [{ id: '1' }],
      title: ({ params }) => 'Item ' + params.id,
      head: ({ params }) => ({ meta: [{ property: 'og:title', content: 'Item ' + params.id }], jsonLd: { '@type': 'Product', name: 'Item ' + params.id } }),
      render: ({ params }) => '<h1>Item ' + params.id + '</h1><a href="/">Home</a> <a href="/about">About</a>',
    },
    { path: '/about', render: () => '<h1>About</h1>' },
  ]);
`;
const APP = `import { table } from './routes.mjs';
const { createRoutes, createRouter } = window.CrawlableRouter;
window.router = createRouter({ routes: table(createRoutes), outlet: '#app', mode: 'history' });
window.router.start();
`;
const SHELL =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shop</title><meta name="description" content="The shop">' +
  '<meta property="og:site_name" content="Shop"><script src="/router.js"></script><script type="module" src="/app.js"></script></head>' +
  '<body><main id="app"></main></body></html>';
const FILES: Record<string, string> = { '/router.js': 'router.js', '/app.js': 'app.js', '/routes.mjs': 'routes.mjs' };

let dir: string;
let out: string;
const browsers = new Map<BrowserName, Session>();
const servers: Running[] = [];
const closers: (() => Promise<void>)[] = [];

/** Serves the app's scripts from `dir` and every other path from `handler`, as an app's server does. */
async function serve(handler: { node: (req: never, res: never, next: () => void) => Promise<void> }): Promise<Running> {
  const server = await listen((req, res) => {
    const file = FILES[(req.url ?? '/').split('?')[0] as string];
    if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(path.join(dir, file)));
    else void handler.node(req as never, res as never, () => res.writeHead(404).end());
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'snapshot-head-app-'));
  out = mkdtempSync(path.join(tmpdir(), 'snapshot-head-files-'));
  copyFileSync(path.resolve('dist/crawlable-router.umd.min.js'), path.join(dir, 'router.js'));
  writeFileSync(path.join(dir, 'app.js'), APP);
  writeFileSync(path.join(dir, 'routes.mjs'), ROUTES);
  writeFileSync(path.join(dir, 'index.html'), SHELL);
  for (const name of BROWSERS) browsers.set(name, await launch(name));
});

afterAll(async () => {
  // Everything is closed, whatever fails to close: the first failure is reported after.
  const closed = await Promise.allSettled([
    ...[...browsers.values()].map((browser) => browser.close()),
    ...servers.splice(0).map((s) => s.close()),
    ...closers.splice(0).map((close) => close()),
  ]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  for (const result of closed) if (result.status === 'rejected') throw result.reason;
});

/** The route table of routes.mjs, the very module the app imports. */
const routes = async () => {
  const module = (await import(pathToFileURL(path.join(dir, 'routes.mjs')).href)) as {
    table: (create: typeof createRoutes) => Parameters<typeof createSnapshotHandler>[0]['routes'];
  };
  return module.table(createRoutes);
};

const servedBy = {
  async headless() {
    const renderer = headlessRenderer({ root: dir, timeoutMs: RENDER_LIVENESS_MS, maxPages: 1 });
    closers.push(() => renderer.close());
    return createSnapshotHandler({
      routes: await routes(),
      origin: ORIGIN,
      shell: SHELL,
      renderer,
      cleanUrls: 'all',
      timeoutMs: RENDER_LIVENESS_MS,
      onError: () => {},
    });
  },
  async prerendered() {
    const report = await prerender({ routes: await routes(), outDir: out, origin: ORIGIN, shell: SHELL });
    expect([report.failures, report.written]).toEqual([[], 3]);
    const cache = { store: fileStore(out), ttlMs: Infinity };
    return createSnapshotHandler({ routes: await routes(), origin: ORIGIN, shell: SHELL, cleanUrls: 'all', cache, onError: () => {} });
  },
};

/** The head's meta, link and JSON-LD tags as `key=value`, sorted: what a crawler running the page reads. */
const head = (page: Tab) =>
  page.evaluate(() =>
    [...document.head.querySelectorAll('meta[name],meta[property],link[rel],script[type="application/ld+json"]')]
      .map((el) =>
        el.localName === 'meta'
          ? `${el.getAttribute('name') ?? el.getAttribute('property')}=${el.getAttribute('content')}`
          : el.localName === 'link'
            ? `${el.getAttribute('rel')}=${el.getAttribute('href')}`
            : `json-ld=${el.textContent}`,
      )
      .sort(),
  );

/** Waits until the router has settled on `location`. */
const at = (page: Tab, location: string) =>
  page.waitForFunction(
    (loc) =>
      document.documentElement.dataset['routerState'] === 'settled' &&
      (window as unknown as { router: { current: { location: string } | null } }).router.current?.location === loc,
    location,
  );

// Open Graph's URL and type are derived on the client too: og:url on the window's origin (here the test
// server's, where the snapshot's canonical link names the configured origin, as it does in production).
const ITEM = (origin: string) => [
  'json-ld={"@type":"Product","name":"Item 1"}',
  'og:title=Item 1',
  'og:type=website',
  `og:url=${origin}/items/1`,
];
const HOME = (origin: string) => ['og:title=Home', 'og:type=website', `og:url=${origin}/`];
const SHELL_TAGS = ['description=The shop', 'og:site_name=Shop'];

describe.each(Object.keys(servedBy) as (keyof typeof servedBy)[])("a %s page under cleanUrls 'all'", (kind) => {
  let server: Running;
  beforeAll(async () => {
    server = await serve(await servedBy[kind]());
  });

  it("is the state's snapshot, with no data for the router", async () => {
    const html = await (await fetch(server.base + '/items/1')).text();
    expect(html).toContain('<h1>Item 1</h1>');
    expect(html).not.toContain('crawlable-router-data');
  });

  describe.each(BROWSERS)('in %s', (name) => {
    /** A new tab of `name`, its uncaught errors in `errors`. */
    async function tab(errors: string[] = []) {
      const page = await (browsers.get(name) as Session).newTab();
      page.onError((text) => errors.push(text));
      return page;
    }

    it("shows the first state's tags, then exactly the shell's and the state's on every state navigated to, and back", async () => {
      const errors: string[] = [];
      const page = await tab(errors);
      try {
        await page.goto(server.base + '/items/1');
        await at(page, '/items/1');
        expect(await head(page)).toEqual(['canonical=https://shop.example/items/1', ...SHELL_TAGS, ...ITEM(server.base)].sort());
        await page.click('main a[href="/"]');
        await at(page, '/');
        expect(await head(page)).toEqual([...SHELL_TAGS, ...HOME(server.base)].sort());
        await page.goBack();
        await at(page, '/items/1');
        // The first state again, as the client writes it: it has no origin to write a canonical link.
        expect(await head(page)).toEqual([...SHELL_TAGS, ...ITEM(server.base)].sort());
        await page.goForward();
        await at(page, '/');
        expect(await head(page)).toEqual([...SHELL_TAGS, ...HOME(server.base)].sort());
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });

    it("shows the shell's title, not the first state's, on a route without one", async () => {
      const page = await tab();
      try {
        await page.goto(server.base + '/items/1');
        await at(page, '/items/1');
        expect(await page.title()).toBe('Item 1');
        await page.click('main a[href="/about"]');
        await at(page, '/about');
        expect(await page.title()).toBe('Shop');
      } finally {
        await page.close();
      }
    });
  });
});
