// One process of a fleet, for test/server/cache/fleet.test.ts and bench/load.mjs: the built snapshot
// handler on node:http at 127.0.0.1, its snapshots in Redis through its own node-redis client.
// Argument: JSON `{ url, prefix, ready, loadMs, bytes, timeoutMs, commandTimeoutMs, retryMs }`.
// Sends `{ port }` once listening; answers `{ id, op }` messages: `counts` (loads per location and
// onError calls), `invalidate` (`prefix`: every location starting with it, or `location`).
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createRoutes } from 'crawlable-router';
import { createSnapshotHandler, redisStore } from 'crawlable-router/server';

const config = JSON.parse(process.argv[2]);
const loads = {};
const errors = [];
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const routes = createRoutes([
  {
    path: '/items/:id',
    title: ({ params }) => `Item ${params.id}`,
    load: async ({ params, location }) => {
      loads[location] = (loads[location] ?? 0) + 1;
      if (config.loadMs) await new Promise((resolve) => setTimeout(resolve, config.loadMs));
      return { id: params.id, text: 'x'.repeat(config.bytes ?? 2000) };
    },
    render: ({ params, data }) => `<h1>Item ${escape(params.id)}</h1><p>${data.text}</p><p>rendered by ${process.pid} at ${Date.now()}</p>`,
  },
]);

// A client as the README shows it: connect not awaited, errors listened to, quick reconnects.
const client = createClient({ url: config.url, socket: { reconnectStrategy: () => 100, connectTimeout: 1000 } });
client.on('error', () => {});
const connected = client.connect().catch(() => {});
// `ready: true`: listen once the client is connected (a fleet whose Redis is up from the start).
if (config.ready) await connected;
const store = redisStore({ client, prefix: config.prefix, commandTimeoutMs: config.commandTimeoutMs, retryMs: config.retryMs });
const handler = createSnapshotHandler({
  routes,
  origin: 'https://fleet.example',
  cache: { store, ttlMs: 60_000 },
  timeoutMs: config.timeoutMs ?? 5000,
  queue: { concurrency: 8, maxWaiting: 1000 },
  onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
});
const server = createServer((req, res) => void handler.node(req, res));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', async ({ id, op, prefix, location }) => {
  try {
    if (op === 'counts') return process.send({ id, loads, errors });
    if (op === 'invalidate') {
      await handler.invalidate(prefix === undefined ? location : (l) => l.startsWith(prefix));
      return process.send({ id });
    }
  } catch (error) {
    process.send({ id, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
