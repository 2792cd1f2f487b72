import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the demo server is plain JavaScript with no types of its own
import { startDemo } from '../../demo/server.mjs';
import { chromiumTextReader } from '../../src/verify/browser.js';
import { verify, type VerifyReport } from '../../src/verify/crawl.js';
import { CHROMIUM } from './chromium.js';

// The crawl proof: `verify --browser` over the whole demo, all three apps, from its front page.
const data = JSON.parse(readFileSync('demo/public/data/books.json', 'utf8')) as { books: unknown[]; authors: unknown[] };
// Per app: home, /books and its pages 1-5 (40 a page), six searches of one page each, every book,
// every author, the deliberate /nowhere and /books/99999 (404s) and /book/3 (an old URL, 301 to
// /books/3). The #! app is also reached at its bare /classic/.
const perApp = 1 + 1 + Math.ceil(data.books.length / 40) + 6 + data.books.length + data.authors.length + 3;

let demo: { origin: string; close: () => Promise<void> };
let report: VerifyReport;
beforeAll(async () => {
  demo = await startDemo();
  const browser = await chromiumTextReader({ executablePath: CHROMIUM });
  try {
    report = await verify(`${demo.origin}/`, { browser, maxStates: 5000, concurrency: 6 });
  } finally {
    await browser.close();
  }
}, 600_000);
afterAll(() => demo?.close());

describe('the demo, crawled as the scheme’s crawler does, with Chromium checking for cloaking', () => {
  it(`crawls every reachable state of the three apps (${3 * perApp + 1})`, () => {
    expect(report.states).toHaveLength(3 * perApp + 1);
    const app = (url: string) => /^\/(classic|spa)\//.exec(url.slice(demo.origin.length))?.[1] ?? 'root';
    const counts: Record<string, number> = {};
    for (const state of report.states) counts[app(state.url)] = (counts[app(state.url)] ?? 0) + 1;
    expect(counts).toEqual({ root: perApp, classic: perApp + 1, spa: perApp });
  });

  it('gets every snapshot with 200, but for the deliberate 404s and the old URL that redirects, in every app', () => {
    const notOk = report.states
      .filter((s) => s.status !== 200)
      .map((s) => `${s.status} ${s.url.slice(demo.origin.length)}${s.redirect ? ` -> ${s.redirect.slice(demo.origin.length)}` : ''}`);
    expect(notOk.sort()).toEqual(
      [
        '404 /classic/#!/nowhere',
        '404 /nowhere',
        '404 /spa/nowhere',
        '404 /books/99999',
        '404 /classic/#!/books/99999',
        '404 /spa/books/99999',
        '301 /book/3 -> /books/3',
        '301 /classic/#!/book/3 -> /classic/#!/books/3',
        '301 /spa/book/3 -> /spa/books/3',
      ].sort(),
    );
    expect(report.states.filter((s) => s.kind === 'plain' && s.status === 200)).toEqual([]);
  });

  it('finds no text mismatch between Chromium and the snapshots, and no other problem', () => {
    expect(report.states.filter((s) => s.text === 'mismatch')).toEqual([]);
    expect(report.states.filter((s) => s.status === 200 && s.text !== 'match')).toEqual([]);
    expect(report.problems).toBe(0);
    expect(report.sitemap?.entries).toBe(3 * (2 + data.books.length + data.authors.length));
  });
});
