import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: the demo server is plain JavaScript with no types of its own
import { startDemo } from '../../demo/server.mjs';
import { launch } from './chromium.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';

// The demo in real Chromium: what happy-dom cannot show (real history, real scrolling, real clicks,
// a browser without pushState) is checked here against the running demo server.
let demo: { origin: string; close: () => Promise<void> };
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  demo = await startDemo({ timeoutMs: RENDER_LIVENESS_MS });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1000, height: 500 } });
  page = await context.newPage();
});
afterEach(() => context.close());

const settled = () => page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled');
const h1 = () => page.locator('main h1').innerText();
const path = () => page.evaluate(() => location.pathname + location.search + location.hash);
const historyLength = () => page.evaluate(() => history.length);

/** Opens `url` in a fresh tab and waits for the router to settle. */
async function open(url: string) {
  await page.goto(demo.origin + url);
  await settled();
}

/** Clicks a link by its text and waits for the router to settle on the new state. */
async function follow(text: string) {
  const before = await path();
  await page.getByRole('link', { name: text, exact: true }).first().click();
  await page.waitForFunction((from) => location.pathname + location.search + location.hash !== from, before);
  await settled();
}

describe.each([
  ['the pushState app', '/', (loc: string) => loc],
  ['the #! app on the UMD bundle', '/classic/', (loc: string) => `/classic/#!${loc}`],
])('%s', (_, base, url) => {
  it('follows links without loading a page, and changes the title', async () => {
    await open(base);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await follow('Victor Hugo');
    expect(await path()).toBe(url('/authors/victor-hugo'));
    expect(await h1()).toBe('Victor Hugo');
    await follow('Les Misérables');
    expect(await path()).toBe(url('/books/1'));
    expect(await page.title()).toBe('Les Misérables');
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
  });

  it('restores content, title and scroll position on back and forward', async () => {
    await open(url('/books'));
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => window.scrollY === 600);
    await follow('Frankenstein');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await h1()).toBe('Frankenstein');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'All books');
    await settled();
    expect(await page.title()).toBe('All books');
    expect(await page.evaluate(() => window.scrollY)).toBe(600);
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Frankenstein');
    expect(await page.title()).toBe('Frankenstein');
  });

  it('renders a deep link to a state with non-ASCII, + and & in its query', async () => {
    await open(url('/books?q=Pride%20%26%20Prejudice'));
    expect(await h1()).toBe('Books matching “Pride & Prejudice”');
    await open(url('/books?q=C%2B%2B'));
    expect(await h1()).toBe('Books matching “C++”');
    await open(url('/books?q=%E6%97%A5%E6%9C%AC'));
    expect(await h1()).toBe('Books matching “日本”');
  });

  it('leaves modifier clicks and target=_blank links to the browser', async () => {
    await open(base);
    const before = await path();
    const opened = context.waitForEvent('page');
    await page.getByRole('link', { name: 'Jules Verne', exact: true }).click({ modifiers: ['Control'] });
    await (await opened).close();
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = document.querySelector<HTMLAnchorElement>('main a[href*="authors"]')?.href ?? '';
      a.target = '_blank';
      a.textContent = 'in a new tab';
      document.querySelector('main')?.append(a);
    });
    const popup = context.waitForEvent('page');
    await page.getByRole('link', { name: 'in a new tab' }).click();
    await (await popup).close();
    expect(await path()).toBe(before);
  });
});

/**
 * The head a crawler or preview bot reads: description, og:title, og:site_name, robots, the JSON-LD's
 * name, and the paths of the canonical link and og:url (every app's name the pushState app's URL).
 */
const head = () =>
  page.evaluate(() => {
    const metas = (key: string) =>
      [...document.head.querySelectorAll('meta')].filter((m) => m.name === key || m.getAttribute('property') === key).map((m) => m.content);
    const ld = [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => (JSON.parse(s.textContent ?? '') as { name: string }).name,
    );
    const path = (url: string) => (url.startsWith(location.origin) ? url.slice(location.origin.length) : url);
    const canonical = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')].map((l) => path(l.href));
    return {
      description: metas('description'),
      ogTitle: metas('og:title'),
      siteName: metas('og:site_name'),
      robots: metas('robots'),
      jsonLd: ld,
      canonical,
      ogUrl: metas('og:url').map(path),
    };
  });

