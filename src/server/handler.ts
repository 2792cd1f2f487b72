// The snapshot handler: a web `Request -> Response | null` core (h3's shape, STYLE.md "Shape").
// An ugly URL (`/?_escaped_fragment_=/books/1` or the meta-tag form `/books/1?_escaped_fragment_=`)
// gets the HTML snapshot of its state; a clean URL inside `base` gets, by `cleanUrls`, the same
// snapshot (for bots that run no JavaScript, or for everyone) or the shell carrying
// `<meta name="fragment" content="!">`; anything else is not its business (null).
// The scheme's rules it follows: docs/scheme.md.

import { CodecError, hasEscapedFragment, readUglyUrl } from '../codec.js';
import { normalizeLocation, stripAnchor, toLocation, toUrl, type AppLocation, type UrlMode } from '../location.js';
import type { AnyRoute, RouteDefinition, RouteTable } from '../routes.js';
import {
  createSnapshotCache,
  memoryStore,
  type InvalidateTarget,
  type MemoryStoreOptions,
  type SnapshotStore,
  type StoredSnapshot,
} from './cache/cache.js';
import { SnapshotError } from './errors.js';
import { errorPage, redirectPage } from './html/escape.js';
import { defaultIsBot, type IsBot } from './http/bots.js';
import { askOf, responseOf, type Answer, type Ask } from './http/exchange.js';
import { checkNonce } from './html/hydration.js';
import { etagOf, respond, type Page } from './http/respond.js';
import { toNodeHandler, type NodeHandler } from './http/node.js';
import { createFlights, isAbandoned } from './render/flights.js';
import { createQueue, type QueueOptions } from './render/queue.js';
import { hooksRenderer, type SnapshotRenderer } from './render/render.js';
import { DEFAULT_SHELL, parseShell } from './html/shell.js';
import { checkBase, checkMode, checkOrigin, publicUrl, redirectUrl, type UrlSettings } from './urls.js';
import { outcomeOf } from '../outcome.js';

/** Options of the snapshot cache. */
export interface CacheOptions extends MemoryStoreOptions {
  /** How long a snapshot is served before it is rendered again, in ms; `Infinity` until invalidated. Default 300000 (5 min). */
  ttlMs?: number;
  /** Where snapshots are kept (`fileStore(...)` or a shared store). Default `memoryStore({ maxEntries, maxBytes })`. */
  store?: SnapshotStore;
}

/** Options of `createSnapshotHandler`. */
export interface SnapshotHandlerOptions {
  /** The route table shared with the client. Required. */
  routes: RouteTable<AnyRoute>;
  /** The origin canonical links are written on (`https://example.com`); the Host header is never used. Required. */
  origin: string;
  /** The app's base path; must be the route table's. Default: the route table's base. */
  base?: string;
  /** Which URL the canonical link names: `'history'` the clean URL, `'hashbang'` the `#!` URL. Default `'history'`. */
  mode?: UrlMode;
  /** The app's HTML shell (its index.html), parsed once. Default: a minimal page with an empty `<div id="app">`. */
  shell?: string;
  /** A compound selector for the shell element whose content a snapshot replaces. Default `'#app'`. */
  outlet?: string;
  /** Renders states. Default: the routes' `load`/`title`/`render` hooks into the shell. */
  renderer?: SnapshotRenderer;
  /** The snapshot cache, or `false` for none (concurrent requests still share one render). Default `{}`. */
  cache?: CacheOptions | false;
  /** Longest a render (`load` included) may take before the answer is 504 and its signal aborts, in ms. Default 10000. */
  timeoutMs?: number;
  /** The render queue's bounds. Default `{ concurrency: 4, maxWaiting: 100, retryAfterSeconds: 5 }`. */
  queue?: QueueOptions;
  /** `Cache-Control` of snapshots (200, 404 and redirects). Default `'public, max-age=300'`. */
  cacheControl?: string;
  /** `Cache-Control` of the shell served at clean URLs. Default `'no-cache'` (revalidate by ETag). */
  shellCacheControl?: string;
  /** gzip answers for clients that accept it (and send `Vary: Accept-Encoding`). Default `true`. */
  compress?: boolean;
  /** Answer clean URLs inside `base` with the shell where they get it; `false` leaves those to the next handler. Default `true`. */
  serveShell?: boolean;
  /**
   * A per-client limit, asked before each snapshot request waits for its state: return false to
   * refuse it with 429 and `Retry-After`. Default: none (every client may wait).
   */
  limitClient?: (client: SnapshotClient) => boolean | Promise<boolean>;
  /**
   * What a clean URL inside `base` gets: `'bots'` the snapshot for bots that run no JavaScript and
   * the shell for others, with `Vary: User-Agent`; `'all'` the snapshot with the state's data for
   * everyone (server rendering; the client router hydrates); `'shell'` the shell. Default `'bots'`.
   */
  cleanUrls?: CleanUrls;
  /** Whether a `User-Agent` (null when absent) is a bot that gets snapshots at clean URLs in `'bots'` mode. Default: the `isbot` package's list. */
  isBot?: IsBot;
  /** A CSP nonce written on the data script of `'all'` pages; pages are cached, so it is one value for every answer. Default none. */
  nonce?: string;
  /** Told about renders that fail (500) or time out (504), and stores that fail. Default `console.error`. */
  onError?: (error: unknown, location: AppLocation | null) => void;
}

