// What `createSnapshotHandler`'s options make, once per handler: each option checked (a bad one is
// BAD_OPTION at start, a store of another build BUILD_MISMATCH), its default filled in, and what the
// answers are built of: the URL settings, the parsed shell, each answer's nonce, the cache and the
// snapshot source (render/snapshots.ts). Nothing here runs per request.

import type { AppLocation } from '../url/location.js';
import { createSnapshotCache, type SnapshotCache } from './cache/cache.js';
import { memoryStore } from './cache/memory-store.js';
import { buildOf, checkBuild } from './build-id.js';
import { optionsOf, positiveOption, SnapshotError } from './errors.js';
import { DEFAULT_SHELL, parseShell } from './html/shell.js';
import { defaultIsBot, type IsBot } from './http/bots.js';
import { checkNonce, nonceAnswers } from './http/nonce.js';
import { failurePage } from './http/pages.js';
import type { ShellAnswerOptions } from './http/shell-answer.js';
import type { SnapshotAnswerOptions } from './render/snapshot-answer.js';
import { createQueue } from './render/queue.js';
import { hooksRenderer } from './render/render.js';
import { isPrivate } from './render/request.js';
import { createSnapshotSource } from './render/snapshots.js';
import type { SnapshotHandlerOptions } from './types.js';
import { checkBase, checkCleanUrls, checkMode, checkOrigin, crawlerMode, type CleanUrls, type UrlSettings } from './urls.js';

// A fleet's render lock outlives its holder's last renewal by this (at most timeoutMs): a holder that
// died is taken over within it by a waiter, who still has time to render (cache/cache.ts renews it).
const LOCK_TTL_MS = 2000;
// What a process keeps by default of the snapshots it reads from a store of its own (types.ts, CacheOptions).
const RECENT_BYTES = 8 * 1024 * 1024;

// Every option's name, for the check of misspelt ones (the type keeps the list whole).
const OPTIONS: Record<keyof SnapshotHandlerOptions, 1> = {
  routes: 1,
  origin: 1,
  base: 1,
  mode: 1,
  shell: 1,
  outlet: 1,
  renderer: 1,
  cache: 1,
  timeoutMs: 1,
  queue: 1,
  cacheControl: 1,
  shellCacheControl: 1,
  compress: 1,
  serveShell: 1,
  limitClient: 1,
  cleanUrls: 1,
  isBot: 1,
  nonce: 1,
  build: 1,
  onError: 1,
};

/** A handler's parts: what its answers are built of, and what the handler reads itself. */
export interface HandlerSetup extends SnapshotAnswerOptions, ShellAnswerOptions {
  /** What a clean URL inside `base` gets. */
  cleanUrls: CleanUrls;
  /** Who gets a snapshot at a clean URL in `cleanUrls: 'bots'` mode. */
  isBot: IsBot;
  /** The snapshot cache (`invalidate`). */
  cache: SnapshotCache;
  /** The build every snapshot is stamped with. */
  build: string;
}

