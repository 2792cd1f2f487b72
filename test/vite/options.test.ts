import { describe, expect, it } from 'vitest';
import { crawlableRouter, type CrawlableRouterOptions } from 'crawlable-router/vite';
import { SnapshotError } from 'crawlable-router/server';
import { appsRemovedAfterEach, devServer, INDEX, previewServer, routesTs, viteBuild } from './app.js';

// The plugin's options, and what dev, build and preview say of a routes module or a base that
// cannot work: a SnapshotError BAD_OPTION naming the option, the file or both values.

const app = appsRemovedAfterEach();

/** What `f` threw. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('crawlableRouter options', () => {
  it.each([
    ['a host without a scheme', 'example.com'],
    ['an origin with a path', 'https://example.com/shop'],
    ['no origin', undefined],
  ])('refuses %s as the origin when called, before Vite starts', (_name, origin) => {
    const error = thrown(() => crawlableRouter({ routes: 'routes.ts', origin } as CrawlableRouterOptions));
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error).toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringMatching(/^crawlableRouter: origin must be an http\(s\) origin/),
    });
  });

  it('refuses a missing routes option, a misspelt option and a cleanUrls no handler knows', () => {
    expect(() => crawlableRouter({ origin: 'https://example.com' } as CrawlableRouterOptions)).toThrow(
      /crawlableRouter: routes must be the path of the routes module/,
    );
    expect(() =>
      crawlableRouter({ routes: 'routes.ts', origin: 'https://example.com', cleanURLs: 'all' } as CrawlableRouterOptions),
    ).toThrow('crawlableRouter: "cleanURLs" is no option; did you mean "cleanUrls"?');
    expect(() =>
      crawlableRouter({ routes: 'routes.ts', origin: 'https://example.com', prerender: { failonerror: false } } as never),
    ).toThrow('crawlableRouter: prerender: "failonerror" is no option; did you mean "failOnError"?');
    expect(() => crawlableRouter({ routes: 'routes.ts', origin: 'https://example.com', cleanUrls: 'some' as 'all' })).toThrow(
      /crawlableRouter: cleanUrls must be 'bots', 'all' or 'shell'/,
    );
  });

  it('stops the dev server at start, and the build, when the routes module does not exist', async () => {
    const site = await app();
    const missing = /crawlableRouter: the routes module "src\/routes\.ts" does not exist \(.*; routes is a path from Vite's root/;
    await expect(devServer(site, { routes: 'src/routes.ts' })).rejects.toThrow(missing);
    await expect(devServer(site, { routes: 'src/routes.ts' })).rejects.toMatchObject({ name: 'SnapshotError', code: 'BAD_OPTION' });
    // The build says it as Vite says a plugin's error, before bundling anything.
    await expect(viteBuild(site, { routes: 'src/routes.ts' })).rejects.toThrow(missing);
  });

  it('names what a routes module without a table exports', async () => {
    const site = await app({ 'routes.ts': 'export const appRoutes = [];\nexport const version = 1;\n' });
    const error = /crawlableRouter: routes\.ts exports no route table as its default or `routes` export \(it exports appRoutes, version\)/;
    await expect(devServer(site)).rejects.toThrow(error);
    await expect(viteBuild(site)).rejects.toThrow(error);
  });

  it("names the routes module that does not load, with the loader's message", async () => {
    const site = await app({ 'routes.ts': "import { nothing } from './nowhere';\nexport default nothing;\n" });
    await expect(viteBuild(site)).rejects.toThrow(/crawlableRouter: cannot load the routes module routes\.ts: .*nowhere/);
  });

  it('names the module that threw while the routes module loaded (a view that reads window at import)', async () => {
    // The loader's message alone ("window is not defined") named no file, and Vite prints the
    // plugin's error without its cause: the app's author had to guess which import it was.
    const site = await app({
      'routes.ts': "import { width } from './widget';\nexport default [{ path: '/', title: String(width) }];\n",
      'widget.ts': 'export const width = window.innerWidth;\n',
    });
    const error = /crawlableRouter: cannot load the routes module routes\.ts: window is not defined \(thrown in \S*widget\.ts\)/;
    await expect(devServer(site)).rejects.toThrow(error);
    await expect(viteBuild(site)).rejects.toThrow(error);
  });

  it("makes a table of an exported array of routes, under Vite's base", async () => {
    const site = await app({
      'routes.ts': "export default [{ path: '/', title: 'Home', render: () => '<h1>Home</h1>' }];\n",
      'main.ts': 'export {};\n',
    });
    await viteBuild(site, { sitemap: false, robots: false }, { base: '/shop/' });
    const home = await site.read('dist/index.html');
    expect(home).toContain('<h1>Home</h1>');
    expect(home).toContain('href="https://example.com/shop/"');
  });

  it("fails the build, the dev server's start and the preview when Vite's base is not the table's, naming both", async () => {
    const site = await app({ 'routes.ts': routesTs({ base: '/shop/' }) });
    const both = /crawlableRouter: Vite's base "\/" is not the route table's base "\/shop\/" \(routes\.ts\)/;
    await expect(viteBuild(site)).rejects.toThrow(both);
    await expect(devServer(site)).rejects.toThrow(both);
    await viteBuild(site, {}, { base: '/shop/' });
    await expect(previewServer(site)).rejects.toThrow(both);
  });

  it("names index.html and the outlet option when the page has no outlet (the React template's #root)", async () => {
    const site = await app({ 'index.html': INDEX.replace('id="app"', 'id="root"') });
    const named =
      /crawlableRouter: index\.html has no element that the outlet selector "#app" matches: give crawlableRouter\(\{ outlet \}\)/;
    await expect(viteBuild(site)).rejects.toThrow(named);
    await expect(devServer(site)).rejects.toThrow(named);
    await viteBuild(site, { outlet: '#root' });
    await expect(previewServer(site)).rejects.toThrow(
      /crawlableRouter: dist\/\.crawlable-router\.shell\.html has no element that the outlet selector "#app" matches/,
    );
    await (await previewServer(site, { outlet: '#root' })).close();
  });

  it('fails the build for a relative base, whose prerendered pages would miss their assets', async () => {
    const site = await app();
    await expect(viteBuild(site, {}, { base: './' })).rejects.toThrow(
      /crawlableRouter: Vite's base "\.\/" is relative, and the route table's base is "\/" \(routes\.ts\)/,
    );
  });
});
