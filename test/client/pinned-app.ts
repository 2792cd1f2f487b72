// The app of the tests where pushState to another path is refused (pinned.test.ts in Chromium,
// firefox.test.ts in Firefox), and the scenarios they both walk: a file:// page, a sandboxed frame. The app is the UMD bundle
// (dist/, `npm run build` first) with a small route table, in auto mode and the default base `/`.
// The helpers drive a browser through `Driver`, which each test builds on its own driver
// (playwright-core's, puppeteer-core's), so the steps and what they expect live here once.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';

export const APP = `
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
export const BODY = '<nav id="nav"></nav><main id="app"></main>';
export const UMD = join(process.cwd(), 'dist/crawlable-router.umd.min.js');

/** Writes the app as `index.html` beside a copy of the bundle in `dir`; returns the page's file:// URL. */
export function writeFileApp(dir: string): string {
  copyFileSync(UMD, join(dir, 'crawlable-router.umd.min.js'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>app</title><script src="crawlable-router.umd.min.js"></script></head><body>${BODY}<script>${APP}</script></body></html>`,
  );
  return pathToFileURL(join(dir, 'index.html')).href;
}

/** What the helpers need of a browser, run in the app's document (whichever frame it is in). */
export interface Driver {
  run<R>(f: () => R): Promise<R>;
  /** Waits until `f(arg)` is true in the app's document. */
  until(f: (arg: string | null) => boolean, arg: string | null): Promise<void>;
  /** Clicks, as a user does, the link whose text is `text`. */
  click(text: string): Promise<void>;
}

/** A driver that can also load the top page and move its history, as the browser's buttons do. */
export interface PageDriver extends Driver {
  goto(url: string): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
}

/** What the tests ask of the app's document. */
export function app(d: Driver) {
  const settled = () => d.until(() => document.documentElement.dataset['routerState'] === 'settled', null);
  /** Does `act`, waits for the URL to move from where it is, then for the router to settle. */
  const moving = async (act: () => Promise<unknown>) => {
    const before = await d.run(() => location.href);
    await act();
    await d.until((from) => location.href !== from, before);
    await settled();
  };
  return {
    settled,
    moving,
    state: () =>
      d.run(() => {
        const w = window as unknown as { router: { mode: string; current: { location: string } | null }; marker?: number };
        return {
          mode: w.router.mode,
          location: w.router.current?.location,
          h1: document.querySelector('h1')?.textContent,
          marker: w.marker,
          href: location.href,
        };
      }),
    follow: (text: string) => moving(() => d.click(text)),
  };
}

/**
 * The page at `file` (the app written by writeFileApp): `auto` chooses `#!`, and navigate(), link
 * clicks and back/forward stay on that very document.
 */
export async function walkFile(d: PageDriver, file: string): Promise<void> {
  const t = app(d);
  await d.goto(file);
  await t.settled();
  expect(await t.state()).toEqual({ mode: 'hashbang', location: '/', h1: 'Home', marker: 42, href: file + '#!/' });
  // The links the app wrote with href() name this very file.
  expect(await d.run(() => document.querySelector('nav a')?.getAttribute('href'))).toBe(file + '#!/books/1');
  // The very navigate that once left for file:///books/1 (a refused pushState, then location.assign).
  expect(await d.run(() => (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/9'))).toBe(
    true,
  );
  expect(await t.state()).toMatchObject({ location: '/books/9', h1: 'Book 9', marker: 42, href: file + '#!/books/9' });
  await t.follow('/books/1');
  expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42, href: file + '#!/books/1' });
  await t.follow('/books/3');
  expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42, href: file + '#!/books/3' });
  expect(await d.run(() => document.title)).toBe('Book 3');
  await t.moving(() => d.back());
  expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42 });
  await t.moving(() => d.back());
  expect(await t.state()).toMatchObject({ location: '/books/9', marker: 42, href: file + '#!/books/9' });
  await t.moving(() => d.forward());
  expect(await t.state()).toMatchObject({ location: '/books/1', marker: 42, href: file + '#!/books/1' });
}

/** A `#!` link to the page at `file` opens at the state it names. */
export async function openFileDeepLink(d: PageDriver, file: string): Promise<void> {
  const t = app(d);
  await d.goto(file + '#!/books/7');
  await t.settled();
  expect(await t.state()).toMatchObject({ mode: 'hashbang', location: '/books/7', h1: 'Book 7', marker: 42, href: file + '#!/books/7' });
}

/** The app's document, in a sandboxed frame: a driver that runs in the frame, and the top page's URL. */
export interface FrameDriver extends Driver {
  topUrl(): string;
}

/**
 * A server on 127.0.0.1 of a host page whose sandboxed srcdoc frame (allow-scripts, no
 * allow-same-origin: an opaque origin) holds the app, the bundle inline (an opaque origin loads
 * nothing of the host's); the frame's base URL is the host page's. The caller closes it.
 */
export async function sandboxedHost(): Promise<{ url: string; close(): Promise<void> }> {
  const srcdoc = `<!doctype html><html><head><meta charset="utf-8"><script>${readFileSync(UMD, 'utf8')}</script></head><body>${BODY}<script>${APP}</script></body></html>`;
  const attr = srcdoc.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const host = `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body><iframe sandbox="allow-scripts" srcdoc="${attr}"></iframe></body></html>`;
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(host));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/host.html`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The app in the sandboxed frame of the host page at `host` (loaded, its frame there): `auto`
 * chooses `#!`, and navigate(), link clicks and history moves stay on the frame's document.
 */
export async function walkSandboxedFrame(d: FrameDriver, host: string): Promise<void> {
  const t = app(d);
  type Router = { navigate(to: string): Promise<boolean>; back(): void };
  await t.settled();
  expect(await t.state()).toEqual({ mode: 'hashbang', location: '/', h1: 'Home', marker: 42, href: 'about:srcdoc#!/' });
  await t.follow('/books/1');
  expect(await t.state()).toMatchObject({ location: '/books/1', h1: 'Book 1', marker: 42, href: 'about:srcdoc#!/books/1' });
  // A fragment link resolves against the frame's own URL, not its base URL (the host page's).
  await t.follow('/books/3');
  expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42, href: 'about:srcdoc#!/books/3' });
  await d.run(() => (window as unknown as { router: Router }).router.navigate('/books/2'));
  expect(await t.state()).toMatchObject({ location: '/books/2', marker: 42, href: 'about:srcdoc#!/books/2' });
  // The frame's own history (a driver's back waits for the top page, which does not move).
  await t.moving(() => d.run(() => history.back()));
  expect(await t.state()).toMatchObject({ location: '/books/3', h1: 'Book 3', marker: 42 });
  await t.moving(() => d.run(() => (window as unknown as { router: Router }).router.back()));
  expect(await t.state()).toMatchObject({ location: '/books/1', marker: 42 });
  await t.moving(() => d.run(() => history.forward()));
  expect(await t.state()).toMatchObject({ location: '/books/3', marker: 42, href: 'about:srcdoc#!/books/3' });
  expect(d.topUrl()).toBe(host);
}