describe.each([
  ['the pushState app', '/', (loc: string) => loc],
  ['the #! app on the UMD bundle', '/classic/', (loc: string) => `/classic/#!${loc}`],
  ['the client-only app', '/spa/', (loc: string) => `/spa${loc}`],
  ['the server-rendered app', '/ssr/', (loc: string) => `/ssr${loc}`],
])('the head and the outcomes of %s', (_, _base, url) => {
  it('keeps exactly the state’s head tags through navigation, back and forward', async () => {
    await open(url('/books/1'));
    const book = {
      description: ['Les Misérables, by Victor Hugo (1862).'],
      ogTitle: ['Les Misérables'],
      siteName: ['Crawlable Books'],
      robots: [],
      jsonLd: ['Les Misérables'],
      canonical: ['/books/1'],
      ogUrl: ['/books/1'],
    };
    const author = {
      description: ['Books by Victor Hugo in the catalogue.'],
      ogTitle: ['Victor Hugo'],
      siteName: ['Crawlable Books'],
      robots: [],
      jsonLd: [],
      canonical: ['/authors/victor-hugo'],
      ogUrl: ['/authors/victor-hugo'],
    };
    expect(await head()).toEqual(book);
    await follow('Victor Hugo');
    expect(await head()).toEqual(author);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Les Misérables');
    await settled();
    expect(await head()).toEqual(book);
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Victor Hugo');
    await settled();
    expect(await head()).toEqual(author);
    await follow('Home');
    expect(await head()).toEqual({
      description: ['A catalogue of classic books whose every page has its own URL.'],
      // The library derives og:title (the state's title) where a state has any og: tag (og:site_name).
      ogTitle: ['Crawlable Books'],
      siteName: ['Crawlable Books'],
      robots: [],
      jsonLd: [],
      canonical: ['/'],
      ogUrl: ['/'],
    });
  });

  it('shows /books/99999 as not found with its URL kept, and moves /book/3 to /books/3 in place', async () => {
    await open(url('/books/99999'));
    expect(await h1()).toBe('Not found');
    expect(await page.title()).toBe('Not found');
    expect(await path()).toBe(url('/books/99999'));
    expect(await head()).toMatchObject({ robots: ['noindex'], canonical: [], ogUrl: [] });
    const before = await historyLength();
    await page.goto(demo.origin + url('/book/3'));
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Le Comte de Monte-Cristo');
    await settled();
    expect(await path()).toBe(url('/books/3'));
    expect(await historyLength()).toBe(before + 1);
  });
});

describe('moving between URL forms', () => {
  it('renders a deep link to a clean URL', async () => {
    await open('/authors/jules-verne');
    expect(await h1()).toBe('Jules Verne');
    expect(await page.title()).toBe('Jules Verne');
  });

  it('moves a pushState browser from a #! deep link to the clean URL without a new history entry', async () => {
    await open('/books/2');
    const direct = await historyLength();
    page = await context.newPage();
    await open('/#!/books/2');
    expect(await path()).toBe('/books/2');
    expect(await h1()).toBe('Notre-Dame de Paris');
    expect(await historyLength()).toBe(direct);
  });

  it('uses #! where pushState is missing, and moves a clean deep link to the pretty URL', async () => {
    await context.addInitScript(() => Object.defineProperty(History.prototype, 'pushState', { value: undefined }));
    await open('/#!/authors/jules-verne');
    const direct = await historyLength();
    page = await context.newPage();
    await page.goto(`${demo.origin}/authors/jules-verne`);
    await page.waitForURL(`${demo.origin}/#!/authors/jules-verne`);
    await settled();
    expect(await h1()).toBe('Jules Verne');
    expect(await historyLength()).toBe(direct);
    await follow('Le Tour du monde en quatre-vingts jours');
    expect(await path()).toMatch(/^\/#!\/books\/\d+$/);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Jules Verne');
  });

  it('shows the demo (screenshot for the README)', async () => {
    await open('/books/1');
    await follow('Victor Hugo');
    // UPDATE_DOCS=1 npm test writes the README's picture; other runs leave the tree untouched.
    const file = process.env['UPDATE_DOCS'] ? 'docs/demo.png' : join(mkdtempSync(join(tmpdir(), 'demo-')), 'demo.png');
    mkdirSync(dirname(file), { recursive: true });
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(await h1()).toBe('Victor Hugo');
  });
});
