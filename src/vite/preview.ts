// `vite preview`: bots at clean URLs, and everyone at an ugly URL, get the build's prerendered
// snapshot: a handler over the build's folder as a `fileStore` (read only: preview writes nothing
// there), of the build the folder names, with the built shell `vite build` kept beside it. A state
// with no file (a 404, one no entries() listed) is rendered from the table's hooks into that shell.
// Browsers at clean URLs get that shell, as from the library's server (Vite's fallback would give
// them index.html, the home page's snapshot); assets go on to Vite's static server, and a chunk
// the build has no file for is a 404, not that fallback. The routes
// module is loaded once, with Vite's `runnerImport`: a preview shows one build.

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runnerImport, type ResolvedConfig } from 'vite';
import { createSnapshotHandler, fileStore, type SnapshotStore } from '../server/index.js';
import { SHELL_FILE } from '../server/files/manifest.js';
import { allowsHost } from './hosts.js';
import { routesFile, type Settings } from './options.js';
import { appHandlerOptions, ENTRY, entryHooks, loadApp, namingTheOutlet } from './views.js';

/** Imports the app (views.ts's ENTRY, for the routes module at `file`) with Vite's module runner, as the app's config resolves modules (root, aliases). */
export const importWithVite = (config: ResolvedConfig, file: string) => async () =>
  (
    await runnerImport<Record<string, unknown>>(ENTRY, {
      plugins: [{ name: 'crawlable-router:app', ...entryHooks(() => file) }],
      root: config.root,
      mode: config.mode,
      logLevel: config.logLevel,
      customLogger: config.logger,
      resolve: { alias: config.resolve.alias },
    })
  ).module;

/** A store that reads `store` and never writes or removes: the build's folder is the build's. */
function readOnly(store: SnapshotStore): SnapshotStore {
  return {
    get build() {
      return store.build;
    },
    get: (key) => store.get(key),
    ...(store.holds && { holds: store.holds.bind(store) }),
    set() {},
    delete() {},
    keys: () => store.keys(),
  };
}

/** The middleware Vite's preview server runs before its own. */
export async function previewMiddleware(
  config: ResolvedConfig,
  settings: Settings,
): Promise<(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void> {
  const file = routesFile(settings, config.root);
  const app = await loadApp(settings, file, config.base, importWithVite(config, file));
  // The folder Vite's preview serves: the client environment's (its own `outDir` when the config gives
  // one, as an app that also builds a server entry does), which `vite build` wrote the client into.
  const outDir = path.resolve(config.root, (config.environments['client'] ?? config).build.outDir);
  const files = fileStore(outDir);
  // A prerendered folder names its build; its index.html is then the home page's snapshot, and the shell the copy beside it.
  const prerendered = files.build !== undefined;
  const shellFile = path.join(outDir, prerendered ? SHELL_FILE : 'index.html');
  if (!existsSync(shellFile))
    throw new Error(
      `crawlableRouter: ${shellFile} is missing: ${prerendered ? 'the folder was prerendered by something other than vite build' : 'run vite build first'}`,
    );
  const handler = await namingTheOutlet(settings, path.relative(config.root, shellFile), () =>
    createSnapshotHandler({
      ...appHandlerOptions(settings, app, config.logger),
      shell: readFileSync(shellFile, 'utf8'),
      cache: prerendered ? { store: readOnly(files), ttlMs: Infinity } : false,
    }),
  );
  const { allowedHosts, https } = config.preview;
  // Vite's folder of hashed chunks in the build (`assets`), and its URL path (`/assets/`).
  const assetsDir = (config.environments['client'] ?? config).build.assetsDir.replace(/^\/+|\/+$/g, '');
  const chunks = { dir: path.resolve(outDir, assetsDir), path: `${app.routes.base}${assetsDir}/` };
  return (req, res, next) => {
    if (!allowsHost(req.headers.host, allowedHosts, https)) return next();
    // A chunk the build has no file for (an earlier build's, asked for by a tab open across a
    // rebuild) gets a 404, as from the library's server behind a static one, not Vite's fallback:
    // index.html, the home page's snapshot, with 200 (a MIME error in the browser).
    const passOn = (error?: unknown) =>
      error === undefined && (req.method === 'GET' || req.method === 'HEAD') && missing(chunks, req.url ?? '/')
        ? void res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not Found')
        : next(error);
    void handler.node(req, res, passOn).catch(next);
  };
}

/** Whether `url` lies under the chunks' URL path and names no file in their folder. */
function missing(chunks: { dir: string; path: string }, url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0] ?? '';
  if (!pathname.startsWith(chunks.path)) return false;
  try {
    const file = path.resolve(chunks.dir, decodeURIComponent(pathname.slice(chunks.path.length)));
    return !(file.startsWith(chunks.dir + path.sep) && statSync(file).isFile());
  } catch {
    return true;
  }
}
