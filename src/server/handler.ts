// The snapshot handler: a web `Request -> Response | null` core (h3's shape).
// An ugly URL (`/?_escaped_fragment_=/books/1` or the meta-tag form `/books/1?_escaped_fragment_=`)
// gets the HTML snapshot of its state; a clean URL inside `base` gets, by `cleanUrls`, the same
// snapshot (for bots that run no JavaScript, or for everyone) or the shell carrying
// `<meta name="fragment" content="!">`; anything else is not its business (null). A cached
// snapshot is answered at once, with no promise, waiter or signal (render/snapshots.ts).
// The scheme's rules it follows: docs/scheme.md.

import { CodecError, hasEscapedFragment, readUglyUrl } from '../codec.js';
import { toLocation, type AppLocation } from '../location.js';
import type { RouteDefinition, RouteTable } from '../route-types.js';
import { outcomeOf } from '../outcome.js';
import { createSnapshotCache } from './cache/cache.js';
import type { StoredSnapshot } from './cache/store.js';
import { memoryStore } from './cache/memory-store.js';
import { buildOf, checkBuild } from './build-id.js';
import { optionsOf, positiveOption, SnapshotError } from './errors.js';
import { memoize } from './memo.js';
import { isNoindex, NOINDEX_HEADER } from './noindex.js';
import { ownMemo } from './held.js';
import { DEFAULT_SHELL, parseShell } from './html/shell.js';
import { defaultIsBot } from './http/bots.js';
import { askOf, responseOf, type Answer, type Ask } from './http/exchange.js';
import { assetPathTest, isAssetDest } from './http/assets.js';
import { toNodeHandler } from './http/node.js';
import { checkNonce, nonceAnswers } from './http/nonce.js';
import { errorPage, failurePage, redirectTo } from './http/pages.js';
import { etagOf, respond, type Page } from './http/respond.js';
import { createQueue } from './render/queue.js';
import { hooksRenderer } from './render/render.js';
import { isPrivate } from './render/request.js';
import { createSnapshotSource } from './render/snapshots.js';
import type { SnapshotHandler, SnapshotHandlerOptions } from './types.js';
import { checkBase, checkCleanUrls, checkMode, checkOrigin, crawlerMode, publicUrl, redirectUrl, type UrlSettings } from './urls.js';

export type { CacheOptions, CleanUrls, Snapshot, SnapshotClient, SnapshotHandler, SnapshotHandlerOptions } from './types.js';

/** What a request target means to the handler. */
interface Target {
  location: AppLocation | null;
  clean: boolean;
  /** A clean URL whose path names an asset (http/assets.ts): never the shell's or a snapshot's. */
  asset: boolean;
  key?: AppLocation;
  /** The state is of a `noindex` route: its snapshot answers say so (noindex.ts). */
  noindex?: boolean;
}
// A fleet's render lock outlives its holder's last renewal by this (at most timeoutMs): a holder that
// died is taken over within it by a waiter, who still has time to render (cache/cache.ts renews it).
const LOCK_TTL_MS = 2000;
// The Cache-Control of a page rendered for one request (its hooks read `request`).
const PRIVATE_CACHE_CONTROL = 'private, no-store';
// What a process keeps by default of the snapshots it reads from a store of its own (types.ts, CacheOptions).
const RECENT_BYTES = 8 * 1024 * 1024;

/** The redirect of a redirect route's match (its load throws it at once), or null. */
function routeRedirect(match: NonNullable<ReturnType<RouteTable['match']>>, origin: string) {
  try {
    const { params, query, location } = match;
    match.route.load?.({ params, query, location, origin, signal: new AbortController().signal });
  } catch (thrown) {
    const outcome = outcomeOf(thrown);
    if (outcome?.kind === 'redirect') return outcome;
  }
  return null;
}

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

