// Times one snapshot of the same book page: from the route's render hooks (load, title, render
// into the parsed shell) and from the real app in happy-dom (headlessRenderer, a page process a
// page, started ahead), and, with env BEFORE_DIST naming another build's dist/server/index.js (the
// package before single-use page processes), from that build's headlessRenderer too. Run with
// `npm run bench:snapshot` (it builds first). Caches are off: every timed render is a real render.
// Renders run back to back, so a single-use page process may wait for its start.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRoutes } from '../dist/index.js';
import { createSnapshotHandler, headlessRenderer } from '../dist/server/index.js';
import { bookTitle, bookView } from './app/view.js';

const root = fileURLToPath(new URL('./app/', import.meta.url));
const books = JSON.parse(readFileSync(new URL('./app/data/books.json', import.meta.url), 'utf8'));
const shell = readFileSync(new URL('./app/index.html', import.meta.url), 'utf8');
const routes = createRoutes([
  {
    path: '/books/:id',
    load: async ({ params }) => books[params.id],
    title: ({ data }) => bookTitle(data),
    render: ({ params, data }) => bookView(params.id, data),
  },
]);
const origin = 'https://books.example';
const RUNS = Number(process.env.RUNS ?? 50);

const hooks = createSnapshotHandler({ routes, origin, shell, cache: false });
const renderer = headlessRenderer({ root, maxPages: 1 });
const headless = createSnapshotHandler({ routes, origin, shell, renderer, cache: false });
const beforeDist = process.env.BEFORE_DIST;
const beforeServer = beforeDist ? await import(pathToFileURL(beforeDist).href) : null;
const beforeRenderer = beforeServer?.headlessRenderer({ root, maxPages: 1 });
const before = beforeServer && beforeServer.createSnapshotHandler({ routes, origin, shell, renderer: beforeRenderer, cache: false });

async function time(fn) {
  const started = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95), min: sorted[0] };
}

const outlet = (html) => /<main id="app">([\s\S]*?)<\/main>/.exec(html)?.[1];

async function measure(name, handler) {
  const cold = await time(() => handler.render('/books/1'));
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push((await time(() => handler.render(`/books/${2 + (i % 190)}`))).ms);
  return { name, cold: cold.ms, ...stats(samples), html: cold.result.html };
}

/** One snapshot over HTTP, as a crawler gets it: request to 127.0.0.1, full answer read. */
async function overHttp(handler) {
  const server = createServer((req, res) => void handler.node(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    samples.push((await time(async () => (await fetch(`http://127.0.0.1:${port}/?_escaped_fragment_=/books/${2 + (i % 190)}`)).text())).ms);
  }
  server.closeAllConnections();
  server.close();
  return stats(samples);
}

const handlers = [['render hooks', hooks], ['headless (happy-dom)', headless], ...(before ? [['headless, BEFORE_DIST', before]] : [])];
const results = [];
for (const [name, handler] of handlers) results.push(await measure(name, handler));
const http = [];
for (const [, handler] of handlers) http.push(await overHttp(handler));
await Promise.all([renderer.close(), beforeRenderer?.close()]);

if (results.some((r) => outlet(r.html) !== outlet(results[0].html)))
  throw new Error('the snapshots differ: the bench would compare different pages');
const fmt = (ms) => `${ms.toFixed(2)} ms`;
console.log(
  `One snapshot of /books/:id, ${RUNS} runs each after one cold run (node ${process.version}, ${process.platform} ${process.arch})`,
);
console.log('renderer              cold        median      p95         min         median over HTTP');
results.forEach((r, i) => {
  console.log(
    `${r.name.padEnd(22)}${fmt(r.cold).padEnd(12)}${fmt(r.median).padEnd(12)}${fmt(r.p95).padEnd(12)}${fmt(r.min).padEnd(12)}${fmt(http[i].median)}`,
  );
});
console.log('All snapshots have the same outlet content.');
if (!before) console.log('headless, BEFORE_DIST: not measured (set BEFORE_DIST to a dist/server/index.js)');
