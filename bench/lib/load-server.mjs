// The server under load, in a child process of bench/load.mjs: the library's snapshot handler on
// node:http over a table of 10,000 items (fast render hooks), plus a route whose load takes 200 ms
// (to push the render queue past its bound), and a per-client limit. It prints its port, and answers
// `rss` messages with its resident memory and `renders` with how many times `load` ran per item, so
// the load generator shares no event loop with it. With a Redis URL as its argument it keeps
// snapshots there (redisStore) instead of in its own memory: one process of a fleet.
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createRoutes } from '../../dist/index.js';
import { createSnapshotHandler, redisStore } from '../../dist/server/index.js';

const redisUrl = process.argv[2];
const renders = {};
let storeFaults = 0;

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const routes = createRoutes(
  [
    { path: '/', title: 'Items', render: () => '<h1>Items</h1>' },
    {
      path: '/items/:id',
      title: ({ params }) => `Item ${params.id}`,
      load: ({ params }) => {
        renders[params.id] = (renders[params.id] ?? 0) + 1;
        return Number(params.id) >= 1 && Number(params.id) <= 10_000 ? { id: params.id, text: 'x'.repeat(2000) } : null;
      },
      render: ({ params, data }) =>
        data ? `<h1>Item ${escape(params.id)}</h1><p>${data.text}</p>` : `<h1>No item ${escape(params.id)}</h1>`,
      entries: () => Array.from({ length: 10_000 }, (_, i) => ({ id: String(i + 1) })),
    },
    {
      path: '/slow/:id',
      load: ({ signal }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 200, 'slow');
          signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)));
        }),
      render: ({ params }) => `<h1>Slow ${escape(params.id)}</h1>`,
    },
  ],
  { notFound: { title: 'Not found', render: () => '<h1>Not found</h1>' } },
);

let store;
if (redisUrl) {
  const client = createClient({ url: redisUrl });
  client.on('error', () => {});
  await client.connect();
  store = redisStore({ client, prefix: 'load:' });
}
const handler = createSnapshotHandler({
  routes,
  origin: 'https://load.example',
  // Bounded: 2,000 snapshots or 8 MB, whichever comes first (in memory; Redis keeps each for the TTL).
  cache: { maxEntries: 2000, maxBytes: 8 * 2 ** 20, ...(store && { store }) },
  queue: { concurrency: 8, maxWaiting: 32, retryAfterSeconds: 2 },
  timeoutMs: 5000,
  // The per-client limit: the load generator's own address (its phases stand for many clients) is
  // not limited; any other client may have 8 snapshot requests waiting at once (the flood phase
  // attacks from 127.0.0.2).
  limitClient: ({ address, waiting }) => address === '127.0.0.1' || waiting < 8,
  // Store faults come with no location (a timeout of Redis, say): counted, as they cost a render.
  onError: (_, location) => void (location === null && storeFaults++),
});
// The Retry-After of the 503s this server sent: what a shed client was told (counted here, where no
// race with the load can hide it).
const retryAfters = {};
const server = createServer((req, res) => {
  // The node adapter writes its headers with writeHead, which getHeader cannot read back after.
  const writeHead = res.writeHead;
  res.writeHead = function (status, headers, ...rest) {
    if (status === 503) {
      const value = String(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after')?.[1]);
      retryAfters[value] = (retryAfters[value] ?? 0) + 1;
    }
    return writeHead.call(this, status, headers, ...rest);
  };
  void handler.node(req, res);
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'rss') {
    globalThis.gc?.();
    process.send({ rss: process.memoryUsage().rss });
  }
  if (message === 'renders') process.send({ renders: { ...renders }, storeFaults });
  if (message === 'shed') process.send({ shed: { ...retryAfters } });
});
