import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, createServer, preview, type InlineConfig } from 'vite';
import type { Express } from 'express';
import { listen } from '../server/helpers.js';
import { appFolder, blocksOf, readDoc, sectionOf, type AppFolder } from './recipes.js';

// docs/vite.md: the config and the app's files as printed (each block's first line names its file,
// `// vite.config.ts`, `<!-- index.html -->`), run under vite, vite build and vite preview with the
// config file as Vite loads it, and the options table held to the plugin's options.

const DOC = readDoc('docs/vite.md');
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const NAMED = /^(?:\/\/|<!--) ([\w./-]+\.(?:ts|html|js))\b/;

/** The page's blocks of the app's files, each with the file its first line names. */
function filesOf(markdown: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const { lang, code } of blocksOf(markdown)) {
    const name = NAMED.exec(code)?.[1];
    if (['ts', 'js', 'html'].includes(lang) && name !== undefined) files[name] = code;
  }
  return files;
}

/** GET `url` as `agent`, its redirect not followed. */
async function get(url: string, agent: string) {
  const response = await fetch(url, { headers: { 'user-agent': agent }, redirect: 'manual' });
  return { status: response.status, body: await response.text() };
}

describe('docs/vite.md', () => {
  let app: AppFolder;
  let config: InlineConfig;
  beforeAll(() => {
    app = appFolder(filesOf(DOC));
    // The config file as printed; the test's own settings beside it: silent, nothing to optimize in the background.
    config = {
      root: app.dir,
      configFile: path.join(app.dir, 'vite.config.ts'),
      logLevel: 'silent',
      optimizeDeps: { noDiscovery: true, include: [] },
    };
  });
  afterAll(() => app?.remove());

  it('prints the config, the routes module, main.ts, index.html and the server', () => {
    expect(Object.keys(filesOf(DOC)).sort()).toEqual(['index.html', 'server.js', 'src/main.ts', 'src/routes.ts', 'vite.config.ts']);
  });

  it('answers bots in vite dev from the table, and browsers with Vite’s page', async () => {
    const server = await (await createServer({ ...config, server: { host: '127.0.0.1', port: 0 } })).listen();
    try {
      const url = server.resolvedUrls?.local[0] as string;
      const book = await get(`${url}books/1`, BOT);
      expect(book.status).toBe(200);
      expect(book.body).toMatch(/<title[^>]*>Dune<\/title>/);
      expect(book.body).toContain('<div id="app"><h1>Dune</h1></div>');
      expect(book.body).toContain('<link rel="canonical" href="https://example.com/books/1"');
      expect((await get(`${url}?_escaped_fragment_=/books/2`, BROWSER)).body).toContain('<h1>Emma</h1>');
      const missing = await get(`${url}books/3`, BOT);
      expect(missing.status).toBe(404);
      expect(missing.body).toContain('<h1>No such page</h1>');
      const page = await get(`${url}books/1`, BROWSER);
      expect(page.body).toContain('<div id="app"></div>');
      expect(page.body).toContain('/@vite/client');
    } finally {
      await server.close();
    }
  });

  it('writes in vite build the files its table names, and vite preview serves them to bots', async () => {
    await build(config);
    const dist = (file: string) => readFileSync(path.join(app.dir, 'dist', file), 'utf8');
    expect(dist('books/1/index.html')).toContain('<div id="app"><h1>Dune</h1></div>');
    expect(dist('books/1/index.html')).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
    expect(dist('books/2/index.html')).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
    expect(dist('index.html')).toContain('<h1>Books</h1>');
    expect(dist('.crawlable-router.shell.html')).toContain('<div id="app"></div>');
    expect(JSON.parse(dist('.crawlable-router.json'))).toEqual({ build: expect.any(String) });
    expect(dist('404.html')).toContain('<h1>No such page</h1>');
    expect(dist('robots.txt')).toContain('Sitemap: https://example.com/sitemap.xml');
    expect([...dist('sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://example.com/',
      'https://example.com/books/1',
      'https://example.com/books/2',
    ]);
    const server = await preview({ ...config, preview: { host: '127.0.0.1', port: 0 } });
    try {
      const url = server.resolvedUrls?.local[0] as string;
      const book = await get(`${url}books/2`, BOT);
      expect(book.status).toBe(200);
      expect(book.body).toBe(dist('books/2/index.html'));
      expect((await get(`${url}books/3`, BOT)).status).toBe(404);
    } finally {
      await server.close();
    }
    // The build behind Express, as the page's server.js serves it: every state at its own URL, no 301.
    app.write('routes.js', "export { routes } from './src/routes.ts';\n");
    const { app: express } = await app.run<{ app: Express }>('server.js');
    const running = await listen(express);
    try {
      const book = await get(`${running.base}/books/2`, BOT);
      expect(book.status).toBe(200);
      expect(book.body).toBe(dist('books/2/index.html'));
      const shell = await get(`${running.base}/books/2`, BROWSER);
      expect(shell.status).toBe(200);
      expect(shell.body).toContain('<div id="app"></div>');
      expect((await get(`${running.base}/books/3`, BOT)).status).toBe(404);
    } finally {
      await running.close();
    }
  });

  it("lists in its options table every option the plugin's types name", () => {
    const types = readFileSync('dist/vite.d.ts', 'utf8');
    const body = /interface CrawlableRouterOptions \{([\s\S]*?)\n\}/.exec(types)?.[1] ?? '';
    const declared = [...body.matchAll(/^ {4}(\w+)\??:/gm)].map((m) => m[1]);
    const table = [...sectionOf(DOC, 'Options').matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(table).toEqual(declared);
    expect(declared.length).toBeGreaterThan(0);
  });

  it('names the files the build writes', () => {
    for (const name of ['.crawlable-router.shell.html', '.crawlable-router.json', 'sitemap.xml', 'robots.txt', '404.html'])
      expect(sectionOf(DOC, 'What each command does')).toContain(`\`${name}\``);
  });
});
