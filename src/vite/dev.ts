// `vite dev`: bots at clean URLs, and everyone at an ugly URL, get the state's snapshot rendered from
// the route table's hooks into Vite's own page (index.html as `transformIndexHtml` gives it); anything
// else goes on to Vite (`serveShell: false`: browsers get Vite's page). The routes module is imported
// (through views.ts's ENTRY) per request through the SSR environment's module runner, which asks the dev server each time
// whether the module (or one it imports) changed since: an edit shows on the next request, with no
// restart. A handler is made once per routes-module instance and shell, and renders with no cache.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';
import type { AnyRoute, RouteTable } from '../index.js';
import { createSnapshotHandler, type SnapshotHandler, type SnapshotRenderer } from '../server/index.js';
import { allowsHost } from './hosts.js';
import { routesFile, type Settings } from './options.js';
import { appHandlerOptions, ENTRY, loadApp, namingTheOutlet } from './views.js';

// Vite's own URLs under base: its client, modules by id or file, optimized dependencies, pings.
const VITE_URL = /^(?:@vite\/|@id\/|@fs\/|@react-refresh|__vite|__open-in-editor|node_modules\/)/;
// Requests a page makes for its parts (a script, a style sheet, an image) are never a state.
const PAGE_DESTINATIONS = new Set(['document', 'iframe', 'empty']);

/** The middleware Vite's dev server runs before its own: snapshots for bots and ugly URLs, next() for the rest. */
export async function devMiddleware(
  server: ViteDevServer,
  settings: Settings,
): Promise<(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void> {
  const { config } = server;
  const file = routesFile(settings, config.root);
  const environment = server.environments['ssr'];
  if (!environment || !isRunnableDevEnvironment(environment))
    throw new Error(
      `crawlableRouter: the dev server's ssr environment does not run in this process, so the routes module cannot be loaded`,
    );
  const load = () => loadApp(settings, file, config.base, () => environment.runner.import(ENTRY));
  const index = path.join(config.root, 'index.html');
  const shellNow = async () => server.transformIndexHtml(config.base, await readFile(index, 'utf8'));
  let last: { routes: RouteTable<AnyRoute>; shell: string; handler: SnapshotHandler } | null = null;

  /** The handler of this routes module's table and shell: the last one made, while neither changed. */
  function handlerOf(app: { routes: RouteTable<AnyRoute>; renderer: SnapshotRenderer | undefined }, shell: string): SnapshotHandler {
    if (last?.routes === app.routes && last.shell === shell) return last.handler;
    const handler = createSnapshotHandler({
      ...appHandlerOptions(settings, app, config.logger),
      shell,
      serveShell: false,
      // An edit to a hook, or to what it reads, shows on the next request, in no cache of the browser's either.
      cache: false,
      cacheControl: 'no-store',
    });
    last = { routes: app.routes, shell, handler };
    return handler;
  }

  // At start: a routes module that is missing, exports no table or names another base, or an outlet
  // the page does not have, stops the server.
  await namingTheOutlet(settings, 'index.html', async () => handlerOf(await load(), await shellNow()));

  return (req, res, next) => {
    const url = req.url ?? '/';
    const dest = req.headers['sec-fetch-dest'];
    const inBase = url.startsWith(config.base) ? url.slice(config.base.length) : url.slice(1);
    if (
      !allowsHost(req.headers.host, config.server.allowedHosts, config.server.https) ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      (typeof dest === 'string' && !PAGE_DESTINATIONS.has(dest)) ||
      VITE_URL.test(inBase)
    )
      return next();
    void (async () => {
      const app = await load();
      await handlerOf(app, await shellNow()).node(req, res, next);
    })().catch((error: unknown) => {
      if (error instanceof Error) server.ssrFixStacktrace(error);
      next(error);
    });
  };
}
