// headlessRenderer against the renderer before single-use page processes (issue 43): the client-only
// demo app's states rendered one at a time, renders per second with four in flight, and the page
// processes' resident memory at rest. The "before" renderer is the package built at the commit
// before that change, loaded from env BEFORE_DIST (its dist/server/index.js); without it only the
// new renderer is measured and the before column says so.
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startDemo } from '../demo/server.mjs';
import { appRoutes } from '../demo/app/routes.js';
import { median } from './lib/measure.mjs';

const publicDir = fileURLToPath(new URL('../demo/public/', import.meta.url));
const NEW_DIST = fileURLToPath(new URL('../dist/server/index.js', import.meta.url));
const mib = (bytes) => bytes / 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's descendants from /proc: pid, state, CPU ticks (user + system), resident bytes and command line. */
function descendants() {
  const all = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.push({
        pid: Number(entry),
        state: f[0],
        ppid: Number(f[1]),
        ticks: Number(f[11]) + Number(f[12]),
        rss: Number(readFileSync(`/proc/${entry}/statm`, 'utf8').split(' ')[1]) * 4096,
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
      });
    } catch {
      // it ended while we looked
    }
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (mine.has(p.pid) || !mine.has(p.ppid)) continue;
      mine.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => p.pid !== process.pid && mine.has(p.pid) && p.state !== 'Z');
}

/**
 * Waits until every page process is at rest: no descendant of this process used CPU over two
 * windows of 150 ms in a row (a process starting, importing happy-dom, uses it all the time).
 * This is how a crawler's spaced requests find the pool; returns the ms waited.
 */
export async function atRest(limitMs = 20_000) {
  const started = Date.now();
  const ticks = () => descendants().reduce((sum, p) => sum + p.ticks, 0);
  let last = ticks();
  let still = 0;
  while (still < 2 && Date.now() - started < limitMs) {
    await sleep(150);
    const now = ticks();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return Date.now() - started;
}

/** The processes of the package at `dist` (its dist/server/index.js): those whose command names its page process's file. */
function poolOf(dist) {
  const child = join(dirname(dist), 'headless', 'child.');
  return descendants().filter((p) => p.cmdline.includes(child));
}

/** A snapshot handler of the client-only demo app (/spa/) over the headlessRenderer of the package at `dist`. */
async function spaHandler(dist, demo, catalogue) {
  const server = await import(pathToFileURL(dist).href);
  const renderer = server.headlessRenderer({ root: join(publicDir, 'spa'), upstream: demo.origin, maxPages: 4 });
  const { routes } = appRoutes({ catalogue, origin: demo.origin, base: '/spa/', mode: 'history', render: false });
  const handler = server.createSnapshotHandler({
    routes,
    origin: demo.origin,
    base: '/spa/',
    mode: 'history',
    shell: await readFile(join(publicDir, 'spa/index.html'), 'utf8'),
    outlet: '#app',
    cleanUrls: 'bots',
    renderer,
    cache: false,
    onError: () => {},
  });
  return { dist, renderer, handler };
}

/** Milliseconds one render of `location` takes; throws unless it is a snapshot. */
async function timed(side, location) {
  const start = process.hrtime.bigint();
  const result = await side.handler.render(location);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!result || typeof result.html !== 'string' || result.status >= 500)
    throw new Error(`${side.dist}: ${location} gave ${result?.status}: ${result?.error ?? ''}`);
  return ms;
}

/** Renders per second: `count` renders of `states`, `inFlight` at a time. */
async function throughput(side, states, count, inFlight) {
  let next = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) await timed(side, states[next++ % states.length]);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

const outlet = (html) => /<main id="app">([\s\S]*?)<\/main>/.exec(html)?.[1];

/**
 * `{ states, rounds, p50: { new, before }, waited, rps: { new, before }, rss: { new, before }, procs }`;
 * every `before` is null without env BEFORE_DIST.
 */
export async function runHeadless({ quick = false, beforeDist = process.env.BEFORE_DIST } = {}) {
  const demo = await startDemo({ cache: false });
  const data = JSON.parse(readFileSync(join(publicDir, 'data/books.json'), 'utf8'));
  const catalogue = async () => data;
  const authors = data.authors.map((a) => a.slug);
  // The demo app's kinds of state: the home page, lists and searches, books, authors, a 404.
  const states = [
    '/',
    '/books',
    '/books?page=2',
    '/books?q=hugo',
    ...[1, 17, 42, 99, 150, 200].map((id) => `/books/${id}`),
    ...[0, 7, 15].map((i) => `/authors/${authors[i % authors.length]}`),
    '/books/9999',
  ];
  const rounds = quick ? 1 : 3;
  const sides = { new: await spaHandler(NEW_DIST, demo, catalogue) };
  if (beforeDist) sides.before = await spaHandler(beforeDist, demo, catalogue);
  const names = Object.keys(sides);
  const out = {
    load: [os.loadavg()[0]],
    states: states.length,
    rounds,
    p50: {},
    p95: {},
    waited: [],
    rps: {},
    rss: {},
    procs: {},
    inFlight: 4,
  };
  try {
    // Warm-up: the first renders start the page processes (and the before's is then JIT-warm).
    for (const name of names) {
      await timed(sides[name], '/books/3');
      await atRest();
      await timed(sides[name], '/books/4');
    }
    // The same pages? The outlet of each state, side by side.
    if (sides.before) {
      for (const location of ['/', '/books/5', '/books/9999']) {
        const [a, b] = await Promise.all(names.map((n) => sides[n].handler.render(location)));
        if (a.status !== b.status || outlet(a.html) !== outlet(b.html))
          throw new Error(`new and before render ${location} differently: the bench would compare different pages`);
      }
    }

    // 1. One render at a time, each once every page process is at rest (the new renderer's spares
    // started and waiting), the two renderers interleaved, in turn first.
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    let turn = 0;
    for (let r = 0; r < rounds; r++) {
      for (const location of states) {
        const order = turn++ % 2 ? [...names].reverse() : names;
        for (const name of order) {
          out.waited.push(await atRest());
          samples[name].push(await timed(sides[name], location));
        }
      }
    }
    for (const name of names) {
      out.p50[name] = median(samples[name]);
      const sorted = [...samples[name]].sort((a, b) => a - b);
      out.p95[name] = sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
    }

    // 2. Renders per second, four in flight (maxPages 4), from rest, interleaved rounds.
    const count = quick ? 12 : 40;
    out.count = count;
    const rps = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? [...names].reverse() : names) {
        await atRest();
        rps[name].push(await throughput(sides[name], states, count, out.inFlight));
      }
    }
    for (const name of names) out.rps[name] = median(rps[name]);

    // 3. The page processes' resident memory at rest: renders over, spares started.
    await atRest();
    for (const name of names) {
      const pool = poolOf(sides[name].dist);
      out.rss[name] = mib(pool.reduce((sum, p) => sum + p.rss, 0));
      // The page processes themselves; an `unshare` that started one (its namespaces) is counted in rss only.
      out.procs[name] = pool.filter((p) => !/^\S*unshare /.test(p.cmdline)).length;
    }
  } finally {
    await Promise.all(names.map((n) => sides[n].renderer.close()));
    await demo.close();
  }
  for (const key of ['p50', 'p95', 'rps', 'rss', 'procs']) out[key].before ??= null;
  out.waited = median(out.waited);
  out.load.push(os.loadavg()[0]);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runHeadless({ quick: process.argv.includes('--quick') }));
