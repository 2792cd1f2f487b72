// An app of the tests' own in a real browser (browsers.ts: Chromium or Firefox): a server on
// 127.0.0.1 answers `/dist/…` with the built ES modules (`npm run build` first), `/app.js` with the
// app's module and every other path with a shell holding the test's markup. Each page records what
// the router must never cause: an uncaught error, a request or a navigation off the origin, a script
// run from a URL.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { launch, type BrowserName, type Session, type Tab } from './browsers.js';

const DIST = join(process.cwd(), 'dist');

export interface AppServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves the shell (`head`, `body`, then the module `app`) at every path but `/dist/` and `/app.js`. */
export async function serveApp(app: string, { head = '', body = '<main id="app"></main>' } = {}): Promise<AppServer> {
  const shell = `<!doctype html><html><head><meta charset="utf-8"><title>shell</title>${head}</head><body>${body}<script type="module" src="/app.js"></script></body></html>`;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    const file = join(DIST, path.slice('/dist/'.length));
    if (path.startsWith('/dist/') && file.startsWith(DIST + sep) && existsSync(file))
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=600' }).end(readFileSync(file));
    else if (path === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Watched {
  page: Tab;
  /** Uncaught errors and console errors of the page. */
  errors: string[];
  /** Requests and top-level navigations off the origin (none reaches another host: see launch()). */
  off: string[];
}

/**
 * A new tab of `browser` on `origin`, every request and document off it recorded. Requests are
 * watched, not intercepted: interception turns Chromium's cache off, and every page would fetch each
 * module of dist/ again. The browsers of launch() resolve no host name, so no request leaves the
 * machine.
 */
export async function watchedPage(browser: Session, origin: string): Promise<Watched> {
  const page = await browser.newTab();
  const errors: string[] = [];
  const off: string[] = [];
  page.onError((text) => errors.push(text));
  page.onConsoleError((text) => errors.push(text));
  page.onDocument((url) => void (!url.startsWith(origin + '/') && url !== 'about:blank' && off.push(url)));
  page.onRequest((url) => void (!url.startsWith(origin + '/') && !/^(data|blob|about):/.test(url) && off.push(url)));
  return { page, errors, off };
}

/** Liveness only: how long a page may take to settle, far above a loaded 2-core machine's few seconds. */
const SETTLED_WITHIN_MS = 30_000;

/** Waits until the router says the document is settled. */
export const settled = (page: Tab) =>
  page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled', null, SETTLED_WITHIN_MS);

/** Throws a clear error when dist/ is missing. */
export function needDist() {
  if (!existsSync(join(DIST, 'client/index.js'))) throw new Error('dist/ is missing: npm run build first');
}

/** A browser on an app of its own: its server, and one browser session (the modules load once). */
export interface BrowserApp {
  readonly origin: string;
  readonly browser: Session;
}

/**
 * Serves `app` in `shell` (serveApp) and starts `name` before the tests of the suite it is called in
 * (a file, or a describe block per browser); closes both after.
 */
export function browserApp(name: BrowserName, app: string, shell: { head?: string; body?: string } = {}): BrowserApp {
  let server: AppServer | undefined;
  let browser: Session | undefined;
  beforeAll(async () => {
    needDist();
    server = await serveApp(app, shell);
    browser = await launch(name);
  }, 60_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await server?.close();
    }
  });
  return {
    get origin() {
      return (server as AppServer).origin;
    },
    get browser() {
      return browser as Session;
    },
  };
}

/** Chromium and Firefox keep 50 entries of a tab's session history and drop the oldest past that: its indexes shift. */
const HISTORY_CAP = 50;

/**
 * Tabs of `app` kept between tests, one per key. A new tab costs Chromium a renderer process, about
 * half a CPU-second; a new document in a kept tab costs none. `take()` gives a test the key's tab on
 * about:blank (a `#!` URL after another on the same path would only be a hash change), its records
 * and its origin's sessionStorage emptied, as a new tab's are; or a new tab, `init` run on it, when
 * there is none, or when the kept one's history has no room for the `room` entries a test may add.
 * The tab taken is brought to the front. A tab a test failed in is closed, never reused. A test
 * must not walk back past its first document.
 */
export function keptTabs(app: BrowserApp, room: number, init: (page: Tab, key: string) => Promise<unknown>) {
  const tabs = new Map<string, Watched>();
  /** Closes `t`, never to be reused. */
  async function drop(t: Watched) {
    for (const [key, kept] of tabs) if (kept === t) tabs.delete(key);
    await t.page.close();
  }
  async function take(key: string): Promise<Watched> {
    let t = tabs.get(key);
    if (t) {
      const length = await t.page.evaluate((origin) => {
        if (location.origin === origin) sessionStorage.clear();
        return history.length;
      }, app.origin);
      if (length + 1 + room > HISTORY_CAP) {
        tabs.delete(key);
        await t.page.close();
        t = undefined;
      }
    }
    if (t) {
      await t.page.goto('about:blank');
      t.errors.length = 0;
      t.off.length = 0;
    } else {
      t = await watchedPage(app.browser, app.origin);
      await init(t.page, key);
      tabs.set(key, t);
    }
    await t.page.bringToFront();
    const taken = t;
    onTestFailed(() => drop(taken));
    return taken;
  }
  return { take, drop };
}