/** Who asks for a snapshot, as `limitClient` sees it. */
export interface SnapshotClient {
  /** The address the connection comes from (node adapter); null from `fetch`, where only headers can tell. */
  address: string | null;
  /** A request header (lower-case name): behind a proxy, the client's address is in one; trust only your own proxy's. */
  header(name: string): string | null;
  /** The state asked for. */
  location: AppLocation;
  /** Snapshot requests from the same address (or, without one, from every client without one) waiting for an answer now, this one not counted. */
  waiting: number;
}

/** What a clean URL inside `base` gets: see `SnapshotHandlerOptions.cleanUrls`. */
export type CleanUrls = 'bots' | 'all' | 'shell';

/** A snapshot, as `render(location)` gives it. */
export interface Snapshot {
  /** The canonical location rendered (no anchor). */
  location: AppLocation;
  /** 200; 404 when no route matches or `load` threw `notFound()`; a redirect's status. */
  status: number;
  /** For a redirect: the target's public URL (clean or `#!`, on `origin`). */
  redirect?: string;
  /** The whole HTML document. */
  html: string;
  /** Its strong ETag, quoted. */
  etag: string;
  /** When it was rendered. */
  lastModified: Date;
  /** The canonical URL of the state. */
  canonical: string;
}

/** What `createSnapshotHandler` gives. */
export interface SnapshotHandler {
  /** The web core: a Response for an ugly URL or a clean URL inside base, null for anything else. */
  fetch(request: Request): Promise<Response | null>;
  /** The same as a node:http handler or Express/Connect middleware (`next()` for what is not its business). */
  node: NodeHandler;
  /** The snapshot of one location, through the cache and the queue; rejects with `SnapshotError`. */
  render(location: AppLocation): Promise<Snapshot>;
  /** Forgets cached snapshots: one location, or every location a predicate accepts. */
  invalidate(target: InvalidateTarget): Promise<void>;
}

const CLEAN_URLS: readonly CleanUrls[] = ['bots', 'all', 'shell'];
const LOCK_MARGIN_MS = 1000;
const STATUS_OF: Partial<Record<SnapshotError['code'], number>> = { BUSY: 503, ABANDONED: 503, LIMITED: 429, TIMEOUT: 504 };

/** Runs `task` with a signal that aborts at `ms` (TIMEOUT) or when `outer` aborts (its reason); either rejects at once. */
function withTimeout<T>(ms: number, location: AppLocation, outer: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stop = () => {};
  const limit = new Promise<never>((_, reject) => {
    const abort = (error: unknown) => {
      controller.abort(error);
      reject(error);
    };
    timer = setTimeout(() => abort(new SnapshotError('TIMEOUT', `rendering ${location} took longer than ${ms} ms`)), ms);
    const gone = () => abort(outer.reason);
    if (outer.aborted) gone();
    outer.addEventListener('abort', gone, { once: true });
    stop = () => outer.removeEventListener('abort', gone);
  });
  return Promise.race([Promise.resolve().then(() => task(controller.signal)), limit]).finally(() => {
    clearTimeout(timer);
    stop();
  });
}

/** The redirect of a redirect route's match (its load throws it at once), or null. */
function routeRedirect(match: NonNullable<ReturnType<RouteTable['match']>>) {
  try {
    match.route.load?.({ params: match.params, query: match.query, location: match.location, signal: new AbortController().signal });
  } catch (thrown) {
    const outcome = outcomeOf(thrown);
    if (outcome?.kind === 'redirect') return outcome;
  }
  return null;
}

