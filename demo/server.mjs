// The demo server: the library's own snapshot handlers on node:http, one per app, plus the apps'
// files, robots.txt and the catalogue's sitemap. `startDemo()` is what `npm run demo` and the tests run.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { toUglyUrl } from '../dist/index.js';
import { createSnapshotHandler, headlessRenderer, robotsTxt, sitemap } from '../dist/server/index.js';
import { appRoutes } from './app/routes.js';

const publicDir = new URL('./public/', import.meta.url).pathname;
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** A file under public/ for a request path, or null: never a folder, never outside public/. */
async function publicFile(pathname) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.endsWith('/')) return null;
  const file = normalize(join(publicDir, path));
  if (!file.startsWith(publicDir)) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}

/**
 * Starts the demo on `host:port` (port 0: one the OS picks); resolves to its origin, its apps (with
 * their snapshot handlers, for benchmarks) and a close(). `cache: false` turns the snapshot caches off.
 * For tests: `disallow`, robots.txt Disallow rules for Googlebot (none by default), with which a test
 * keeps `verify` off some pages; `timeoutMs`, the handlers' and the headless renderer's (their
 * default, 10 s, by default).
 */
export async function startDemo({ host = '127.0.0.1', port = 0, quiet = true, cache = {}, disallow = [], timeoutMs } = {}) {
  const data = JSON.parse(await readFile(join(publicDir, 'data/books.json'), 'utf8'));
  const catalogue = async () => data;
  const server = createServer();
  await new Promise((resolve) => server.listen(port, host, resolve));
  const origin = `http://${host}:${server.address().port}`;
  const onError = quiet ? () => {} : (error) => console.error(error);

  // Clean URLs: bots get the rendered page and browsers the shell ('bots'), but /ssr/ renders for
  // everyone and hands the client its data ('all').
  const apps = [
    { base: '/classic/', mode: 'hashbang', shell: 'classic/index.html', cleanUrls: 'bots' },
    { base: '/spa/', mode: 'history', headless: true, cleanUrls: 'bots' },
    { base: '/ssr/', mode: 'history', shell: 'ssr/index.html', cleanUrls: 'all' },
    { base: '/', mode: 'history', shell: 'index.html', cleanUrls: 'bots' },
  ];
  for (const app of apps) {
    // The client-only app's server knows its routes (for statuses) but not its views.
    app.routes = appRoutes({ catalogue, origin, base: app.base, mode: app.mode, render: !app.headless }).routes;
    const limit = timeoutMs === undefined ? {} : { timeoutMs };
    app.renderer = app.headless ? headlessRenderer({ root: join(publicDir, 'spa'), upstream: origin, ...limit }) : undefined;
    app.handler = createSnapshotHandler({
      routes: app.routes,
      origin,
      base: app.base,
      mode: app.mode,
      shell: await readFile(join(publicDir, app.headless ? 'spa/index.html' : app.shell), 'utf8'),
      outlet: '#app',
      cleanUrls: app.cleanUrls,
      ...(app.renderer ? { renderer: app.renderer } : {}),
      cache,
      onError,
      ...limit,
    });
  }
  // The four apps show one catalogue, and each state of every app names the pushState app's URL as
  // its canonical one (demo/app/routes.js): one canonical set, one sitemap, the pushState app's.
  // The other apps' states are reached by their own links (docs/demo.md).
  const root = apps[3];
  const sitemapXml = (await sitemap(root.routes.locations(), { origin, base: root.base, mode: root.mode }))[0].xml;
  const forGooglebot = disallow.length ? `User-agent: Googlebot\n${disallow.map((rule) => `Disallow: ${rule}\n`).join('')}\n` : '';
  const robots = forGooglebot + robotsTxt({ sitemaps: [`${origin}/sitemap.xml`] });

  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const text = (status, type, body) =>
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) }).end(req.method === 'HEAD' ? '' : body);
    if (url.pathname === '/robots.txt') return text(200, 'text/plain; charset=utf-8', robots);
    if (url.pathname === '/sitemap.xml') return text(200, 'application/xml; charset=utf-8', sitemapXml);
    const file = url.searchParams.has('_escaped_fragment_') ? null : await publicFile(url.pathname);
    if (file && !file.endsWith('index.html')) {
      res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
      return req.method === 'HEAD' ? res.end() : createReadStream(file).pipe(res);
    }
    // The first app whose base holds the URL answers it (classic, spa and ssr before the root app).
    const app = apps.find((a) => url.pathname.startsWith(a.base) || url.pathname === a.base.slice(0, -1)) ?? apps[3];
    app.handler.node(req, res, () => text(404, 'text/plain; charset=utf-8', 'Not found'));
  });

  return {
    origin,
    apps: apps.map(({ base, mode, cleanUrls, handler }) => ({ base, mode, cleanUrls, url: origin + base, handler })),
    async close() {
      await Promise.all(apps.map((app) => app.renderer?.close()));
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demo = await startDemo({ port: Number(process.env.PORT ?? 3000), quiet: false });
  console.log(`crawlable-router demo on ${demo.origin}
  pushState app (ES modules, clean URLs):  ${demo.origin}/
  #! app (UMD bundle, hashbang mode):      ${demo.origin}/classic/
  client-only app (headless snapshots):    ${demo.origin}/spa/
  server-rendered app (cleanUrls 'all'):   ${demo.origin}/ssr/

One state, as a person and as a crawler sees it:
  pretty: ${demo.origin}/classic/#!/books?q=Les%20Mis%C3%A9rables
  ugly:   ${toUglyUrl(`${demo.origin}/classic/#!/books?q=Les%20Mis%C3%A9rables`)}
  clean:  ${demo.origin}/books?q=Les%20Mis%C3%A9rables   (crawler: ${toUglyUrl(`${demo.origin}/books?q=Les%20Mis%C3%A9rables`)})
Ctrl-C stops it.`);
}