/** Creates the handler that answers crawlers' ugly URLs with snapshots, and clean URLs with snapshots or the shell by `cleanUrls`. */
export function createSnapshotHandler(options: SnapshotHandlerOptions): SnapshotHandler {
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
  // A failed render is shared by every request that waited for it: onError hears of it once.
  const reported = new WeakSet<object>();
  const cacheOptions = options.cache === false ? null : (options.cache ?? {});
  const ttlMs = cacheOptions?.ttlMs ?? 300_000;
  if (typeof ttlMs !== 'number' || !(ttlMs >= 0))
    throw new SnapshotError(
      'BAD_OPTION',
      `cache.ttlMs must be a number of milliseconds (Infinity: until invalidated), got ${JSON.stringify(ttlMs)}`,
    );
  const renderer = options.renderer ?? hooksRenderer(shell, routes);
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
  });
  const snapshots = createSnapshotSource({
    routes,
    settings,
    appMode,
    build,
    renderer,
    queue: createQueue(options.queue),
    timeoutMs,
    hydrate,
    limitClient: options.limitClient,
    cache,
  });
  const shellPage = { body: shell.page, etag: etagOf(shell.page), lastModified: Date.now(), cacheControl: shellCacheControl, vary };
  // The shell's answers are kept for the handler's life: one page, at most two answers.
  const shellMemo = {};
  ownMemo(shellMemo, () => true);

  /**
   * The answer of a stored snapshot, in the request's form (a redirect keeps the form it was asked
   * in), with `X-Robots-Tag: noindex` for a noindex route's state: read from the route table, not the
   * store, so a snapshot from any store says what the table says now.
   */
  function fromSnapshot(
    request: Ask,
    key: AppLocation,
    stored: StoredSnapshot,
    clean: boolean,
    noindex: boolean,
  ): Answer | Promise<Answer> {
    const varies = clean ? vary : undefined;
    const robots = noindex ? NOINDEX_HEADER : undefined;
    // A render that read its request is that visitor's page: no cache, shared or theirs, keeps it.
    const personal = isPrivate(stored);
    const control = personal ? PRIVATE_CACHE_CONTROL : cacheControl;
    if (stored.redirect !== undefined) {
      // The target in the request's own form: a clean URL moves to the target's clean URL; the
      // meta-tag form stays a clean URL with an empty escaped fragment.
      const form = clean ? 'clean' : readUglyUrl(request.target).fragment === '' ? 'meta' : 'ugly';
      const moved = redirectTo(stored.status, redirectUrl(stored.redirect, settings, form), control, shell.lang);
      return respond(request, { ...moved, headers: { ...moved.headers, ...robots }, vary: varies }, { compress });
    }
    const page: Page = {
      status: stored.status,
      body: stored.html,
      etag: stored.etag,
      lastModified: stored.renderedAt,
      cacheControl: control,
      headers: robots,
      vary: varies,
    };
    const own = ownNonce?.(request, page, key);
    if (own) return respond(request, own, { compress });
    // The header is the state's, as the stored snapshot is: the prepared answer may be kept on it.
    // At a clean URL the answer has its own headers (Vary), the same body: the second variant.
    return respond(request, page, { compress, memo: personal ? undefined : stored, variant: clean ? 1 : 0 });
  }

  /** The answer once the snapshot is rendered (or the render failed); null for a client that has gone. */
  async function afterWait(request: Ask, key: AppLocation, clean: boolean, noindex: boolean): Promise<Answer | null> {
    let stored: StoredSnapshot;
    try {
      stored = await snapshots.forRequest(request, key);
    } catch (error) {
      // A client that has gone gets nothing written; its wait is over.
      if (request.signal?.aborted) return null;
      const { page, report } = failurePage(error, retryAfter, shell.lang);
      if (report && !reported.has(error as object)) {
        reported.add(Object(error));
        onError(error, key);
      }
      // Where everyone gets rendered pages, a failed one is the app's shell with the failure's status:
      // a browser's router loads the state itself and shows it or its error view; nobody indexes a 5xx.
      const app = clean && hydrate ? { body: shell.page } : {};
      return respond(request, { ...page, ...app, vary: clean ? vary : undefined }, { compress });
    }
    return fromSnapshot(request, key, stored, clean, noindex);
  }

  /**
   * A redirect route's move, or the shell (200, or 404 where no route matches), for a clean URL that
   * gets no snapshot; null without `serveShell`. A move is no shell: it is answered either way.
   */
  function shellFor(request: Ask, location: AppLocation): Answer | Promise<Answer> | null {
    // Routes match paths: the query (which may be 16 kB of pairs) is not parsed for a status.
    const at = location.indexOf('?');
    const match = routes.match(at < 0 ? location : location.slice(0, at));
    // A redirect route needs no render: its clean URL moves to the target's clean URL (the query kept).
    // It is given its state, as every renderer and the client give it: the query keys it declares.
    const moved =
      match && (match.route as RouteDefinition).redirect !== undefined
        ? routeRedirect(routes.match(routes.stateOf(location)) ?? match, settings.origin)
        : null;
    if (moved)
      return respond(
        request,
        { ...redirectTo(moved.status, redirectUrl(moved.to, settings, 'clean'), cacheControl, shell.lang), vary },
        { compress },
      );
    if (!serveShell) return null;
    return respond(request, { ...shellPage, status: match ? 200 : 404 }, { compress, memo: shellMemo });
  }

  // Which clean URLs ask for an asset by their path (http/assets.ts): worked out once per table.
  // An ugly URL is the crawler's: never an asset, whatever its state's path.
  const isAssetPath = assetPathTest(routes);

  // What a target means: its location (null: not inside base), whether it is a clean URL, and its
  // state (worked out on first need). Parsing and matching cost more than a cached answer's rest.
  // A target is a path: read after an origin (`//o`) as the browser's router reads its page's URL,
  // so `//evil.example/books/1` is the path /evil.example/books/1, never a URL of another host.
  const targetOf = memoize(
    (target: string): Target => {
      const location = toLocation('//o' + target, { base: settings.base });
      const clean = !hasEscapedFragment(target);
      const at = location === null ? -1 : location.indexOf('?');
      const asset = clean && location !== null && isAssetPath(at < 0 ? location : location.slice(0, at));
      return { location, clean, asset };
    },
    { max: 1000, maxKeyLength: 512 },
  );

  function answer(request: Ask): Answer | Promise<Answer | null> | null {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    let target: Target;
    try {
      target = targetOf(request.target);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      const body = errorPage(400, `This is not a URL of the AJAX crawling scheme: ${error.message || error.code}`, shell.lang);
      return respond(request, { status: 400, body, cacheControl: 'no-store' }, { compress });
    }
    const { location, clean } = target;
    if (location === null) return null;
    // An asset is the next handler's (a static server's file, or its 404), never the shell.
    if (clean && (target.asset || isAssetDest(request.header('sec-fetch-dest')))) return null;
    if (clean && !(cleanUrls === 'all' || (cleanUrls === 'bots' && isBot(request.header('user-agent'))))) {
      return shellFor(request, location);
    }
    // The state: the path and the query keys its route says make a distinct state.
    const key = (target.key ??= routes.stateOf(location));
    const noindex = (target.noindex ??= isNoindex(routes, key));
    const stored = snapshots.cached(key);
    return stored ? fromSnapshot(request, key, stored, clean, noindex) : afterWait(request, key, clean, noindex);
  }

  return {
    async fetch(request) {
      const result = await answer(askOf(request));
      return result && responseOf(result);
    },
    node: toNodeHandler(answer),
    async render(location) {
      const key = routes.stateOf(location);
      const stored = await snapshots.get(key);
      const match = routes.match(key);
      const moved = stored.redirect === undefined ? {} : { redirect: publicUrl(stored.redirect, settings) };
      const canonical = publicUrl((match && routes.canonical(match)) ?? key, settings);
      return {
        location: key,
        status: stored.status,
        html: stored.html,
        etag: stored.etag,
        lastModified: new Date(stored.renderedAt),
        canonical,
        ...moved,
      };
    },
    invalidate(target) {
      return cache.invalidate(typeof target === 'function' ? target : routes.stateOf(target));
    },
    build,
  };
}
