import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { listen, type Running } from '../helpers.js';
import { RENDER_LIVENESS_MS } from '../../liveness.js';

// A page's fetch follows its API's redirects, as a browser's does: a 301 from the upstream reached
// the app's script as it came, so an app whose API moves `/api/old` to `/api/book` (a trailing
// slash, a renamed endpoint) worked in every browser and failed its `load` headless only.
const { createSnapshotHandler, headlessRenderer } =
  (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');

const APP = `
  const out = {};
  const seen = async (name, promise) => {
    try {
      const r = await promise;
      out[name] = [r.status, r.redirected, new URL(r.url || 'about:blank').pathname, r.status === 200 ? (await r.json()).got : null];
    } catch (error) {
      out[name] = error instanceof TypeError ? 'TypeError' : \`not a TypeError: \${error.name}\`;
    }
  };
  await seen('moved', fetch('/api/old'));
  await seen('twice', fetch('/api/hop'));
  await seen('posted', fetch('/api/form', { method: 'POST', body: 'x' }));
  await seen('kept', fetch('/api/keep', { method: 'POST', body: 'x' }));
  await seen('loop', fetch('/api/loop/0'));
  await seen('refused', fetch('/api/old', { redirect: 'error' }));
  await seen('plain', fetch('/api/book'));
  await seen('elsewhere', fetch('https://other.example/api/book'));
  document.getElementById('app').textContent = JSON.stringify(out);`;

let dir: string;
let upstream: Running;
const methods: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-redirects-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!DOCTYPE html><html><head><title>R</title><script type="module" src="/app.js"></script></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(path.join(dir, 'app.js'), APP);
  upstream = await listen((req, res) => {
    const url = req.url ?? '';
    methods.push(`${req.method} ${url}`);
    const to = (status: number, location: string) => void res.writeHead(status, { location }).end();
    if (url === '/api/old') return to(301, '/api/book');
    if (url === '/api/hop') return to(302, 'old');
    if (url === '/api/form') return to(303, '/api/book');
    if (url === '/api/keep') return to(307, '/api/book');
    if (url.startsWith('/api/loop/')) return to(302, `/api/loop/${Number(url.slice(10)) + 1}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: `${req.method} ${url}` }));
  });
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("headlessRenderer and the page's redirected requests", () => {
  it('follows them as a browser does: 301 and 302 keep a GET, 303 turns a POST into a GET, 307 keeps it; past 20 hops, or with redirect: error, a network error', async () => {
    const renderer = headlessRenderer({
      root: dir,
      upstream: upstream.base,
      upstreamMethods: ['GET', 'HEAD', 'POST'],
      timeoutMs: RENDER_LIVENESS_MS,
    });
    try {
      const handler = createSnapshotHandler({
        timeoutMs: RENDER_LIVENESS_MS,
        routes: createRoutes([{ path: '/' }]),
        origin: 'https://example.com',
        renderer,
        cache: false,
      });
      const snapshot = await handler.render('/');
      const app = /<div id="app">(.*?)<\/div>/.exec(snapshot.html)?.[1] ?? '';
      expect(JSON.parse(app.replaceAll('&quot;', '"'))).toEqual({
        moved: [200, true, '/api/book', 'GET /api/book'],
        twice: [200, true, '/api/book', 'GET /api/book'],
        posted: [200, true, '/api/book', 'GET /api/book'],
        kept: [200, true, '/api/book', 'POST /api/book'],
        // A network error rejects, as in a browser (happy-dom resolved it with a status 0 response).
        loop: 'TypeError',
        refused: 'TypeError',
        elsewhere: 'TypeError',
        plain: [200, false, '/api/book', 'GET /api/book'],
      });
      // The 21st hop is never asked for: the 20th redirect is the last one read.
      expect(methods.filter((m) => m.startsWith('GET /api/loop/'))).toHaveLength(21);
    } finally {
      await renderer.close();
    }
  });
});
