import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './demo/chromium.js';
import { listen, type Running } from './server/helpers.js';

// The ESM build loaded by a page with no bundler and no import map, in real Chromium: every import
// of the browser's entries is a relative file (the pattern language is the package's own), so
// `<script type="module">` can import dist/ straight from a static server or a CDN. The page at
// `/lite/…` imports the lite client instead.
const pageOf = (client: string, base: string) => `<!DOCTYPE html><html><head><title>Shell</title>
<script type="module">
  import { createRoutes } from '/dist/index.js';
  import { createRouter } from '${client}';
  const routes = createRoutes([
    { path: '/', title: 'Home', render: () => '<h1>Home</h1><a id="next" href="${base}books/2">two</a>' },
    { path: '/books/:id', title: ({ params }) => 'Book ' + params.id, render: ({ params }) => '<h1>' + params.id + '</h1>' },
  ], { base: '${base}' });
  window.router = createRouter({ routes, outlet: '#outlet' });
  window.router.start();
</script></head><body><main id="outlet"></main></body></html>`;

let server: Running;
let browser: Browser;
const asked: string[] = [];

beforeAll(async () => {
  // The page at every path, and the files of dist/ as a static server gives them.
  server = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    asked.push(url.pathname);
    if (!url.pathname.startsWith('/dist/'))
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(url.pathname.startsWith('/lite/') ? pageOf('/dist/client/lite.js', '/lite/') : pageOf('/dist/client/index.js', '/'));
    readFile(path.join(process.cwd(), path.normalize(url.pathname))).then(
      (body) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the ESM build in a browser without a bundler', () => {
  it.each([
    ['the router', ''],
    ['the lite router', '/lite'],
  ])('imports the route table and %s from dist/ and routes, by the address bar and by a link', async (_, at) => {
    asked.length = 0;
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    try {
      await page.goto(`${server.base}${at}/books/1`);
      await page.waitForFunction(() => document.documentElement.dataset['routerState'] === 'settled');
      expect([await page.title(), await page.locator('#outlet h1').innerText()]).toEqual(['Book 1', '1']);
      await page.evaluate(() => (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/'));
      const before = await page.evaluate(() => history.length);
      await page.click('#next');
      await page.waitForFunction(() => document.title === 'Book 2');
      // One pushed entry, no page load: the click was the router's.
      expect(await page.evaluate(() => [location.pathname, history.length, typeof (window as { router?: unknown }).router])).toEqual([
        `${at}/books/2`,
        before + 1,
        'object',
      ]);
      expect(errors).toEqual([]);
      // Only files of dist/ were asked for, the pattern compiler's among them: nothing by a bare name.
      expect(asked).toContain('/dist/routes/pattern/syntax.js');
      expect(asked.filter((p) => p.startsWith('/dist/')).every((p) => p.endsWith('.js'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
