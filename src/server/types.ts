// The public types of the snapshot handler: its options, who asks (`limitClient`), what it gives.

import type { AppLocation, UrlMode } from '../url/location.js';
import type { CleanUrls } from './urls.js';
import type { AnyRoute, RouteTable } from '../routes/types.js';
import type { InvalidateTarget } from './cache/cache.js';
import type { SnapshotStore } from './cache/store.js';
import type { MemoryStoreOptions } from './cache/memory-store.js';
import type { IsBot } from './http/bots.js';
import type { NodeHandler } from './http/node.js';
import type { QueueOptions } from './render/queue.js';
import type { SnapshotRenderer } from './render/render.js';

/**
 * Options of the snapshot cache. `maxEntries` and `maxBytes` bound the default `memoryStore`; with a
 * `store` of your own they bound what the process keeps of the snapshots it last read from it, with
 * the answers prepared from them (default 100 and 8 MiB), so that a hit is encoded and gzipped once.
 */
export interface CacheOptions extends MemoryStoreOptions {
  /** How long a snapshot is served before it is rendered again, in ms; `Infinity` until invalidated. Default 300000 (5 min). */
  ttlMs?: number | undefined;
  /** Where snapshots are kept (`fileStore(...)` or a shared store). Default `memoryStore({ maxEntries, maxBytes })`. */
  store?: SnapshotStore | undefined;
}

/** Options of `createSnapshotHandler`. */
export interface SnapshotHandlerOptions {
  /** The route table shared with the client. Required. */
  routes: RouteTable<AnyRoute>;
  /** The origin canonical links are written on (`https://example.com`); the Host header is never used. Required. */
  origin: string;
  /** The app's base path; must be the route table's. Default: the route table's base. */
  base?: string | undefined;
  /** The app's client mode: `'hashbang'` opens a headless page at its `#!` URL, and with `cleanUrls: 'shell'` names `#!` URLs in canonical links; crawlers are told clean URLs otherwise. Default `'history'`. */
  mode?: UrlMode | undefined;
  /** The app's HTML shell (its index.html), parsed once. Default: a minimal page with an empty `<div id="app">`. */
  shell?: string | undefined;
  /** A compound selector for the shell element whose content a snapshot replaces. Default `'#app'`. */
  outlet?: string | undefined;
  /** Renders states. Default: the routes' `load`/`title`/`render` hooks into the shell. */
  renderer?: SnapshotRenderer | undefined;
  /** The snapshot cache, or `false` for none (concurrent requests still share one render). Default `{}`. */
  cache?: CacheOptions | false | undefined;
  /** Longest a render (`load` included) may take before the answer is 504 and its signal aborts, in ms. Default 10000. */
  timeoutMs?: number | undefined;
  /** The render queue's bounds. Default `{ concurrency: 4, maxWaiting: 100, retryAfterSeconds: 5 }`. */
  queue?: QueueOptions | undefined;
  /** `Cache-Control` of snapshots (200, 404 and redirects). Default `'public, max-age=300'`. */
  cacheControl?: string | undefined;
  /** `Cache-Control` of the shell served at clean URLs. Default `'no-cache'` (revalidate by ETag). */
  shellCacheControl?: string | undefined;
  /** gzip answers for clients that accept it (and send `Vary: Accept-Encoding`). Default `true`. */
  compress?: boolean | undefined;
  /** Answer clean URLs inside `base` with the shell where they get it; `false` leaves those to the next handler (a redirect route still answers its move). Default `true`. */
  serveShell?: boolean | undefined;
  /**
   * A per-client limit, asked before each snapshot request waits for its state (not for one the
   * cache answers at once): return false to refuse it with 429 and `Retry-After`. Default: none.
   */
  limitClient?: ((client: SnapshotClient) => boolean | Promise<boolean>) | undefined;
  /**
   * What a clean URL inside `base` gets: `'bots'` the snapshot for bots that run no JavaScript and
   * the shell for others, with `Vary: User-Agent`; `'all'` the snapshot with the state's data for
   * everyone (server rendering; the client router hydrates); `'shell'` the shell. Default `'bots'`.
   */
  cleanUrls?: CleanUrls | undefined;
  /** Whether a `User-Agent` (null when absent) is a bot that gets snapshots at clean URLs in `'bots'` mode. Default: the `isbot` package's list. */
  isBot?: IsBot | undefined;
  /** A CSP nonce on the data script of `'all'` pages: text, one value in every answer, or a function of the request, called per answer (stored pages hold none; those answers are `private, no-store`, without ETag). Default none. */
  nonce?: string | ((request: Request) => string) | undefined;
  /**
   * The app's build: every snapshot kept is stamped with it, and one of another build (an older
   * deploy's, naming its hashed assets) is never served, from any store. Default: a hash of the
   * renderer's app (the headless renderer: of its index.html), else of `shell`.
   */
  build?: string | undefined;
  /** Told about renders that fail (500) or time out (504), and stores that fail. Default `console.error`. */
  onError?: ((error: unknown, location: AppLocation | null) => void) | undefined;
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

export type { CleanUrls } from './urls.js';

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
  /** The state's own URL (`routes.canonical` on `origin`), a 404's too; the snapshot's canonical link may name a head hook's URL instead, and a 404's snapshot has no such link. */
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
  /** The build its snapshots are stamped with (the `build` option, or its default). */
  readonly build: string;
}
