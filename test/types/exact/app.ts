// What an app with `"exactOptionalPropertyTypes": true` (@tsconfig/strictest) writes: every
// documented option given a value that may be undefined (an environment variable, a field of the
// app's own optional config, an options object passed on), which means "the default". Compiled
// against the built types by test/types/exact.test.ts; never run. Every line must compile.
import {
  createRoutes,
  route,
  toLocation,
  toUrl,
  type Head,
  type NotFoundDefinition,
  type QueryInput,
  type RoutesOptions,
  type UrlMode,
} from 'crawlable-router';
import { createRouter, type ErrorView, type NavigateOptions, type RouterOptions, type RouterWindow } from 'crawlable-router/client';
import { createRouter as createLiteRouter } from 'crawlable-router/client/lite';
import {
  createSnapshotHandler,
  fileStore,
  headlessRenderer,
  memoryStore,
  prerender,
  redisStore,
  robotsTxt,
  sitemap,
  type CacheOptions,
  type CleanUrls,
  type QueueOptions,
  type RedisClientLike,
  type RenderResult,
  type SnapshotRenderer,
  type SnapshotStore,
  type StoredSnapshot,
} from 'crawlable-router/server';
import { crawlableRouter, type PrerenderStep } from 'crawlable-router/vite';

const env = process.env;
const maybe = <T>(value: T): T | undefined => (env['UNSET'] === undefined ? undefined : value);

/** The app's own settings, each optional: passed on as they are. */
interface Config {
  base?: string | undefined;
  mode?: UrlMode | undefined;
  cleanUrls?: CleanUrls | undefined;
  outlet?: string | undefined;
  timeoutMs?: number | undefined;
  build?: string | undefined;
  notFound?: NotFoundDefinition | undefined;
  head?: Head | undefined;
  queryKeys?: string[] | undefined;
}
declare const config: Config;

// The route table: options, route fields and href's params, as the app's config gives them.
export const book = route({
  path: '/books/:id',
  name: 'book',
  title: maybe('Book'),
  queryKeys: config.queryKeys,
  noindex: maybe(true),
  load: ({ params }) => ({ id: params.id }),
  render: ({ data }) => `<h1>${data.id}</h1>`,
});
export const list = route({ path: '/books{/:page}', name: 'list', queryKeys: config.queryKeys, render: () => '<ul></ul>' });
export const routes = createRoutes([book, list], {
  base: config.base,
  notFound: config.notFound,
  sensitive: maybe(false),
  head: config.head,
  queryKeys: config.queryKeys,
});
const routesOptions: RoutesOptions = { base: config.base, head: config.head };
/** A route whose hooks the app's setup may leave out. */
declare const hooks: { render?: (() => string) | undefined; entries?: (() => { id: string }[]) | undefined };
export const optional = route({
  path: '/hooks/:id',
  render: hooks.render,
  entries: hooks.entries,
  beforeLoad: maybe(() => {}),
  head: maybe(() => ({ meta: [{ name: maybe('description'), property: undefined, content: 'x' }] })),
});
export const plain = createRoutes([{ path: '/', title: maybe('Home'), redirect: maybe('/books') }, { path: '/about' }], routesOptions);
export const links = [
  routes.href('book', { id: '1' }, { tab: maybe('reviews') } satisfies QueryInput),
  routes.href('list', { page: maybe('2') }),
  routes.href('list', {}),
  routes.href('list', undefined, { sort: maybe('title') }),
  plain.href('anything', undefined, undefined),
  plain.href('anything', { id: maybe('1') }),
];
export const located = [
  toLocation('https://example.com/app/books/1', { base: config.base }),
  toUrl('/books/1', { base: config.base, mode: config.mode, origin: env['ORIGIN'] }),
];
export const listed = routes.locations({ onError: maybe(() => {}), noindex: maybe(true) });

// The browser routers.
declare const window: RouterWindow;
const errorView: ErrorView = {
  title: maybe('Failed'),
  render: () => '<p>Failed</p>',
  head: maybe(() => ({ link: maybe([{ rel: 'canonical', href: '/', hreflang: undefined }]) })),
};
const routerOptions: RouterOptions = {
  routes,
  mode: config.mode,
  base: config.base,
  outlet: config.outlet,
  links: maybe(true),
  scroll: maybe(false),
  error: maybe(errorView),
  window: maybe(window),
  onError: maybe((error: unknown) => console.error(error)),
};
export const router = createRouter(routerOptions);
export const lite = createLiteRouter({ ...routerOptions, history: undefined });
const navigateOptions: NavigateOptions = { replace: maybe(true), state: undefined };
export const navigated = router.navigate('/books/1', navigateOptions);

