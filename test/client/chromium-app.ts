// An app of the tests' own in real Chromium: a server on 127.0.0.1 answers `/dist/…` with the built
// ES modules (`npm run build` first), `/app.js` with the app's module and every other path with a
// shell holding the test's markup. Each page records what the router must never cause: an uncaught
// error, a request or a navigation off the origin, a script run from a URL.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, sep } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { launch } from '../demo/chromium.js';

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
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and console errors of the page. */
  errors: string[];
  /** Requests and top-level navigations off the origin (none reaches another host: see launch()). */
  off: string[];
}

/**
 * A new page of `context` on `origin`, every request off it recorded. Requests are watched, not
 * intercepted: interception turns Chromium's cache off, and every page would fetch each module of
 * dist/ again. The browser of launch() resolves no host name, so no request leaves the machine.
 */
export async function watchedPage(context: BrowserContext, origin: string): Promise<Watched> {
  const page = await context.newPage();
  const errors: string[] = [];
  const off: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('framenavigated', (frame) => {
    const url = frame.url();
    if (!url.startsWith(origin + '/') && url !== 'about:blank') off.push(url);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin + '/') && !/^(data|blob|about):/.test(url)) off.push(url);
  });
  return { context, page, errors, off };
}

/** Liveness only: how long a page may take to settle, far above a loaded 2-core machine's few seconds. */
const SETTLED_WITHIN_MS = 30_000;

/** Waits until the router says the document is settled. */
export const settled = (page: Page) =>
  page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled', null, { timeout: SETTLED_WITHIN_MS });

/** Throws a clear error when dist/ is missing. */
export function needDist() {
  if (!existsSync(join(DIST, 'client/index.js'))) throw new Error('dist/ is missing: npm run build first');
}

/** A file's Chromium on an app of its own: its server, one browser and one context (the modules load once). */
export interface ChromiumApp {
  readonly origin: string;
  readonly context: BrowserContext;
}

/** Serves `app` in `shell` (serveApp) and starts Chromium before the file's tests; closes both after. */
export function chromiumApp(app: string, shell: { head?: string; body?: string } = {}): ChromiumApp {
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    needDist();
    server = await serveApp(app, shell);
    browser = await launch();
    context = await browser.newContext();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get origin() {
      return (server as AppServer).origin;
    },
    get context() {
      return context as BrowserContext;
    },
  };
}

/** Chromium keeps 50 entries of a tab's session history and drops the oldest past that: its indexes shift. */
const HISTORY_CAP = 50;

/**
 * Tabs of `app` kept between tests, one per key. A new tab costs Chromium a renderer process, about
 * half a CPU-second; a new document in a kept tab costs none. `take()` gives a test the key's tab on
 * about:blank (a `#!` URL after another on the same path would only be a hash change), its records
 * and its origin's sessionStorage emptied, as a new tab's are; or a new tab, `init` run on it, when
 * there is none, or when the kept one's history has no room for the `room` entries a test may add.
 * A tab a test failed in is closed, never reused. A test must not walk back past its first document.
 */
export function keptTabs(app: ChromiumApp, room: number, init: (page: Page, key: string) => Promise<unknown>) {
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
      t = await watchedPage(app.context, app.origin);
      await init(t.page, key);
      tabs.set(key, t);
    }
    const taken = t;
    onTestFailed(() => drop(taken));
    return taken;
  }
  return { take, drop };
}
