import express from 'express';
import type { IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../../src/routes.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { toNodeHandler, toAsk } from '../../../src/server/http/node.js';
import { listen, request, type Running } from '../helpers.js';

const routes = createRoutes(
  [{ path: '/books/:id', title: ({ params }) => `Book ${params.id}`, render: ({ params }) => `<h1>${params.id}</h1>`.repeat(200) }],
  { base: '/app/' },
);
const handler = createSnapshotHandler({ routes, origin: 'https://example.com', onError: () => {} });

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
    expect(reply.body).toContain('<title>Book 7</title>');
    expect(reply.body).toContain('<link rel="canonical" href="https://example.com/app/books/7">');
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
    expect(gunzipSync(reply.bytes).toString()).toContain('<title>Book 7</title>');
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
    ['the asterisk form', { method: 'OPTIONS', url: '*' }],
    ['the authority form', { method: 'CONNECT', url: 'example.com:443' }],
  ])('reads nothing from %s', (_, req) => {
    expect(toAsk({ headers: {}, ...req } as unknown as IncomingMessage)).toBeNull();
  });
});
