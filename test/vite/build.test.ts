import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRoutes } from 'crawlable-router';
import { createSnapshotHandler } from 'crawlable-router/server';
import { appsRemovedAfterEach, ORIGIN, recordingLogger, routesTs, VIEWS_TS, viteBuild } from './app.js';

// `vite build` with the plugin: the client's bundle, then every listed state prerendered into the
// build's folder with the built index.html as the shell, the sitemap, robots.txt, the 404 page and
// the build's record.

const app = appsRemovedAfterEach();

describe('vite build with crawlableRouter', () => {
  it("writes each listed state's page with the built shell's hashed assets, sitemap.xml, robots.txt and 404.html", async () => {
    const site = await app();
    await viteBuild(site);
    const [script] = readdirSync(path.join(site.root, 'dist/assets')).filter((f) => f.endsWith('.js'));
    expect(script).toMatch(/^index-[\w-]+\.js$/);
    const book = await site.read('dist/books/1/index.html');
    expect(book).toMatch(/<title[^>]*>Book 1<\/title>/);
    expect(book).toContain('<div id="app"><h1>Book: Book 1</h1></div>');
    expect(book).toContain(`src="/assets/${script}"`);
    expect(book).not.toContain('/main.ts');
    expect(await site.read('dist/books/2/index.html')).toContain('<h1>Book: Book 2</h1>');
    // The home page's snapshot takes index.html's place; the built shell is kept beside it.
    expect(await site.read('dist/index.html')).toContain('<h1>Books</h1>');
    const shell = await site.read('dist/.crawlable-router.shell.html');
    expect(shell).toContain('<div id="app"></div>');
    expect(shell).toContain(`src="/assets/${script}"`);
    expect(await site.read('dist/404.html')).toContain('<h1>No such page</h1>');
    const sitemap = await site.read('dist/sitemap.xml');
    for (const loc of ['/', '/books/1', '/books/2']) expect(sitemap).toContain(`<loc>${ORIGIN}${loc}</loc>`);
    expect(await site.read('dist/robots.txt')).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it("draws a table's React views into the prerendered pages, links and the 404 page among them", async () => {
    const site = await app({ 'routes.ts': VIEWS_TS });
    await viteBuild(site);
    expect(await site.read('dist/books/1/index.html')).toContain('<div id="app"><h1>React: Book 1</h1></div>');
    expect(await site.read('dist/index.html')).toContain('<h1>Drawn by React: <a href="/books/1">the first</a></h1>');
    expect(await site.read('dist/404.html')).toContain('<h1>No such page, said React</h1>');
  });

  it("records the build the snapshots belong to: the handler's build of the built shell", async () => {
    const site = await app();
    await viteBuild(site);
    const { build } = JSON.parse(await site.read('dist/.crawlable-router.json')) as { build: string };
    const shell = await site.read('dist/.crawlable-router.shell.html');
    expect(build).toBe(createSnapshotHandler({ routes: createRoutes([]), origin: ORIGIN, shell }).build);
  });

  it('logs a progress line per hundred states and a summary', async () => {
    const site = await app({ 'routes.ts': routesTs({ count: 250 }) });
    const logger = recordingLogger();
    await viteBuild(site, {}, { customLogger: logger });
    const ours = logger.lines.filter((line) => /^\w+ crawlable-router: /.test(line));
    expect(ours.filter((line) => /\[\s*\d+\/251\] ok/.test(line)).map((line) => /\[\s*(\d+)\//.exec(line)?.[1])).toEqual(['100', '200']);
    expect(ours.at(-1)).toMatch(/^info crawlable-router: prerendered 251 of 251 states in \d+ ms$/);
  });

  it('fails the build with the location and error of a state that fails', async () => {
    const site = await app({ 'routes.ts': routesTs({ failing: true }) });
    await expect(viteBuild(site)).rejects.toThrow(
      /1 of 4 states failed to prerender:\n {2}\/books\/bad: rendering \/books\/bad failed: the database is down/,
    );
  });

  it('passes with failOnError false, and reports the failed state', async () => {
    const site = await app({ 'routes.ts': routesTs({ failing: true }) });
    const logger = recordingLogger();
    await viteBuild(site, { prerender: { failOnError: false } }, { customLogger: logger });
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /^warn crawlable-router: 1 of 4 states failed to prerender:\n {2}\/books\/bad: .*the database is down.*failOnError: false/s,
      ),
    );
    expect(existsSync(path.join(site.root, 'dist/books/1/index.html'))).toBe(true);
    expect(existsSync(path.join(site.root, 'dist/books/bad'))).toBe(false);
  });

  it('prerenders nothing with prerender false, and still writes the sitemap and robots.txt', async () => {
    const site = await app();
    await viteBuild(site, { prerender: false });
    expect(await site.read('dist/index.html')).toContain('<div id="app"></div>');
    expect(existsSync(path.join(site.root, 'dist/books'))).toBe(false);
    expect(existsSync(path.join(site.root, 'dist/.crawlable-router.json'))).toBe(false);
    expect(await site.read('dist/sitemap.xml')).toContain(`<loc>${ORIGIN}/books/2</loc>`);
    expect(await site.read('dist/robots.txt')).toContain('Sitemap:');
  });

  it("keeps a robots.txt of the app's public folder", async () => {
    const site = await app({ 'public/robots.txt': 'User-agent: *\nDisallow: /admin\n' });
    await viteBuild(site);
    expect(await site.read('dist/robots.txt')).toBe('User-agent: *\nDisallow: /admin\n');
  });

  it('prerenders under the base Vite and the table share', async () => {
    const site = await app({ 'routes.ts': routesTs({ base: '/shop/' }) });
    await viteBuild(site, {}, { base: '/shop/' });
    const book = await site.read('dist/books/1/index.html');
    expect(book).toContain('src="/shop/assets/');
    expect(book).toContain(`href="${ORIGIN}/shop/books/1"`);
    expect(await site.read('dist/robots.txt')).toContain(`Sitemap: ${ORIGIN}/shop/sitemap.xml`);
  });
});