/** Creates the handler that answers crawlers' ugly URLs with snapshots, and clean URLs with snapshots or the shell by `cleanUrls`. */
export function createSnapshotHandler(options: SnapshotHandlerOptions): SnapshotHandler {
  const { routes } = options;
  if (!routes || typeof routes.resolve !== 'function')
    throw new SnapshotError('BAD_OPTION', 'routes must be a route table from createRoutes()');
  const settings: UrlSettings = {
    origin: checkOrigin(options.origin),
    base: checkBase(options.base, routes.base),
    mode: checkMode(options.mode),
  };
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0)) throw new SnapshotError('BAD_OPTION', `timeoutMs must be above 0, got ${String(timeoutMs)}`);
  const {
    cacheControl = 'public, max-age=300',
    shellCacheControl = 'no-cache',
    compress = true,
    serveShell = true,
    onError = (error: unknown, location: AppLocation | null) =>
      console.error(`crawlable-router: snapshot of ${location ?? '?'} failed:`, error),
  } = options;
  const cleanUrls = options.cleanUrls ?? 'bots';
  if (!CLEAN_URLS.includes(cleanUrls))
    throw new SnapshotError('BAD_OPTION', `cleanUrls must be 'bots', 'all' or 'shell', got ${JSON.stringify(cleanUrls)}`);
  const isBot = options.isBot ?? defaultIsBot;
  if (typeof isBot !== 'function') throw new SnapshotError('BAD_OPTION', 'isBot must be a function of the User-Agent header');
  const hydrate = cleanUrls === 'all' ? { nonce: checkNonce(options.nonce) } : undefined;
  // In 'bots' mode one clean URL has two answers: every one of them says so, or a shared cache mixes them.
  const vary = cleanUrls === 'bots' ? 'User-Agent' : undefined;
  const shell = parseShell(options.shell ?? DEFAULT_SHELL, {
    outlet: options.outlet ?? '#app',
    links: { ...settings, page: settings.origin + settings.base },
  });
  const renderer = options.renderer ?? hooksRenderer(shell, routes);
  const queue = createQueue(options.queue);
  const retryAfter = String(options.queue?.retryAfterSeconds ?? 5);
  const cacheOptions = options.cache === false ? null : (options.cache ?? {});
  const cache = createSnapshotCache({
    store: cacheOptions ? (cacheOptions.store ?? memoryStore(cacheOptions)) : null,
    ttlMs: cacheOptions?.ttlMs ?? 300_000,
    onError: (error) => onError(error, null),
    // A request waits for another process's render no longer than for its own; a lock outlives
    // the render it guards (timeoutMs from its start) by at most LOCK_MARGIN_MS.
    waitMs: timeoutMs,
    lockTtlMs: timeoutMs + LOCK_MARGIN_MS,
  });
  const shellPage = { body: shell.page, etag: etagOf(shell.page), lastModified: Date.now(), cacheControl: shellCacheControl, vary };
  const shellMemo = {};
  // A stored snapshot's answer at a clean URL has its own headers (Vary), so its own prepared copy.
  const cleanMemos = new WeakMap<StoredSnapshot, object>();
  const cleanMemo = (stored: StoredSnapshot) => cleanMemos.get(stored) ?? (cleanMemos.set(stored, {}), cleanMemos.get(stored) as object);

  async function produce(location: AppLocation, abandoned: AbortSignal): Promise<StoredSnapshot> {
    const match = routes.resolve(location);
    const notFound = !match || match.notFound;
    try {
      const result = await withTimeout(timeoutMs, location, abandoned, (signal) =>
        renderer.render({
          location,
          url: toUrl(location, settings),
          canonical: publicUrl((match && routes.canonical(match)) ?? location, settings),
          match,
          notFound,
          settings,
          signal,
          hydrate,
        }),
      );
      const status = result.status ?? (notFound ? 404 : 200);
      // A failure (an app that showed its error view) is a 500 like a throw: never cached, never its page.
      if (status >= 500) throw new SnapshotError('RENDER_FAILED', `rendering ${location} gave status ${status}`);
      const redirect = result.redirect === undefined ? {} : { redirect: stripAnchor(normalizeLocation(result.redirect)) };
      return { status, html: result.html, etag: etagOf(result.html), renderedAt: Date.now(), ...redirect };
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError('RENDER_FAILED', `rendering ${location} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }

  // A render goes on while one request still waits for it; when the last has gone it is aborted.
  const flights = createFlights<StoredSnapshot>();
  const waiting = new Map<string | null, number>();

  // The render of a state, once it leaves the queue: `started` tells the store (a fleet's lock is kept alive until then).
  const render = (location: AppLocation, abandoned: AbortSignal) => (started: () => void) =>
    queue.run(() => {
      started();
      return produce(location, abandoned);
    }, abandoned);

  async function fill(location: AppLocation, abandoned: AbortSignal): Promise<StoredSnapshot> {
    try {
      return await cache.get(location, render(location, abandoned));
    } catch (error) {
      // The cache was still sharing a render abandoned a moment ago: this flight starts its own.
      if (!isAbandoned(error) || abandoned.aborted) throw error;
      return cache.get(location, render(location, abandoned));
    }
  }

  const snapshot = (location: AppLocation, signal?: AbortSignal) =>
    flights.join(location, (abandoned) => fill(location, abandoned), signal);

  /** The snapshot for a request: refused when `limitClient` says so, its wait counted per address. */
  async function snapshotFor(request: Ask, location: AppLocation): Promise<StoredSnapshot> {
    const address = request.address ?? null;
    const count = waiting.get(address) ?? 0;
    if (options.limitClient && !(await options.limitClient({ address, header: request.header, location, waiting: count }))) {
      throw new SnapshotError('LIMITED', `the client at ${address ?? 'an unknown address'} may not ask for more snapshots now`);
    }
    waiting.set(address, (waiting.get(address) ?? 0) + 1);
    try {
      return await snapshot(location, request.signal);
    } finally {
      const left = (waiting.get(address) ?? 1) - 1;
      if (left > 0) waiting.set(address, left);
      else waiting.delete(address);
    }
  }

  function failure(error: unknown, location: AppLocation): Page {
    const code = error instanceof SnapshotError ? error.code : 'RENDER_FAILED';
    const status = STATUS_OF[code] ?? 500;
    if (status === 503 || status === 429) {
      // ABANDONED reaches only a client that has gone (or, rarely, one that joined as it left): no report.
      const message = status === 429 ? 'Too many snapshot requests from this client' : 'Too many snapshots are being rendered';
      return {
        status,
        body: errorPage(status, `${message}; retry in ${retryAfter} seconds.`),
        cacheControl: 'no-store',
        headers: { 'Retry-After': retryAfter },
      };
    }
    onError(error, location);
    // Whichever limit fired (the handler's or the renderer's own), onError has its message; the page only says what happened.
    const message =
      status === 504
        ? 'The snapshot of this page took too long to render; try again later.'
        : 'The snapshot of this page could not be rendered.';
    return { status, body: errorPage(status, message), cacheControl: 'no-store' };
  }

  async function answer(request: Ask): Promise<Answer | null> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    let location: AppLocation | null;
    try {
      location = toLocation(request.target, { base: settings.base });
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      return respond(
        request,
        { status: 400, body: errorPage(400, `This is not a URL of the AJAX crawling scheme: ${error.message}`), cacheControl: 'no-store' },
        { compress },
      );
    }
    if (location === null) return null;
    const clean = !hasEscapedFragment(request.target);
    const varies = clean ? vary : undefined;
    if (clean && !(cleanUrls === 'all' || (cleanUrls === 'bots' && isBot(request.header('user-agent'))))) {
      if (!serveShell) return null;
      // Routes match paths: the query (which may be 16 kB of pairs) is not parsed for a status.
      const at = location.indexOf('?');
      const match = routes.match(at < 0 ? location : location.slice(0, at));
      // A redirect route needs no render: its clean URL moves to the target's clean URL (the query kept).
      const moved =
        match && (match.route as RouteDefinition).redirect !== undefined ? routeRedirect(routes.match(location) ?? match) : null;
      if (moved) return respond(request, { ...moving(moved.status, redirectUrl(moved.to, settings, 'clean')), vary }, { compress });
      return respond(request, { ...shellPage, status: match ? 200 : 404 }, { compress, memo: shellMemo });
    }
    // The state: the path and the query keys its route says make a distinct state.
    const key = routes.stateOf(location);
    let stored: StoredSnapshot;
    try {
      stored = await snapshotFor(request, key);
    } catch (error) {
      // A client that has gone gets nothing written; its wait is over.
      if (request.signal?.aborted) return null;
      return respond(request, { ...failure(error, key), vary: varies }, { compress });
    }
    if (stored.redirect !== undefined) {
      // The target in the request's own form: a clean URL moves to the target's clean URL; the
      // meta-tag form stays a clean URL with an empty escaped fragment.
      const form = clean ? 'clean' : readUglyUrl(request.target).fragment === '' ? 'meta' : 'ugly';
      return respond(request, { ...moving(stored.status, redirectUrl(stored.redirect, settings, form)), vary: varies }, { compress });
    }
    const page: Page = {
      status: stored.status,
      body: stored.html,
      etag: stored.etag,
      lastModified: stored.renderedAt,
      cacheControl,
      vary: varies,
    };
    return respond(request, page, { compress, memo: clean ? cleanMemo(stored) : stored });
  }

  function moving(status: number, url: string): Page {
    return { status, body: redirectPage(status, url), cacheControl, headers: { Location: url } };
  }

  return {
    async fetch(request) {
      const result = await answer(askOf(request));
      return result && responseOf(result);
    },
    node: toNodeHandler(answer),
    async render(location) {
      const key = routes.stateOf(location);
      const stored = await snapshot(key);
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
  };
}
