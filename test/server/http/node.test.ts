import express from 'express';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { route } from '../../../src/routes/types.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { toNodeHandler, toAsk } from '../../../src/server/http/node.js';
import { listen, request, type Running } from '../helpers.js';
import { SOON } from '../../liveness.js';

const routes = createRoutes(
  [{ path: '/books/:id', title: ({ params }) => `Book ${params.id}`, render: ({ params }) => `<h1>${params.id}</h1>`.repeat(200) }],
  { base: '/app/' },
);
const handler = createSnapshotHandler({ routes, origin: 'https://example.com', onError: () => {} });
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function start(listener: Parameters<typeof listen>[0]) {
  const server = await listen(listener);
  running.push(server);
  return server.port;
}

describe.each([
  [
    'node:http',
    () => start((req, res) => void handler.node(req, res)),
    // With no next(), what is not its business is a plain 404.
    { status: 404, body: 'Not Found\n' },
  ],
  [
    'Express 5',
    () => {
      const app = express();
      app.use(handler.node);
      app.use((_req, res) => void res.status(418).send('next handler'));
      return start(app);
    },
    { status: 418, body: 'next handler' },
  ],
  [
    'Express 5, mounted at the base',
    () => {
      const app = express();
      app.use('/app', handler.node);
      app.use((_req, res) => void res.status(418).send('next handler'));
      return start(app);
    },
    { status: 418, body: 'next handler' },
  ],
] as const)('the node adapter under %s', (_, startServer, passed) => {
  it('answers ugly URLs with snapshots', async () => {
    const port = await startServer();
    const reply = await request(port, '/app/?_escaped_fragment_=/books/7');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<title data-router-title="">Book 7</title>');
    expect(reply.body).toContain('<link rel="canonical" href="https://example.com/app/books/7" data-router-head="/books/7">');
    expect(reply.headers['content-length']).toBe(String(reply.bytes.byteLength));
  });

  it('answers clean URLs with the shell and HEAD with no body', async () => {
    const port = await startServer();
    const reply = await request(port, '/app/books/7', { method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(0);
  });

  it('gzips for clients that accept it', async () => {
    const port = await startServer();
    const reply = await request(port, '/app/?_escaped_fragment_=/books/7', { headers: { 'accept-encoding': 'gzip' } });
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(reply.bytes).toString()).toContain('<title data-router-title="">Book 7</title>');
  });

  it('passes on what is not its business', async () => {
    const port = await startServer();
    for (const [method, target] of [
      ['GET', '/elsewhere?_escaped_fragment_=/x'],
      ['POST', '/app/?_escaped_fragment_=/books/7'],
    ] as const) {
      const reply = await request(port, target, { method });
      expect({ status: reply.status, body: reply.body }).toEqual(passed);
    }
  });

  it('answers 400 for a malformed ugly URL', async () => {
    const port = await startServer();
    expect((await request(port, '/app/?_escaped_fragment_=%zz')).status).toBe(400);
  });
});

describe('the node adapter', () => {
  it('hands errors of the core to next(error), or answers 500 without next', async () => {
    const error = new Error('core failed at /secret/path.ts:1');
    const node = toNodeHandler(() => Promise.reject(error));
    const next = vi.fn();
    const port = await start((req, res) => void node(req, res, next).then(() => res.end('after next')));
    expect((await request(port, '/app/?_escaped_fragment_=/books/1')).body).toBe('after next');
    expect(next).toHaveBeenCalledWith(error);
    const bare = await start((req, res) => void node(req, res));
    const reply = await request(bare, '/app/?_escaped_fragment_=/books/1');
    expect(reply.status).toBe(500);
    expect(reply.body).toBe('Internal Server Error\n');
  });

  it.each([
    ['a path', { url: '/a?b' }, '/a?b'],
    ["Express's original URL under a mount", { url: '/x', originalUrl: '/app/x?_escaped_fragment_=' }, '/app/x?_escaped_fragment_='],
    ['the absolute form a proxy receives', { url: 'http://evil.example/app/?_escaped_fragment_=/b' }, '/app/?_escaped_fragment_=/b'],
    ['a path that reads as an authority', { url: '//evil.example/x' }, '//evil.example/x'],
    // As the URL parser reads them (so a web Request, and a browser, which never sends one): `/` in the path, text in the query.
    ['a path with backslashes', { url: '/app\\books\\1?q=a\\b#c\\d' }, '/app/books/1?q=a\\b'],
    ['a path with a backslash that reads as an authority', { url: '/\\evil.example/x' }, '//evil.example/x'],
  ])('reads only the path and query from %s, never the host', (_, req, target) => {
    const ask = toAsk({
      method: 'get',
      headers: { host: 'evil.example', 'accept-encoding': ['gzip', 'br'] },
      ...req,
    } as unknown as IncomingMessage);
    expect(ask?.target).toBe(target);
    expect(ask?.method).toBe('GET');
    expect(ask?.header('accept-encoding')).toBe('gzip, br');
    expect(ask?.header('if-none-match')).toBeNull();
  });

  it.each([
    // A browser's line first, a bot's second: fetch reads both (a bot); Node's headers keep the first.
    ['User-Agent', [BROWSER, BOT], '/app/books/1'],
    // Two dates: RFC 9110 §13.1.3 says to ignore the field, as fetch's joined value is; Node's headers keep the first.
    [
      'If-Modified-Since',
      [new Date(Date.now() + 60_000).toUTCString(), 'Thu, 01 Jan 1970 00:00:00 GMT'],
      '/app/?_escaped_fragment_=/books/1',
    ],
  ])('reads %s sent on two field lines as fetch does, every line joined, not only the first', async (name, values, path) => {
    const port = await start((req, res) => void handler.node(req, res));
    const web = await handler.fetch(new Request(`http://127.0.0.1${path}`, { headers: values.map((value) => [name, value]) }));
    const node = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path, headers: { [name]: values }, agent: false }, resolve).on('error', reject),
    );
    node.resume();
    expect(web?.headers.get('etag')).toBeTruthy();
    expect([node.statusCode, node.headers['etag']]).toEqual([web?.status, web?.headers.get('etag')]);
  });

  it("gives the hooks' request and the nonce function a header a middleware set on req.headers", async () => {
    // Express's way to hand the handler what a middleware chose: a CSP nonce, the signed-in user.
    const signedIn = createRoutes([
      route({
        path: '/account',
        load: ({ request }) => ({ user: request?.headers.get('x-user') ?? null }),
        render: ({ data }) => `<h1>${data.user}</h1>`,
      }),
    ]);
    const handler = createSnapshotHandler({
      routes: signedIn,
      origin: 'https://example.com',
      cleanUrls: 'all',
      nonce: (request) => request.headers.get('x-nonce') ?? 'missing',
      onError: () => {},
    });
    const app = express();
    app.use((req, _res, next) => {
      req.headers['x-nonce'] = 'bm9uY2U=';
      req.headers['x-user'] = 'alice';
      next();
    });
    app.use(handler.node);
    const running = await start(app);
    const reply = await request(running, '/account', { headers: { 'user-agent': BROWSER } });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<h1>alice</h1>');
    expect(reply.body).toContain('id="crawlable-router-data" nonce="bm9uY2U="');
    // The client's own fields of those names are what the middleware replaced, never what the hooks see.
    const forged = await request(running, '/account', { headers: { 'user-agent': BROWSER, 'x-user': 'admin', 'x-nonce': 'ZXZpbA==' } });
    expect(forged.body).toContain('<h1>alice</h1>');
    expect(forged.body).toContain('id="crawlable-router-data" nonce="bm9uY2U="');
  });

  it.each([
    ['the asterisk form', { method: 'OPTIONS', url: '*' }],
    ['the authority form', { method: 'CONNECT', url: 'example.com:443' }],
  ])('reads nothing from %s', (_, req) => {
    expect(toAsk({ headers: {}, ...req } as unknown as IncomingMessage)).toBeNull();
  });
});