// The server: the handler, its stores, the renderers, prerender, the sitemap and robots.txt.
declare const client: RedisClientLike;
const cache: CacheOptions = { ttlMs: config.timeoutMs, maxEntries: maybe(10), maxBytes: maybe(1 << 20), store: maybe(memoryStore()) };
const queue: QueueOptions = { concurrency: maybe(2), maxWaiting: maybe(10), retryAfterSeconds: maybe(5) };
const upstream = headlessRenderer({
  root: 'dist',
  index: env['INDEX'],
  timeoutMs: config.timeoutMs,
  maxPages: maybe(2),
  spares: maybe(0),
  upstream: env['API'],
  upstreamMethods: maybe(['GET']),
  pageErrors: maybe('ignore'),
  isolate: maybe(true),
  memoryLimitMb: maybe(256),
  maxSnapshotBytes: maybe(1 << 20),
});
export const handler = createSnapshotHandler({
  routes,
  origin: 'https://example.com',
  base: config.base,
  mode: config.mode,
  shell: env['SHELL_HTML'],
  outlet: config.outlet,
  renderer: maybe(upstream),
  cache: maybe(cache),
  timeoutMs: config.timeoutMs,
  queue: maybe(queue),
  cacheControl: env['CACHE_CONTROL'],
  shellCacheControl: env['SHELL_CACHE_CONTROL'],
  compress: maybe(false),
  serveShell: maybe(true),
  limitClient: maybe(() => true),
  cleanUrls: config.cleanUrls,
  isBot: maybe((userAgent: string | null) => userAgent === null),
  nonce: env['NONCE'],
  build: process.env.GIT_SHA,
  onError: maybe(() => {}),
});
export const stores = [
  memoryStore({ maxEntries: maybe(10), maxBytes: maybe(1 << 20) }),
  fileStore('snapshots', { maxEntries: maybe(10), maxBytes: maybe(1 << 20), keep: maybe(() => true) }),
  redisStore({
    client,
    prefix: env['PREFIX'],
    maxBytes: maybe(1),
    maxTtlMs: maybe(1),
    commandTimeoutMs: maybe(1),
    retryMs: maybe(1),
  }),
];
export const report = prerender({
  routes,
  outDir: 'snapshots',
  origin: 'https://example.com',
  mode: config.mode,
  cleanUrls: config.cleanUrls,
  base: config.base,
  renderer: maybe(upstream),
  shell: env['SHELL_HTML'],
  outlet: config.outlet,
  timeoutMs: config.timeoutMs,
  concurrency: maybe(2),
  sitemap: maybe(true),
  notFoundPage: maybe(true),
  progress: maybe(process.stderr),
  shard: maybe({ current: 1, total: 2 }),
  sitemapOnly: maybe(false),
  build: process.env.GIT_SHA,
});
export const files = sitemap(['/'], {
  origin: 'https://example.com',
  base: config.base,
  mode: config.mode,
  cleanUrls: config.cleanUrls,
  lastmod: maybe(new Date()),
  baseUrl: env['SITEMAP_URL'],
  maxUrls: maybe(10),
});
export const robots = robotsTxt({
  base: config.base,
  disallow: maybe(['/admin']),
  optOut: maybe(false),
  sitemaps: maybe(['https://example.com/sitemap.xml']),
  userAgent: env['ROBOTS_AGENT'],
});

// A renderer and a store of the app's own, whose optional fields may be undefined too.
export const own: SnapshotRenderer = {
  build: process.env.GIT_SHA,
  render: async (): Promise<RenderResult> => ({ html: '<!DOCTYPE html>', status: maybe(404), redirect: maybe('/'), error: maybe('x') }),
};
export const kept = (row: { html: string; redirect: string | null; build: string | null }): StoredSnapshot => ({
  status: 200,
  html: row.html,
  etag: '"x"',
  renderedAt: 0,
  redirect: row.redirect ?? undefined,
  build: row.build ?? undefined,
});
export const store: SnapshotStore = {
  build: process.env.GIT_SHA,
  get: () => undefined,
  set: async () => {},
  delete: async () => {},
  keys: () => [],
};

// The Vite plugin.
const step: PrerenderStep = { failOnError: maybe(false), concurrency: maybe(2), timeoutMs: config.timeoutMs };
export const plugin = crawlableRouter({
  routes: 'src/routes.ts',
  origin: 'https://example.com',
  cleanUrls: config.cleanUrls,
  outlet: config.outlet,
  prerender: maybe(step),
  sitemap: maybe(true),
  robots: maybe({ disallow: maybe(['/admin']), sitemaps: maybe([]), userAgent: env['ROBOTS_AGENT'], optOut: maybe(false) }),
});
