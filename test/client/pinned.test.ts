import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launch } from '../demo/chromium.js';
import { APP, BODY, UMD, app, writeFileApp, openFileDeepLink, walkFile, type Driver, type PageDriver } from './pinned-app.js';

// Where pushState to another path is refused, in real Chromium: a page opened from file:// and a
// sandboxed srcdoc frame (opaque origin). `auto` must choose `#!` there, and every write, link click
// and back/forward must stay on that very document. The app and the file:// scenario are
// pinned-app.ts's, which firefox.test.ts walks in Firefox.

let dir: string;
let file: string;
let browser: Browser;
let page: Page;
/** Console errors and warnings, and uncaught errors, of the page. */
let logged: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crawlable-router-pinned-'));
  file = writeFileApp(dir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  page = await browser.newPage();
  logged = [];
  page.on('console', (message) => void (['error', 'warning', 'assert'].includes(message.type()) && logged.push(message.text())));
  page.on('pageerror', (error) => void logged.push(error.message));
});
afterEach(() => page.close());

/** The app's document in `frame`, through playwright-core. */
function driver(frame: () => Frame): Driver {
  return {
    run: (f) => frame().evaluate(f),
    until: async (f, arg) => void (await frame().waitForFunction(f, arg)),
    click: (text) => frame().getByRole('link', { name: text, exact: true }).click(),
  };
}

/** The top page, with the browser's back and forward. */
function pageDriver(): PageDriver {
  return {
    ...driver(() => page.mainFrame()),
    goto: async (url) => void (await page.goto(url)),
    back: async () => void (await page.goBack()),
    forward: async () => void (await page.goForward()),
  };
}

describe('a page opened from file://', () => {
  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the file, logging nothing', async () => {
    await walkFile(pageDriver(), file);
    expect(logged).toEqual([]);
  });

  it('reads the state a #! link to the file names, logging nothing', async () => {
    await openFileDeepLink(pageDriver(), file);
    expect(logged).toEqual([]);
  });
});

describe('a sandboxed srcdoc frame (allow-scripts, no allow-same-origin)', () => {
  let server: Server;
  let origin: string;
  const t = app(driver(() => page.frames()[1] as Frame));
  beforeAll(async () => {
    // The host page over http on 127.0.0.1; the frame's document carries the bundle inline (an opaque
    // origin loads nothing of the host's) and its base URL is the host page's.
    const srcdoc = `<!doctype html><html><head><meta charset="utf-8"><script>${readFileSync(UMD, 'utf8')}</script></head><body>${BODY}<script>${APP}</script></body></html>`;
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