/** Reads and checks `createSnapshotHandler`'s options and makes the handler's parts. */
export function setUpHandler(options: SnapshotHandlerOptions): HandlerSetup {
  const { routes } = optionsOf(options, 'createSnapshotHandler', '{ routes, origin, … }', OPTIONS);
  if (!routes || typeof routes.resolve !== 'function')
    throw new SnapshotError('BAD_OPTION', 'routes must be a route table from createRoutes()');
  const cleanUrls = checkCleanUrls(options.cleanUrls);
  // The app's own mode opens its pages (a headless render); crawlers are told clean URLs (urls.ts).
  const appMode = checkMode(options.mode);
  const settings: UrlSettings = {
    origin: checkOrigin(options.origin),
    base: checkBase(options.base, routes.base),
    mode: crawlerMode(appMode, cleanUrls),
  };
  const timeoutMs = positiveOption(options.timeoutMs, 10_000, 'timeoutMs', 'a number of milliseconds');
  const {
    cacheControl = 'public, max-age=300',
    shellCacheControl = 'no-cache',
    compress = true,
    serveShell = true,
    // A store's failure has no location (and fails no snapshot): it is named as the store's.
    onError = (error: unknown, location: AppLocation | null) =>
      console.error(
        location === null
          ? 'crawlable-router: the snapshot store failed; states are rendered here, unshared, until it answers again:'
          : `crawlable-router: snapshot of ${location} failed:`,
        error,
      ),
  } = options;
  const isBot = options.isBot ?? defaultIsBot;
  if (typeof isBot !== 'function') throw new SnapshotError('BAD_OPTION', 'isBot must be a function of the User-Agent header');
  const nonce = checkNonce(options.nonce);
  const hydrate = cleanUrls === 'all' ? { nonce: typeof nonce === 'string' ? nonce : undefined } : undefined;
  // A function's nonce is each answer's: pages are stored without it and given it as they are sent.
  const ownNonce =
    hydrate && typeof nonce === 'function'
      ? nonceAnswers({
          nonce,
          origin: settings.origin,
          shell: options.shell ?? DEFAULT_SHELL,
          renderer: options.renderer !== undefined,
          failed: (error, location) => (onError(error, location), failurePage(error, retryAfter, shell.lang).page),
        })
      : undefined;
  // In 'bots' mode one clean URL has two answers: every one of them says so, or a shared cache mixes them.
  const vary = cleanUrls === 'bots' ? 'User-Agent' : undefined;
  const shell = parseShell(options.shell ?? DEFAULT_SHELL, {
    outlet: options.outlet ?? '#app',
    links: { ...settings, page: settings.origin + settings.base },
  });
  const retryAfter = String(options.queue?.retryAfterSeconds ?? 5);
  const cacheOptions = options.cache === false ? null : (options.cache ?? {});
  const ttlMs = cacheOptions?.ttlMs ?? 300_000;
  if (typeof ttlMs !== 'number' || !(ttlMs >= 0))
    throw new SnapshotError(
      'BAD_OPTION',
      `cache.ttlMs must be a number of milliseconds (Infinity: until invalidated), got ${JSON.stringify(ttlMs)}`,
    );
  // The hooks renderer is every job's too (RenderJob.hooks): a renderer of its own views draws the outlet alone.
  const hooks = hooksRenderer(shell, routes);
  const renderer = options.renderer ?? hooks;
  const build = checkBuild(options.build ?? renderer.build ?? buildOf(options.shell ?? DEFAULT_SHELL));
  const store = cacheOptions ? (cacheOptions.store ?? memoryStore(cacheOptions)) : null;
  // A folder of snapshots prerendered for another build would serve its pages: refused at start.
  if (store?.build !== undefined && store.build !== build)
    throw new SnapshotError(
      'BUILD_MISMATCH',
      `the store holds snapshots of build ${JSON.stringify(store.build)}, and this handler serves build ${JSON.stringify(build)}: prerender again for this build, or give this handler that build`,
    );
  const cache = createSnapshotCache({
    store,
    build,
    // With a store of its own, maxEntries and maxBytes bound what this process keeps of what it reads.
    recent: cacheOptions?.store && { maxEntries: cacheOptions.maxEntries ?? 100, maxBytes: cacheOptions.maxBytes ?? RECENT_BYTES },
    ttlMs,
    onError: (error) => onError(error, null),
    // A request waits for another process's render no longer than for its own.
    waitMs: timeoutMs,
    lockTtlMs: Math.min(LOCK_TTL_MS, timeoutMs),
    isPrivate,
    // A redirect route's state is its move, never a 200: `/about` moved to `/about/` is that file too.
    isRouted: (key) => {
      const found = routes.match(key);
      return found !== null && (found.route as { redirect?: unknown }).redirect === undefined;
    },
  });
  const snapshots = createSnapshotSource({
    routes,
    settings,
    appMode,
    build,
    renderer,
    hooks,
    queue: createQueue(options.queue),
    timeoutMs,
    hydrate,
    limitClient: options.limitClient,
    cache,
  });
  return {
    routes,
    cleanUrls,
    settings,
    isBot,
    shell,
    cacheControl,
    shellCacheControl,
    vary,
    serveShell,
    compress,
    ownNonce,
    snapshots,
    retryAfter,
    hydrate,
    onError,
    cache,
    build,
  };
}
