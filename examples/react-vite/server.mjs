// The app's server, after `vite build`: `node server.mjs` (PORT, default 3000; HOST, default
// 127.0.0.1; DIST, the build's folder, default dist/ beside this file). Express serves the
// browser's files at /app/, and the library's handler answers every page: bots at clean URLs and
// anyone at an ugly URL (?_escaped_fragment_=) get the state's snapshot, and browsers the same
// page, drawn by React on the server (cleanUrls 'all'), which main.ts hydrates. No headless browser.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import { reactRenderer } from 'crawlable-router/react/server';
import { createSnapshotHandler } from 'crawlable-router/server';

/**
 * The Express app for the build in `dist`.
 * @param {{ dist?: string }} [options]
 */
export async function createApp({ dist = fileURLToPath(new URL('./dist/', import.meta.url)) } = {}) {
  /** @type {typeof import('./src/entry-server')} */
  const { routes, ORIGIN } = await import(pathToFileURL(path.join(dist, 'server', 'entry-server.js')).href);
  const snapshots = createSnapshotHandler({
    routes,
    origin: ORIGIN,
    // Vite's built index.html, with its hashed assets: the shell every state is drawn into.
    shell: readFileSync(path.join(dist, 'client', 'index.html'), 'utf8'),
    cleanUrls: 'all',
    renderer: reactRenderer({ routes }),
  });
  const app = express();
  // The files first, but not index.html at /app/: the handler answers the home page too.
  app.use(routes.base, express.static(path.join(dist, 'client'), { index: false }));
  app.use(snapshots.node);
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = await createApp(process.env['DIST'] ? { dist: path.resolve(process.env['DIST']) } : {});
  const server = app.listen(Number(process.env['PORT'] ?? 3000), process.env['HOST'] ?? '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') console.log(`listening on http://${address.address}:${address.port}/app/`);
  });
}