describe('the node adapter on the cached path', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('writes a cached snapshot at once, in the listener call itself, with its length and no chunking', async () => {
    await handler.render('/books/3');
    const req = { method: 'GET', url: '/app/?_escaped_fragment_=/books/3', headers: {}, socket: {} } as unknown as IncomingMessage;
    const writeHead = vi.fn();
    const end = vi.fn();
    const res = { writeHead, end, once: vi.fn() } as unknown as ServerResponse;
    const done = handler.node(req, res);
    // Nothing awaited yet: the answer is already written.
    expect(writeHead).toHaveBeenCalledWith(200, expect.objectContaining({ 'Content-Length': expect.any(String) }));
    expect(writeHead.mock.calls[0]?.[1]).not.toHaveProperty('Transfer-Encoding');
    expect(end).toHaveBeenCalledTimes(1);
    expect(Buffer.from(end.mock.calls[0]?.[0] as Uint8Array).toString()).toContain('<title data-router-title="">Book 3</title>');
    // No listener was put on the response: its client's going is of no interest to a hit.
    expect(res.once).not.toHaveBeenCalled();
    await done;
  });

  it('makes no AbortController for a cache hit, and one signal for a request that waits for a render', async () => {
    let made = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          made++;
        }
      },
    );
    const port = await start((req, res) => void handler.node(req, res));
    expect((await request(port, '/app/?_escaped_fragment_=/books/11')).status).toBe(200);
    expect(made).toBeGreaterThan(0);
    made = 0;
    for (const target of ['/app/?_escaped_fragment_=/books/11', '/app/books/11?_escaped_fragment_=']) {
      expect((await request(port, target)).status).toBe(200);
      expect((await request(port, target, { method: 'HEAD' })).status).toBe(200);
    }
    expect(made).toBe(0);
  });

  it('treats a client gone before its wait began as gone: nothing rendered, nothing answered, no next()', async () => {
    let asked!: () => void;
    const limited = new Promise<void>((resolve) => (asked = resolve));
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const render = vi.fn(async () => ({ html: '<p>late</p>' }));
    const slow = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      renderer: { render },
      onError: () => {},
      // The signal is read after this answers: by then the client has gone.
      limitClient: async () => (asked(), await gone, true),
    });
    const next = vi.fn();
    let finished!: Promise<void>;
    const port = await start((req, res) => {
      res.once('close', () => setTimeout(closed, 10));
      finished = slow.node(req, res, next);
    });
    const client = http.get({ host: '127.0.0.1', port, path: '/app/?_escaped_fragment_=/books/5' });
    client.on('error', () => {});
    await limited;
    client.destroy();
    await vi.waitFor(() => expect(finished).toBeDefined(), SOON);
    await finished;
    expect(render).not.toHaveBeenCalled();
    expect(next).not.toHaveBeenCalled();
  });
});
