// An app of the tests' own in real Chromium: a server on 127.0.0.1 answers `/dist/…` with the built
// ES modules (`npm run build` first), `/app.js` with the app's module and every other path with a
// shell holding the test's markup. Each page records what the router must never cause: an uncaught
// error, a request or a navigation off the origin, a script run from a URL.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, sep } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

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
