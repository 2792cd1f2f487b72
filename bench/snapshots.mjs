// Snapshots of the same demo states four ways: the routes' render hooks, the real app in happy-dom
// (headlessRenderer), and headless Chromium the prerender/Rendertron way (a new page per snapshot)
// and reusing one page; plus cached snapshots served against a bare node:http server sending the
// same bytes (autocannon, 50 connections), and the server's memory over many happy-dom snapshots.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startDemo } from '../demo/server.mjs';
import { atRest } from './headless.mjs';
import { CHROMIUM_FLAGS } from '../dist/verify/browser.js';
import { median } from './lib/measure.mjs';
import { compareThroughput, startServers } from './lib/throughput.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const mib = (bytes) => bytes / 2 ** 20;

/** Milliseconds each call of `fn(state)` takes, one call per state, in order (each once `before()` resolved). */
async function timeEach(states, fn, before = async () => {}) {
  const samples = [];
  for (const state of states) {
    await before();
    const start = process.hrtime.bigint();
    await fn(state);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/** Resident memory of a process and all its descendants, from /proc (Linux). */
function treeRss(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const walk = (p) => {
    try {
      total += Number(readFileSync(`/proc/${p}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      return;
    }
    for (const [child, parent] of parents) if (parent === p) walk(child);
  };
  walk(pid);
  return total;
}

/** Opens `url` in `page`, waits for the router to settle, and returns the serialised DOM. */
async function chromiumSnapshot(page, url) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.routerState === 'settled');
  return page.content();
}

/** Every snapshot figure: `{ hooks, chromiumNew, chromiumReuse, happy, spaChromiumNew, spaChromiumReuse, served, bare, rss }`. */
export async function runSnapshots({ quick = false } = {}) {
  const n = quick ? 15 : 60;
  const books = Array.from({ length: n }, (_, i) => `/books/${i + 1}`);
  const demo = await startDemo({ cache: false });
  const byBase = (d, base) => d.apps.find((a) => a.base === base);
  const out = {};
  try {
    // Warm-up: the first render of each kind pays for imports and compiles.
    await byBase(demo, '/').handler.render('/books/200');
    await byBase(demo, '/spa/').handler.render('/books/200');
    out.hooks = median(await timeEach(books, (loc) => byBase(demo, '/').handler.render(loc)));
    // Each happy-dom render in a page process started ahead: timed once the pool is at rest
    // (headless.mjs), as a crawler's spaced requests find it; back to back, a render would wait
    // for a process start (renders per second are in the headless figures).
    out.happy = median(
      await timeEach(
        books,
        (loc) => byBase(demo, '/spa/').handler.render(loc),
        () => atRest(),
      ),
    );

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    try {
      const context = await browser.newContext();
      const fresh = (base) => (loc) =>
        context.newPage().then(async (page) => {
          await chromiumSnapshot(page, demo.origin + base + loc.slice(1));
          await page.close();
        });
      const page = await context.newPage();
      const reuse = (base) => (loc) => chromiumSnapshot(page, demo.origin + base + loc.slice(1));
      await fresh('/')('/books/199');
      out.chromiumNew = median(await timeEach(books, fresh('/')));
      out.chromiumReuse = median(await timeEach(books, reuse('/')));
      out.spaChromiumNew = median(await timeEach(books, fresh('/spa/')));
      out.spaChromiumReuse = median(await timeEach(books, reuse('/spa/')));
      // Chromium's processes are this process's descendants.
      out.chromiumRss = mib(treeRss(process.pid) - process.memoryUsage().rss);
    } finally {
      await browser.close();
    }

    // Memory of the server process over many happy-dom snapshots, garbage collected before each
    // reading (node --expose-gc). Each snapshot's page process is started for it and killed after
    // (a process start is ~0.6 s of CPU), so the count is bounded; the page processes are not in
    // this figure (their memory at rest is in the headless ones). The first snapshots warm the
    // server's side up (its imports, JIT, caches); growth is measured after them.
    const count = quick ? 20 : 100;
    const warm = quick ? 5 : 20;
    const spa = byBase(demo, '/spa/').handler;
    const settle = async () => {
      globalThis.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
      globalThis.gc?.();
      return mib(process.memoryUsage().rss);
    };
    const start = await settle();
    for (let i = 0; i < warm; i++) await spa.render(`/books/${(i % 200) + 1}`);
    const before = await settle();
    for (let i = 0; i < count; i++) await spa.render(`/books/${((warm + i) % 200) + 1}`);
    const after = await settle();
    out.rss = { count, warm, start, before, after, heap: mib(process.memoryUsage().heapUsed), gc: typeof globalThis.gc === 'function' };

    // Throughput: the handler and a bare server in a child process, the load from this one.
    const servers = await startServers(new URL('./lib/serve-snapshot.mjs', import.meta.url));
    try {
      const url = (port) => `http://127.0.0.1:${port}/books/1?_escaped_fragment_=`;
      Object.assign(out, await compareThroughput({ served: url(servers.ports.served), bare: url(servers.ports.bare) }, { quick }));
      out.bytes = servers.ports.bytes;
    } finally {
      servers.stop();
    }
  } finally {
    await demo.close();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runSnapshots({ quick: process.argv.includes('--quick') }));
