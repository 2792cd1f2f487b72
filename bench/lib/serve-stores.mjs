// A child process for the Redis figure: the same snapshot handler twice on node:http, one keeping
// snapshots in its memory (memoryStore, the default) and one in Redis (redisStore on the URL given
// as its argument). It prints both ports as JSON and serves until its parent ends it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createRoutes } from '../../dist/index.js';
import { createSnapshotHandler, redisStore } from '../../dist/server/index.js';
import { bookTitle, bookView } from '../app/view.js';

const books = JSON.parse(readFileSync(new URL('../app/data/books.json', import.meta.url), 'utf8'));
const shell = readFileSync(new URL('../app/index.html', import.meta.url), 'utf8');
const routes = createRoutes([
  {
    path: '/books/:id',
    load: async ({ params }) => books[params.id],
    title: ({ data }) => bookTitle(data),
    render: ({ params, data }) => bookView(params.id, data),
  },
]);
const client = createClient({ url: process.argv[2] });
client.on('error', () => {});
await client.connect();

const listen = (cache) => {
  const handler = createSnapshotHandler({ routes, origin: 'https://books.example', shell, cache });
  const server = createServer((req, res) => void handler.node(req, res));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
};
const memory = await listen({});
const redis = await listen({ store: redisStore({ client, prefix: 'bench:' }) });
process.stdout.write(JSON.stringify({ memory, redis }) + '\n');
