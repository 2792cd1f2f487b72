import express from 'express';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { createSnapshotHandler, type CleanUrls } from '../../../src/server/handler.js';
import { ASSET_EXTENSIONS, assetPathTest, isAssetDest } from '../../../src/server/http/assets.js';
import { listen, request, type Running } from '../helpers.js';

// A request inside base that asks for an asset is not the handler's: the fetch handler gives null,
// the node adapter calls next(), so a stale tab's old chunk gets the static server's 404, never the shell.

const ORIGIN = 'https://example.com';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const routes = createRoutes([
  { path: '/', title: 'Home' },
  { path: '/feed.xml', title: 'Feed', render: () => '<h1>Feed</h1>' },
  { path: '/data/:id.json', title: 'Data' },
  { path: '/users/:name', title: 'User' },
  { path: '/:company/:slug', title: ({ params }) => `Job ${params.slug}`, render: () => '<h1>Job</h1>' },
]);
const handlerFor = (cleanUrls: CleanUrls = 'bots') => createSnapshotHandler({ routes, origin: ORIGIN, cleanUrls, onError: () => {} });

let running: Running[] = [];
let folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
  running = [];
  folders = [];
});

/** What the fetch handler and the node adapter (with a next() that counts) each make of one request. */
async function both(target: string, headers: Record<string, string> = {}, cleanUrls: CleanUrls = 'bots') {
  const handler = handlerFor(cleanUrls);
  const viaFetch = await handler.fetch(new Request(ORIGIN + target, { headers }));
  let nexted = 0;
  const server = await listen(
    (req, res) =>
      void handler.node(req, res, () => {
        nexted++;
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('next');
      }),
  );
  running.push(server);
  const viaNode = await request(server.port, target, { headers });
  return { fetched: viaFetch && { status: viaFetch.status, body: await viaFetch.text() }, node: viaNode, nexted };
}

describe('a request for an asset', () => {
  it.each(['script', 'style', 'image', 'font', 'audio', 'worker', 'manifest'])(
    'with Sec-Fetch-Dest %s is passed on (null, next())',
    async (dest) => {
      const { fetched, node, nexted } = await both('/acme/engineer', { 'Sec-Fetch-Dest': dest });
      expect(fetched).toBeNull();
      expect(nexted).toBe(1);
      expect(node.body).toBe('next');
    },
  );

  it.each(['document', 'iframe', 'empty', null])('with Sec-Fetch-Dest %s is answered: a page', async (dest) => {
    const { fetched, node, nexted } = await both('/acme/engineer', dest === null ? {} : { 'Sec-Fetch-Dest': dest });
    expect(fetched?.status).toBe(200);
    expect(node.status).toBe(200);
    expect(node.body).toContain('<meta name="fragment" content="!">');
    expect(nexted).toBe(0);
  });

  it.each([
    '/assets/index-3f9a.js',
    '/assets/index-3f9a.js?v=3',
    '/jobs/assets/gone.js',
    '/assets/app.CSS',
    '/acme/logo.png',
    '/static/font.woff2',
    '/jobs/app.js.map',
    '/acme/robots.txt',
    '/other/feed.xml',
    '/acme/data.json',
  ])('at %s (an asset extension) is passed on, even as a document', async (target) => {
    const { fetched, nexted } = await both(target, { 'Sec-Fetch-Dest': 'document' });
    expect(fetched).toBeNull();
    expect(nexted).toBe(1);
  });

  it.each(['/users/john.smith', '/books/v1.2', '/acme/report.final', '/acme/js'])(
    'at %s (a dot, no asset extension) is a page',
    async (target) => {
      const { fetched, node, nexted } = await both(target);
      expect(fetched?.status).toBe(200);
      expect(node.status).toBe(200);
      expect(nexted).toBe(0);
    },
  );

  it.each(['/feed.xml', '/data/7.json'])('at %s, which a route ending in that literal matches, is that route’s page', async (target) => {
    const { fetched, node, nexted } = await both(target, { 'User-Agent': BOT });
    expect(fetched?.status).toBe(200);
    expect(node.status).toBe(200);
    expect(nexted).toBe(0);
  });

  it.each(['bots', 'all', 'shell'] as const)('is passed on in cleanUrls %s, for a bot too', async (cleanUrls) => {
    const { fetched, nexted } = await both('/assets/index-3f9a.js', { 'User-Agent': BOT }, cleanUrls);
    expect(fetched).toBeNull();
    expect(nexted).toBe(1);
  });

  it.each([
    ['/?_escaped_fragment_=/jobs/gone.js', 'script'],
    ['/jobs/gone.js?_escaped_fragment_=', 'script'],
    ['/?_escaped_fragment_=/acme/engineer', 'image'],
  ])('is never an ugly URL: %s with Sec-Fetch-Dest %s is the crawler’s snapshot', async (target, dest) => {
    const { fetched, node, nexted } = await both(target, { 'Sec-Fetch-Dest': dest });
    expect(fetched?.status).toBe(200);
    expect(node.status).toBe(200);
    expect(node.body).toContain('<h1>Job</h1>');
    expect(nexted).toBe(0);
  });
});

