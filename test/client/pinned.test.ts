import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launch } from '../demo/chromium.js';

// Where pushState to another path is refused, in real Chromium: a page opened from file:// and a
// sandboxed srcdoc frame (opaque origin). `auto` must choose `#!` there, and every write, link click
// and back/forward must stay on that very document. The app is the UMD bundle (dist/, `npm run
// build` first) with a small route table, in auto mode and the default base `/`.

const APP = `
const { createRoutes, createRouter } = CrawlableRouter;
const routes = createRoutes([
  { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
  { path: '/books/:id', title: ({ params }) => 'Book ' + params.id, render: ({ params }) => '<h1>Book ' + params.id + '</h1>' },
]);
const router = createRouter({ routes, outlet: '#app' });
document.getElementById('nav').innerHTML =
  ['/books/1', '/books/2'].map((l) => '<a href="' + router.href(l) + '">' + l + '</a>').join(' ') + ' <a href="#!/books/3">/books/3</a>';
window.router = router;
window.marker = 42; // gone if the document is ever replaced
router.start();
`;
const BODY = '<nav id="nav"></nav><main id="app"></main>';
const umd = join(process.cwd(), 'dist/crawlable-router.umd.min.js');

let dir: string;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crawlable-router-pinned-'));
  copyFileSync(umd, join(dir, 'crawlable-router.umd.min.js'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>app</title><script src="crawlable-router.umd.min.js"></script></head><body>${BODY}<script>${APP}</script></body></html>`,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  page = await browser.newPage();
});
afterEach(() => page.close());

/** What the tests ask of the app's document, whichever frame it is in. */
function app(frame: () => Frame) {
  const settled = () => frame().waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled');
  return {
    settled,
    state: () =>
      frame().evaluate(() => {
        const w = window as unknown as { router: { mode: string; current: { location: string } | null }; marker?: number };
        return {
          mode: w.router.mode,
          location: w.router.current?.location,
          h1: document.querySelector('h1')?.textContent,
          marker: w.marker,
          href: location.href,
        };
      }),
    async follow(text: string) {
      const before = await frame().evaluate(() => location.href);
      await frame().getByRole('link', { name: text, exact: true }).click();
      await frame().waitForFunction((from) => location.href !== from, before);
      await settled();
    },
  };
}

describe('a page opened from file://', () => {
  const file = () => pathToFileURL(join(dir, 'index.html')).href;
  const t = app(() => page.mainFrame());

  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the file', async () => {
    await page.goto(file());
    await t.settled();
    expect(await t.state()).toEqual({ mode: 'hashbang', location: '/', h1: 'Home', marker: 42, href: file() + '#!/' });
    // The links the app wrote with href() name this very file.
    expect(await page.locator('nav a').first().getAttribute('href')).toBe(file() + '#!/books/1');
    // The very navigate that once left for file:///books/1 (a refused pushState, then location.assign).
    expect(
      await page.evaluate(() => (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/9')),
    ).toBe(true);
    expect(await t.state()).toMatchObject({ location: '/books/9', h1: 'Book 9', marker: 42, href: file() + '#!/books/9' });
    await t.follow('/books/1');
    expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42, href: file() + '#!/books/1' });
    await t.follow('/books/3');
    expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42, href: file() + '#!/books/3' });
    expect(await page.title()).toBe('Book 3');
    await page.goBack();
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42 });
    await page.goBack();
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/9', marker: 42, href: file() + '#!/books/9' });
    await page.goForward();
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/1', marker: 42, href: file() + '#!/books/1' });
  });

  it('reads the state a #! link to the file names', async () => {
    await page.goto(file() + '#!/books/7');
    await t.settled();
    expect(await t.state()).toMatchObject({ mode: 'hashbang', location: '/books/7', h1: 'Book 7', href: file() + '#!/books/7' });
  });
});

describe('a sandboxed srcdoc frame (allow-scripts, no allow-same-origin)', () => {
  let server: Server;
  let origin: string;
  const t = app(() => page.frames()[1] as Frame);
  beforeAll(async () => {
    // The host page over http on 127.0.0.1; the frame's document carries the bundle inline (an opaque
    // origin loads nothing of the host's) and its base URL is the host page's.
    const srcdoc = `<!doctype html><html><head><meta charset="utf-8"><script>${readFileSync(umd, 'utf8')}</script></head><body>${BODY}<script>${APP}</script></body></html>`;
    const attr = srcdoc.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const host = `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body><iframe sandbox="allow-scripts" srcdoc="${attr}"></iframe></body></html>`;
    server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(host));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the frame’s document', async () => {
    await page.goto(origin + '/host.html');
    await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow !== null);
    await t.settled();
    expect(await t.state()).toEqual({ mode: 'hashbang', location: '/', h1: 'Home', marker: 42, href: 'about:srcdoc#!/' });
    await t.follow('/books/1');
    expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42, href: 'about:srcdoc#!/books/1' });
    // A fragment link resolves against the frame's own URL, not its base URL (the host page's).
    await t.follow('/books/3');
    expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42, href: 'about:srcdoc#!/books/3' });
    await (page.frames()[1] as Frame).evaluate(() =>
      (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/2'),
    );
    expect(await t.state()).toMatchObject({ location: '/books/2', marker: 42, href: 'about:srcdoc#!/books/2' });
    // The browser's own back (Playwright's goBack waits for the top page, which does not move).
    await (page.frames()[1] as Frame).evaluate(() => history.back());
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42 });
    await (page.frames()[1] as Frame).evaluate(() => (window as unknown as { router: { back(): void } }).router.back());
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/1', marker: 42 });
    await (page.frames()[1] as Frame).evaluate(() => history.forward());
    await t.settled();
    expect(await t.state()).toMatchObject({ location: '/books/3', marker: 42, href: 'about:srcdoc#!/books/3' });
    expect(page.url()).toBe(origin + '/host.html');
  });
});
