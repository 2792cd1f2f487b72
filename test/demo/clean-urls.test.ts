import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the demo server is plain JavaScript with no types of its own
import { startDemo } from '../../demo/server.mjs';
import { launch } from './chromium.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';

// Clean URLs in real Chromium: a bot with JavaScript off gets the rendered page ('bots' on /,
// /classic/ and the headless /spa/), and the server-rendered /ssr/ app ('all') hydrates: its first
// load asks for no data and keeps the server's outlet; later navigations fetch as usual.
const BOT = 'Mozilla/5.0 (compatible; Twitterbot/1.0)';
// Headless Chromium says "HeadlessChrome", which bot lists count as a bot: a person's browser says Chrome.
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DATA = '/data/books.json';

let demo: { origin: string; close: () => Promise<void> };
let browser: Browser;
beforeAll(async () => {
  demo = await startDemo({ timeoutMs: RENDER_LIVENESS_MS });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

describe('a bot that runs no JavaScript, at a clean URL', () => {
  it.each(['/books/1', '/classic/books/1', '/spa/books/1'])('sees the book at %s: title, og:title and text', async (path) => {
    const context = await browser.newContext({ userAgent: BOT, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const response = await page.goto(demo.origin + path);
      expect(response?.status()).toBe(200);
      expect(await response?.headerValue('vary')).toContain('User-Agent');
      expect(await page.title()).toBe('Les Misérables');
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe('Les Misérables');
      expect(await page.locator('main h1').innerText()).toBe('Les Misérables');
    } finally {
      await context.close();
    }
  });

  it('gets a 404 where there is nothing, and a browser gets the shell at the same URL', async () => {
    const context = await browser.newContext({ userAgent: BOT, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      expect((await page.goto(demo.origin + '/nowhere'))?.status()).toBe(404);
      expect(await page.title()).toBe('Not found');
    } finally {
      await context.close();
    }
    const person = await browser.newContext({ userAgent: PERSON, javaScriptEnabled: false });
    try {
      const page = await person.newPage();
      await page.goto(demo.origin + '/books/1');
      expect(await page.locator('meta[name="fragment"]').count()).toBe(1);
      expect(await page.locator('main#app').innerHTML()).toBe('');
    } finally {
      await person.close();
    }
  });
});

describe("the server-rendered app ('all', /ssr/)", () => {
  it('makes no data request on the first load and keeps the outlet the server rendered; later navigations fetch', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => void (new URL(request.url()).pathname === DATA && requests.push(request.url())));
      // Before any script of the page runs: tag the outlet's first child as the parser makes it.
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const first = document.querySelector('#app')?.firstElementChild;
          if (!first) return;
          (first as unknown as { fromServer: boolean }).fromServer = true;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(demo.origin + '/ssr/books/1');
      await page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled');
      expect(await page.locator('main h1').innerText()).toBe('Les Misérables');
      expect(
        await page.evaluate(
          () => (document.querySelector('#app')?.firstElementChild as unknown as { fromServer?: boolean } | null)?.fromServer,
        ),
      ).toBe(true);
      expect(requests).toEqual([]);

      await page.getByRole('link', { name: 'Victor Hugo', exact: true }).first().click();
      await page.waitForFunction(
        () => location.pathname === '/ssr/authors/victor-hugo' && document.documentElement.dataset['routerState'] === 'settled',
      );
      expect(await page.locator('main h1').innerText()).toBe('Victor Hugo');
      expect(requests).toHaveLength(1);
      // The server wrote the book's head; the author's replaces it for good.
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe('Victor Hugo');
      expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
      expect(
        await page.evaluate(
          () => (document.querySelector('#app')?.firstElementChild as unknown as { fromServer?: boolean } | null)?.fromServer,
        ),
      ).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('fetches the data on the first load of the pushState app, which gets the shell', async () => {
    const context = await browser.newContext({ userAgent: PERSON });
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => void (new URL(request.url()).pathname === DATA && requests.push(request.url())));
      await page.goto(demo.origin + '/books/1');
      await page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled');
      expect(await page.locator('main h1').innerText()).toBe('Les Misérables');
      expect(requests).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});