describe('a stale tab asking for a chunk gone since the last deploy', () => {
  it('gets the static server’s file when it is there, and its 404 when it is gone, never the shell', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'assets-'));
    folders.push(folder);
    await mkdir(path.join(folder, 'assets'), { recursive: true });
    await writeFile(path.join(folder, 'assets', 'index-77aa.js'), 'export {};\n');
    const app = express();
    app.use(express.static(folder));
    app.use(handlerFor().node);
    app.use((_req, res) => void res.status(404).type('text/plain').send('no such file'));
    const server = await listen(app);
    running.push(server);

    // `/:company/:slug` matches it: the shell, with a 200, was its answer.
    const gone = await request(server.port, '/assets/index-3f9a.js', { headers: { 'Sec-Fetch-Dest': 'script' } });
    expect(gone.status).toBe(404);
    expect(gone.body).toBe('no such file');
    const there = await request(server.port, '/assets/index-77aa.js', { headers: { 'Sec-Fetch-Dest': 'script' } });
    expect(there.status).toBe(200);
    expect(there.headers['content-type']).toMatch(/javascript/);
    // The page the same route answers stays a page.
    const page = await request(server.port, '/jobs/engineer', { headers: { 'Sec-Fetch-Dest': 'document' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('the asset rules', () => {
  it.each([
    ['script', true],
    ['style', true],
    ['image', true],
    ['font', true],
    ['document', false],
    ['iframe', false],
    ['empty', false],
    [null, false],
  ] as const)('read Sec-Fetch-Dest %s as an asset: %s', (dest, asset) => {
    expect(isAssetDest(dest)).toBe(asset);
  });

  it.each([
    ['/a/b.js', true],
    ['/a/b.JPG', true],
    ['/a/b.js/', false],
    ['/a.js/b', false],
    ['/a/b.html', false],
    ['/a/b', false],
    ['/feed.xml', false],
    ['/x/feed.xml', true],
    ['/data/1.json', false],
    ['/data/1/more.json', true],
  ] as const)('read the path %s as an asset: %s', (path, asset) => {
    expect(assetPathTest(routes)(path)).toBe(asset);
  });

  it('names the extensions of scripts, styles, images, fonts and files, in lower case', () => {
    for (const ext of ['js', 'mjs', 'css', 'map', 'png', 'svg', 'ico', 'woff2', 'json', 'xml', 'txt', 'wasm', 'pdf'])
      expect(ASSET_EXTENSIONS.has(ext)).toBe(true);
    for (const ext of ASSET_EXTENSIONS) expect(ext).toBe(ext.toLowerCase());
  });
});
