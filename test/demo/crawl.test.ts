import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the demo server is plain JavaScript with no types of its own
import { startDemo } from '../../demo/server.mjs';
import { chromiumTextReader } from '../../src/verify/browser.js';
import { verify, type StateReport, type VerifyReport } from '../../src/verify/crawl.js';
import { CHROMIUM } from './chromium.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';
import { leftOut, SAMPLE, SPA_LEFT_OUT } from './sample.js';

// The crawl proof: `verify` over the whole demo, all three apps, from its front page, then
// `verify --browser` on every kind of page the crawl found: each app's home, lists, searches and
// 404s, and of its hundreds of book and author pages a page for each kind of text they hold
// (test/demo/sample.ts): every route of every app. Checking all 711 states, two Chromium loads each,
// took 317-362 s on a 2-core machine. `npx crawlable-router verify <demo's URL> --browser --max 5000`
// checks them all. The pushState and #! apps' states are all fetched and checked; the client-only
// app's book and author pages but the sample (each a headless render) are kept off by robots.txt:
// the crawler finds them, and reports each as DISALLOWED without fetching it.
const data = JSON.parse(readFileSync('demo/public/data/books.json', 'utf8')) as { books: unknown[]; authors: unknown[] };
// Per app: home, /books and its pages 2-5 (40 a page; the first is /books itself), six searches of
// one page each, every book, every author, the deliberate /nowhere and /books/99999 (404s) and
// /book/3 (an old URL, 301 to /books/3). The #! app's snapshots name its states by their clean
// URLs (/classic/books/1), as crawlers are told wherever the server answers them (cleanUrls 'bots').
const perApp = 1 + 1 + (Math.ceil(data.books.length / 40) - 1) + 6 + data.books.length + data.authors.length + 3;
// The pages each app has hundreds of, one route each: the sample of them is checked in Chromium, the
// same in every app; so is every other state but a redirect, the 404s among them.
const sampled = (s: StateReport) =>
  s.redirect === undefined && s.disallowed !== true && !leftOut(new URL(s.url).pathname + new URL(s.url).hash);

// The longest a state may take, its fetches and Chromium's loads: liveness only. verify's defaults
// (10 s, 15 s with a browser) are a crawler's limits on a site; here, on two cores shared with the
// rest of the suite and other jobs, the front page once took longer, and the crawl stopped there.
const STATE_LIVENESS_MS = 60_000;

let demo: { origin: string; close: () => Promise<void> };
let report: VerifyReport;
let checked: StateReport[];
let problems = 0;
beforeAll(async () => {
  demo = await startDemo({ disallow: SPA_LEFT_OUT, timeoutMs: RENDER_LIVENESS_MS });
  report = await verify(`${demo.origin}/`, { maxStates: 5000, concurrency: 6, timeoutMs: STATE_LIVENESS_MS });
  const sample = report.states.filter(sampled);
  const browser = await chromiumTextReader({ executablePath: CHROMIUM });
  try {
    // Each sampled state alone (maxStates 1: its own URL, no link followed), six at a time.
    checked = [];
    let next = 0;
    const worker = async () => {
      for (let state = sample[next++]; state; state = sample[next++]) {
        const one = await verify(state.url, { browser, maxStates: 1, agents: false, timeoutMs: STATE_LIVENESS_MS });
        checked.push(...one.states);
        problems += one.problems;
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
  } finally {
    await browser.close();
  }
}, 600_000);
afterAll(() => demo?.close());

describe('the demo, crawled as the scheme’s crawler does, with Chromium checking for cloaking', () => {
  it(`crawls every reachable state of the three apps (${3 * perApp})`, () => {
    expect(report.states).toHaveLength(3 * perApp);
    const app = (url: string) => /^\/(classic|spa)\//.exec(url.slice(demo.origin.length))?.[1] ?? 'root';
    const counts: Record<string, number> = {};
    for (const state of report.states) counts[app(state.url)] = (counts[app(state.url)] ?? 0) + 1;
    expect(counts).toEqual({ root: perApp, classic: perApp, spa: perApp });
  });

  it('gets every snapshot with 200, but for the deliberate 404s and the old URL that redirects, in every app', () => {
    // The client-only app's pages that robots.txt keeps it off: found, each a DISALLOWED warning, none fetched.
    const kept = report.states.filter((s) => s.disallowed);
    expect(kept.map((s) => s.url.slice(demo.origin.length)).sort()).toEqual(SPA_LEFT_OUT.map((rule) => rule.slice(0, -1)).sort());
    expect(kept.filter((s) => s.status !== 0 || s.warnings.map((w) => w.code).join() !== 'DISALLOWED')).toEqual([]);
    expect(report.warnings).toBe(kept.length);
    const notOk = report.states
      .filter((s) => s.status !== 200 && !s.disallowed)
      .map((s) => `${s.status} ${s.url.slice(demo.origin.length)}${s.redirect ? ` -> ${s.redirect.slice(demo.origin.length)}` : ''}`);
    expect(notOk.sort()).toEqual(
      [
        '404 /classic/nowhere',
        '404 /nowhere',
        '404 /spa/nowhere',
        '404 /books/99999',
        '404 /classic/books/99999',
        '404 /spa/books/99999',
        '301 /book/3 -> /books/3',
        '301 /classic/book/3 -> /classic/books/3',
        '301 /spa/book/3 -> /spa/books/3',
      ].sort(),
    );
    expect(report.states.filter((s) => s.kind === 'plain' && s.status === 200)).toEqual([]);
    expect(report.problems).toBe(0);
    // One sitemap, the pushState app's: the other apps' states name its URLs as their canonical ones.
    expect(report.sitemap).toMatchObject({ url: `${demo.origin}/sitemap.xml`, entries: 2 + data.books.length + data.authors.length });
  });

  it('finds no text mismatch between Chromium and the snapshots on a sample of every kind of page, and no other problem', () => {
    const app = (url: string) => /^\/(classic|spa)\//.exec(url.slice(demo.origin.length))?.[1] ?? 'root';
    // Each state checked alone is the state the whole crawl found.
    expect(checked.map((s) => `${s.status} ${s.url}`).sort()).toEqual(
      report.states
        .filter(sampled)
        .map((s) => `${s.status} ${s.url}`)
        .sort(),
    );
    for (const name of ['root', 'classic', 'spa']) {
      const mine = checked.filter((s) => app(s.url) === name);
      expect(mine.filter((s) => s.status === 200 && /\/(books\/\d+|authors\/[^/]+)$/.test(s.url)).length, name).toBe(SAMPLE.size);
      expect(mine.filter((s) => s.status === 404).length, name).toBe(2);
    }
    // Compared: what a crawler indexes (a 200) or is told is missing by a snapshot (a #! or meta-tag 404).
    expect(checked.filter((s) => s.text === 'mismatch')).toEqual([]);
    expect(checked.filter((s) => s.text !== 'match' && (s.status === 200 || s.kind !== 'plain'))).toEqual([]);
    expect(checked.filter((s) => s.status === 404 && s.text === 'match').length).toBeGreaterThanOrEqual(2);
    expect(problems).toBe(0);
  });
});
