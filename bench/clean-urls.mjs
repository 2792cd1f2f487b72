// Clean URLs: a bot's request served from the snapshot cache against a bare node:http server
// sending the same bytes (as the ugly-URL figure is made, bench/snapshots.mjs), the time to first
// byte of a server-rendered ('all') page whose state is not cached, and a person's first
// navigation in Chromium on that page (hydrated: no load, no re-render) against the shell of the
// pushState app (load, then render).
import { get } from 'node:http';
import { chromium } from 'playwright-core';
import { startDemo } from '../demo/server.mjs';
import { CHROMIUM_FLAGS } from '../dist/verify/browser.js';
import { median } from './lib/measure.mjs';
import { compareThroughput, startServers } from './lib/throughput.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BOT = 'Mozilla/5.0 (compatible; Twitterbot/1.0)';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Milliseconds from sending a GET to its first byte of body. */
function timeToFirstByte(url) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    get(url, { headers: { 'user-agent': PERSON } }, (res) => {
      res.once('data', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
      res.resume();
    }).on('error', reject);
  });
}

/** Every clean-URL figure: `{ served, bare, bytes, ttfbAll, ttfbHooks, firstHydrated, firstShell, dataRequests }`. */
export async function runCleanUrls({ quick = false } = {}) {
  const n = quick ? 15 : 40;
  const out = {};

  // 1. A bot at a clean URL, from the cache, against bare node:http with the same bytes.
  const servers = await startServers(new URL('./lib/serve-snapshot.mjs', import.meta.url), { env: { ...process.env, BOT_AGENT: BOT } });
  try {
    const url = (port) => `http://127.0.0.1:${port}/books/1`;
    Object.assign(
      out,
      await compareThroughput(
        { served: url(servers.ports.served), bare: url(servers.ports.botBare) },
        { quick, headers: { 'user-agent': BOT } },
      ),
    );
    out.bytes = servers.ports.botBytes;
  } finally {
    servers.stop();
  }

  // 2. Time to first byte of an uncached state: 'all' (/ssr/, data script included) and a bot on 'bots' (/).
  const demo = await startDemo({ cache: false });
  try {
    const books = Array.from({ length: n }, (_, i) => `books/${i + 1}`);
    await timeToFirstByte(`${demo.origin}/ssr/books/200`);
    const ssr = [];
    for (const book of books) ssr.push(await timeToFirstByte(`${demo.origin}/ssr/${book}`));
    out.ttfbAll = median(ssr);
    await demo.apps.find((a) => a.base === '/').handler.render('/books/200');
    const timed = [];
    for (const book of books) {
      const start = process.hrtime.bigint();
      await demo.apps.find((a) => a.base === '/').handler.render(`/${book}`);
      timed.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    out.renderHooks = median(timed);
  } finally {
    await demo.close();
  }

  // 3. A person's first navigation in Chromium: from navigation start to the router's settled
  // signal, hydrated (/ssr/) against the shell that loads and renders (/).
  const cached = await startDemo();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ userAgent: PERSON });
    await context.addInitScript(() => {
      addEventListener('crawlable-router:settled', () => (globalThis.__settledAt ??= performance.now()));
    });
    let dataRequests = 0;
    context.on('request', (request) => void (new URL(request.url()).pathname === '/data/books.json' && dataRequests++));
    const firstNavigation = async (url) => {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => typeof globalThis.__settledAt === 'number');
      const ms = await page.evaluate(() => globalThis.__settledAt);
      await page.close();
      return ms;
    };
    const books = Array.from({ length: quick ? 10 : 25 }, (_, i) => `books/${i + 1}`);
    // Every page rendered once first: the figure is the client's first navigation, not the server's render.
    for (const book of books)
      await fetch(`${cached.origin}/ssr/${book}`, { headers: { 'user-agent': PERSON } }).then((r) => r.arrayBuffer());
    await firstNavigation(`${cached.origin}/ssr/books/200`);
    await firstNavigation(`${cached.origin}/books/200`);
    const hydrated = [];
    const shell = [];
    dataRequests = 0;
    for (const book of books) hydrated.push(await firstNavigation(`${cached.origin}/ssr/${book}`));
    out.dataRequestsHydrated = dataRequests;
    dataRequests = 0;
    for (const book of books) shell.push(await firstNavigation(`${cached.origin}/${book}`));
    out.dataRequestsShell = dataRequests;
    out.firstHydrated = median(hydrated);
    out.firstShell = median(shell);
    out.firstCount = books.length;
  } finally {
    await browser.close();
    await cached.close();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runCleanUrls({ quick: process.argv.includes('--quick') }));
