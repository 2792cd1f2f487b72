import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { createBuilder } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toUglyUrl } from 'crawlable-router';
import { launch } from '../demo/chromium.js';
import { LIVENESS_MS } from '../liveness.js';

// The example app (examples/react-vite: React, Vite and Express under /app/), built as
// docs/react.md's "Example app" says: one `vite build` of its config, into a temp folder here, for
// both halves (the browser's files and the server's entry-server.js), then `node server.mjs` on
// that build, on 127.0.0.1 port 0. Bots and ugly URLs get the state drawn by React on the server, with its title,
// canonical link and status; a browser hydrates the same page in Chromium, and its links navigate
// in the document. Its typecheck is `npm run typecheck`'s (examples/react-vite/tsconfig.json).

const EXAMPLE = path.resolve('examples/react-vite');
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
// Headless Chromium says "HeadlessChrome", which bot lists count as a bot: a person's browser says Chrome.
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let out: string;
let server: ChildProcess | undefined;
let origin: string;
let browser: Browser | undefined;

/** Starts `node server.mjs` on the build in `dist`; resolves to its origin once it listens. */
async function startServer(dist: string): Promise<string> {
  const child = spawn(process.execPath, [path.join(EXAMPLE, 'server.mjs')], {
    cwd: EXAMPLE,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST: dist, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server.mjs did not listen within ${LIVENESS_MS} ms: ${output}`)), LIVENESS_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\/app\//.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server.mjs exited (${code}) before it listened: ${output}`));
    });
  });
}

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'crawlable-router-example-react-vite-'));
  // The server's half imports the package and React by name, from the build's folder as from the
  // example's: linked as npm links them.
  await mkdir(path.join(out, 'node_modules'));
  await symlink(process.cwd(), path.join(out, 'node_modules', 'crawlable-router'), 'dir');
  await symlink(path.resolve('node_modules/react'), path.join(out, 'node_modules', 'react'), 'dir');
  // A production build, as `vite build` makes it outside a test run (vitest sets NODE_ENV to "test").
  vi.stubEnv('NODE_ENV', 'production');
  try {
    const builder = await createBuilder({
      root: EXAMPLE,
      configFile: path.join(EXAMPLE, 'vite.config.ts'),
      logLevel: 'silent',
      environments: {
        client: { build: { outDir: path.join(out, 'client'), emptyOutDir: true } },
        ssr: { build: { outDir: path.join(out, 'server'), emptyOutDir: true } },
      },
    });
    await builder.buildApp();
  } finally {
    vi.unstubAllEnvs();
  }
  origin = await startServer(out);
  browser = await launch();
  // The build and Chromium's start on a busy machine; each wait inside has its own liveness limit.
}, 2 * LIVENESS_MS);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = once(server, 'exit');
    server.kill();
    await exited;
  }
  await rm(out, { recursive: true, force: true });
});

/** GET `url` as `agent`. */
async function get(url: string, agent = BOT) {
  const response = await fetch(url, { headers: { 'user-agent': agent }, redirect: 'manual' });
  return { status: response.status, body: await response.text() };
}

const titleOf = (html: string) => /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1];
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
const outletOf = (html: string) => /<div id="app"[^>]*>([\s\S]*?)<\/div>\s*<\/body>/.exec(html)?.[1];

