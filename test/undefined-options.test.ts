import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryHistory } from 'history';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes, route, toLocation, toUrl, type RouteDefinition, type RoutesOptions } from '../src/index.js';
import { createRouter, type NavigateOptions, type RouterOptions } from '../src/client/index.js';
import {
  createSnapshotHandler,
  fileStore,
  memoryStore,
  prerender,
  redisStore,
  robotsTxt,
  sitemap,
  type CacheOptions,
  type PrerenderOptions,
  type QueueOptions,
  type RedisClientLike,
  type RobotsTxtOptions,
  type SitemapOptions,
  type SnapshotHandlerOptions,
} from '../src/server/index.js';
import { buildStep } from '../src/vite/build.js';
import { checkOptions, type CrawlableRouterOptions, type PrerenderStep } from '../src/vite/options.js';

// The types say an optional option may be given as `undefined` (an app's `build: process.env.GIT_SHA`
// under exactOptionalPropertyTypes: test/types/exact/): at run time that is the option left out,
// through the option checks (misspelt names, modes) and every merge with a default. Each object
// below names every optional option of its call, as its type makes it list them all.

/** The optional keys of `T`. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
/** Every optional key of `T`, each undefined: a key the type adds and this leaves out is a type error. */
type AllUndefined<T> = Record<OptionalKeys<T>, undefined>;

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'undefined-options-'));
  folders.push(dir);
  return dir;
}
/** Each file of `dir` (recursively) with its text. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = names.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  return Object.fromEntries(await Promise.all(files.sort().map(async (file) => [file, await readFile(path.join(dir, file), 'utf8')])));
}

const ORIGIN = 'https://example.com';
const routeFields: AllUndefined<RouteDefinition> = {
  name: undefined,
  title: undefined,
  beforeLoad: undefined,
  load: undefined,
  render: undefined,
  view: undefined,
  head: undefined,
  redirect: undefined,
  entries: undefined,
  queryKeys: undefined,
  noindex: undefined,
};
const routesOptions: AllUndefined<RoutesOptions> = {
  base: undefined,
  notFound: undefined,
  sensitive: undefined,
  head: undefined,
  queryKeys: undefined,
};
const table = (fields: object, options: RoutesOptions | undefined) =>
  createRoutes(
    [
      route({ ...fields, path: '/', title: 'Home', render: () => '<h1>Home</h1>' }),
      route({ ...fields, path: '/books/:id', name: 'book', entries: () => [{ id: '1' }], render: ({ params }) => `<h1>${params.id}</h1>` }),
      route({ ...fields, path: '/list{/:page}', name: 'list', render: () => '<ul></ul>' }),
    ],
    options,
  );

describe('an option given as undefined is the option left out', () => {
  it('in the route table: createRoutes, route fields, href, locations', async () => {
    const given = table(routeFields, routesOptions);
    const plain = table({}, undefined);
    expect(given.base).toBe(plain.base);
    expect(given.match('/Books/1?x=1')).toEqual(plain.match('/Books/1?x=1'));
    expect(given.href('list', undefined, { page: undefined })).toBe(plain.href('list'));
    expect(given.href('list', { page: undefined })).toBe('/list');
    const listed = async (t: typeof plain, options?: object) => {
      const all: string[] = [];
      for await (const location of t.locations(options)) all.push(location);
      return all;
    };
    expect(await listed(given, { onError: undefined, noindex: undefined })).toEqual(await listed(plain));
    expect(toUrl('/books/1', { base: undefined, mode: undefined, origin: undefined })).toBe(toUrl('/books/1'));
    expect(toLocation('/books/1', { base: undefined })).toBe(toLocation('/books/1'));
  });

  // The lite client reads its options as this one does (`??`), but needs a window: not in this file's node environment.
  it('in crawlable-router/client: createRouter and navigate', async () => {
    const options: AllUndefined<RouterOptions> = {
      mode: undefined,
      base: undefined,
      outlet: undefined,
      links: undefined,
      scroll: undefined,
      error: undefined,
      window: undefined,
      history: undefined,
      onError: undefined,
    };
    const history = createMemoryHistory({ initialEntries: ['/books/1'] });
    const router = createRouter({ ...options, routes: table(routeFields, routesOptions), history });
    expect(await router.start()).toBe(true);
    expect(router.mode).toBe('history');
    const navigate: AllUndefined<NavigateOptions> = { replace: undefined, state: undefined };
    expect(await router.navigate('/books/2', navigate)).toBe(true);
    expect([history.index, history.location.pathname, router.current?.location]).toEqual([1, '/books/2', '/books/2']);
    router.destroy();
  });

  it('in createSnapshotHandler, its cache and queue, and the stores', async () => {
    const cache: AllUndefined<CacheOptions> = { ttlMs: undefined, store: undefined, maxEntries: undefined, maxBytes: undefined };
    const queue: AllUndefined<QueueOptions> = { concurrency: undefined, maxWaiting: undefined, retryAfterSeconds: undefined };
    const options: AllUndefined<SnapshotHandlerOptions> = {
      base: undefined,
      mode: undefined,
      shell: undefined,
      outlet: undefined,
      renderer: undefined,
      cache: undefined,
      timeoutMs: undefined,
      queue: undefined,
      cacheControl: undefined,
      shellCacheControl: undefined,
      compress: undefined,
      serveShell: undefined,
      limitClient: undefined,
      cleanUrls: undefined,
      isBot: undefined,
      nonce: undefined,
      build: undefined,
      onError: undefined,
    };
    const routes = table(routeFields, routesOptions);
    const plain = createSnapshotHandler({ routes, origin: ORIGIN });
    const handlers = [
      createSnapshotHandler({ ...options, routes, origin: ORIGIN }),
      createSnapshotHandler({ ...options, cache, queue, routes, origin: ORIGIN }),
      createSnapshotHandler({ routes, origin: ORIGIN, cache: { store: memoryStore({ maxEntries: undefined, maxBytes: undefined }) } }),
      createSnapshotHandler({
        routes,
        origin: ORIGIN,
        cache: { store: fileStore(await folder(), { maxEntries: undefined, maxBytes: undefined, keep: undefined }) },
      }),
    ];
    const expected = await plain.render('/books/1');
    const answer = async (handler: typeof plain) =>
      (await handler.fetch(new Request(`${ORIGIN}/books/1`, { headers: { 'User-Agent': 'Googlebot' } })))?.headers.get('cache-control');
    for (const handler of handlers) {
      expect(handler.build).toBe(plain.build);
      expect(await handler.render('/books/1')).toMatchObject({ status: expected.status, html: expected.html });
      expect(await answer(handler)).toBe(await answer(plain));
    }
    const client: RedisClientLike = { isReady: false, sendCommand: () => Promise.reject(new Error('down')), on: () => client };
    expect(() =>
      redisStore({ client, prefix: undefined, maxBytes: undefined, maxTtlMs: undefined, commandTimeoutMs: undefined, retryMs: undefined }),
    ).not.toThrow();
  });

  it('in prerender, sitemap and robotsTxt', async () => {
    const routes = table(routeFields, routesOptions);
    const options: AllUndefined<PrerenderOptions> = {
      mode: undefined,
      cleanUrls: undefined,
      base: undefined,
      renderer: undefined,
      shell: undefined,
      outlet: undefined,
      timeoutMs: undefined,
      concurrency: undefined,
      sitemap: undefined,
      notFoundPage: undefined,
      progress: undefined,
      shard: undefined,
      sitemapOnly: undefined,
      build: undefined,
    };
    const [given, plain] = [await folder(), await folder()];
    const report = await prerender({ ...options, routes, outDir: given, origin: ORIGIN });
    await prerender({ routes, outDir: plain, origin: ORIGIN });
    expect(report.failed).toBe(0);
    expect(await filesOf(given)).toEqual(await filesOf(plain));
    const map: AllUndefined<SitemapOptions> = {
      base: undefined,
      mode: undefined,
      cleanUrls: undefined,
      lastmod: undefined,
      baseUrl: undefined,
      maxUrls: undefined,
    };
    expect(await sitemap(['/', '/books/1'], { ...map, origin: ORIGIN })).toEqual(await sitemap(['/', '/books/1'], { origin: ORIGIN }));
    const robots: AllUndefined<RobotsTxtOptions> = {
      base: undefined,
      disallow: undefined,
      optOut: undefined,
      sitemaps: undefined,
      userAgent: undefined,
    };
    expect(robotsTxt(robots)).toBe(robotsTxt());
  });

  it("in the Vite plugin's options, its prerender step, and robots.txt's sitemaps", async () => {
    const step: AllUndefined<PrerenderStep> = { failOnError: undefined, concurrency: undefined, timeoutMs: undefined };
    const options: AllUndefined<CrawlableRouterOptions> = {
      cleanUrls: undefined,
      outlet: undefined,
      prerender: undefined,
      sitemap: undefined,
      robots: undefined,
    };
    const required = { routes: 'src/routes.ts', origin: ORIGIN };
    expect(checkOptions({ ...options, ...required })).toEqual(checkOptions(required));
    expect(checkOptions({ ...required, prerender: step }).prerender).toEqual(step);
    // Built with no prerendering: the sitemap, and robots.txt naming it unless the app's own sitemaps replace it.
    const robotsOf = async (robots: CrawlableRouterOptions['robots']) => {
      const outDir = await folder();
      const settings = checkOptions({ ...required, prerender: false, robots });
      const logger = { info: () => {}, warn: () => {} } as unknown as Parameters<typeof buildStep>[4];
      await buildStep(settings, { routes: table({}, undefined), renderer: undefined }, outDir, '', logger);
      return readFile(path.join(outDir, 'robots.txt'), 'utf8');
    };
    const plain = await robotsOf(undefined);
    expect(plain).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(await robotsOf({ sitemaps: undefined, disallow: undefined, optOut: undefined, userAgent: undefined })).toBe(plain);
    expect(await robotsOf({ sitemaps: [] })).not.toContain('Sitemap:');
  });
});