describe('the example app, built and served by its Express server', () => {
  it.each([
    ['a bot at the clean URL', '/app/books/1', 'Dune', 'Frank Herbert'],
    ['a bot at the ugly URL', toUglyUrl('/app/#!/books/2'), 'Emma', 'Jane Austen'],
  ])('%s gets the state drawn by React: status, title, canonical and outlet (%s)', async (_, url, title, author) => {
    const { status, body } = await get(origin + url);
    expect(status).toBe(200);
    expect(titleOf(body)).toBe(title);
    expect(canonicalOf(body)).toBe(`https://example.com/app/books/${title === 'Dune' ? 1 : 2}`);
    expect(outletOf(body)).toContain(`<h1>${title}</h1><p>by <!-- -->${author}</p>`);
    // Links in the clean form, under the base.
    expect(outletOf(body)).toContain('<a href="/app/">All books</a>');
    // The shell's script, with Vite's hashed name, under the base.
    expect(body).toMatch(/<script type="module" crossorigin src="\/app\/assets\/index-[\w-]+\.js"><\/script>/);
  });

  it.each([['/app/books/9'], ['/app/nowhere'], [toUglyUrl('/app/#!/nowhere')]])(
    'answers %s with 404 and the notFound view',
    async (url) => {
      const { status, body } = await get(origin + url);
      expect(status).toBe(404);
      expect(titleOf(body)).toBe('Not found');
      expect(outletOf(body)).toMatch(/^<main><h1>Nothing at <!-- -->\/\w+(\/9)?<\/h1>/);
    },
  );

  it("serves the build's files and the plugin's sitemap under /app/", async () => {
    const sitemap = await get(`${origin}/app/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect([...sitemap.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://example.com/app/',
      'https://example.com/app/books/1',
      'https://example.com/app/books/2',
      'https://example.com/app/about',
    ]);
    expect((await get(`${origin}/app/robots.txt`)).body).toContain('Sitemap: https://example.com/app/sitemap.xml');
    // A file that is not there is a 404, not the shell.
    expect((await get(`${origin}/app/assets/missing.js`, PERSON)).status).toBe(404);
  });

  it('leaves react-dom/server out of the browser bundle', async () => {
    const assets = path.join(out, 'client', 'assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const code = (await Promise.all(scripts.map((name) => readFile(path.join(assets, name), 'utf8')))).join('\n');
    // React's client, with hydrateRoot, is in it; its server renderer is not.
    expect(code).toContain('hydrateRoot');
    expect(code).not.toMatch(/renderToString|renderToReadableStream|renderToPipeableStream|react-dom\/server/);
    expect(code).not.toContain('createSnapshotHandler');
  });

  it('hydrates the first state in Chromium with no change to the outlet, and a Link navigates in the document', async () => {
    const context = await browser!.newContext({ userAgent: PERSON });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => void errors.push(String(error)));
      // The console's errors, but for the responses' statuses, which are checked apart.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
      });
      const failed: string[] = [];
      page.on('response', (answer) => void (answer.status() >= 400 && failed.push(new URL(answer.url()).pathname)));
      // Once the parser has built the page, before any script of it runs (module scripts run after
      // readyState turns "interactive"): keep the outlet's nodes and record every mutation in it.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          const outlet = document.getElementById('app')!;
          const nodes: Node[] = [];
          const walker = document.createTreeWalker(outlet);
          while (walker.nextNode()) nodes.push(walker.currentNode);
          const mutations: MutationRecord[] = [];
          const observer = new MutationObserver((records) => void mutations.push(...records));
          observer.observe(outlet, { childList: true, subtree: true, characterData: true, attributes: true });
          Object.assign(window, { serverNodes: nodes, mutations, outletObserver: observer });
        });
      });
      const response = await page.goto(`${origin}/app/books/1`);
      expect(response?.status()).toBe(200);
      // Hydrated: React has claimed the server's <h1> (its fiber is on the node).
      await page.waitForFunction(
        () => {
          const h1 = document.querySelector('#app h1');
          return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber$'));
        },
        undefined,
        { timeout: LIVENESS_MS },
      );
      const hydrated = await page.evaluate(() => {
        const { serverNodes, mutations, outletObserver } = window as unknown as {
          serverNodes: Node[];
          mutations: MutationRecord[];
          outletObserver: MutationObserver;
        };
        mutations.push(...outletObserver.takeRecords());
        const nodes: Node[] = [];
        const walker = document.createTreeWalker(document.getElementById('app')!);
        while (walker.nextNode()) nodes.push(walker.currentNode);
        return {
          mutations: mutations.length,
          nodes: serverNodes.length,
          same: nodes.length === serverNodes.length && nodes.every((node, i) => node === serverNodes[i]),
          title: document.title,
        };
      });
      expect(hydrated).toEqual({ mutations: 0, nodes: hydrated.nodes, same: true, title: 'Dune' });
      expect(hydrated.nodes).toBeGreaterThan(5);
      // React's now: the button's handler runs on the server's node.
      await page.getByRole('button', { name: 'Like' }).click();
      await page.getByRole('button', { name: 'Liked' }).waitFor({ timeout: LIVENESS_MS });

      // A Link click is the router's: no document load (the marker survives), the next state drawn.
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await page.getByRole('link', { name: 'All books' }).click();
      await page.waitForFunction(
        () => location.pathname === '/app/' && document.querySelector('#app h1')?.textContent === 'Books',
        undefined,
        { timeout: LIVENESS_MS },
      );
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(await page.title()).toBe('Books');
      await page.getByRole('link', { name: 'Emma' }).click();
      await page.waitForFunction(() => document.querySelector('#app h1')?.textContent === 'Emma', undefined, { timeout: LIVENESS_MS });
      expect(await page.evaluate(() => [location.pathname, (window as unknown as { sameDocument?: boolean }).sameDocument])).toEqual([
        '/app/books/2',
        true,
      ]);
      expect(errors).toEqual([]);
      // Chromium asks for the origin's favicon, which the app does not have.
      expect(failed.filter((where) => where !== '/favicon.ico')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
