// Where a request's snapshot comes from: the cache at once when it holds the state (no waiter, no
// signal: a hit costs a lookup), else a render shared by every request waiting for the state, run
// in the bounded queue under the time limit. A request whose client goes stops waiting; the render
// is aborted when the last one has gone (flights.ts). `limitClient` is asked before a request waits.

import { normalizeLocation, stripAnchor, toUrl, type AppLocation, type UrlMode } from '../../url/location.js';
import type { RouteTable } from '../../routes/types.js';
import type { SnapshotCache } from '../cache/cache.js';
import type { StoredSnapshot } from '../cache/store.js';
import { MAX_CAUSE, printable, thrownText } from '../printable.js';
import { SnapshotError } from '../errors.js';
import { etagOf } from '../http/respond.js';
import type { Ask } from '../http/exchange.js';
import { publicUrl, type UrlSettings } from '../urls.js';
import type { SnapshotClient } from '../types.js';
import { createFlights, isAbandoned } from './flights.js';
import { isFor, isPrivate, privateTo, renderFor } from './request.js';
import type { RenderQueue } from './queue.js';
import type { HooksRenderer, RenderJob, SnapshotRenderer } from './render.js';

/** What a snapshot source needs. */
export interface SourceOptions {
  routes: RouteTable;
  settings: UrlSettings;
  /** The app's client mode, in which a state's page is opened (`RenderJob.url`). */
  appMode: UrlMode;
  /** The build each snapshot is stamped with. */
  build: string;
  renderer: SnapshotRenderer;
  /** The route-hooks renderer over the handler's shell, which each job hands on (`RenderJob.hooks`). */
  hooks: HooksRenderer;
  cache: SnapshotCache;
  queue: RenderQueue;
  timeoutMs: number;
  hydrate: RenderJob['hydrate'];
  limitClient: ((client: SnapshotClient) => boolean | Promise<boolean>) | undefined;
}

/** The snapshots of states. */
export interface SnapshotSource {
  /** The cached snapshot of a state when it is at hand (memory), without waiting; else undefined. */
  cached(key: AppLocation): StoredSnapshot | undefined;
  /** The snapshot of a state that the cache holds (any store), else undefined: never rendered, never waited for. */
  stored(key: AppLocation): Promise<StoredSnapshot | undefined>;
  /** The snapshot of a state for a request: refused (LIMITED) when `limitClient` says so, its wait counted per address, left when its client goes. */
  forRequest(request: Ask, key: AppLocation): Promise<StoredSnapshot>;
  /** The snapshot of a state, through the cache and the queue. */
  get(key: AppLocation): Promise<StoredSnapshot>;
}

/**
 * Runs `task` with a signal that aborts at `ms` (TIMEOUT) or when `outer` aborts (its reason); either
 * rejects at once, and hands the task's own promise, still running, to `overran`.
 */
function withTimeout<T>(
  ms: number,
  location: AppLocation,
  outer: AbortSignal,
  overran: (work: Promise<unknown>) => void,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
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
  const work = Promise.resolve().then(() => task(controller.signal));
  let done = false;
  work.then(
    () => void (done = true),
    () => void (done = true),
  );
  return Promise.race([work, limit]).finally(() => {
    clearTimeout(timer);
    stop();
    if (!done) overran(work);
  });
}

// States remembered as private (their renders read the request), per handler.
const MAX_PERSONAL = 1000;

// A render's work still running this many times its timeoutMs past it is taken for work that never
// ends, and no longer counted against the queue (render/queue.ts).
const FORGET_OVERRUN = 10;

/** Builds the snapshot source of a handler. */
export function createSnapshotSource(options: SourceOptions): SnapshotSource {
  const { routes, settings, appMode, build, renderer, hooks, cache, queue, timeoutMs, hydrate, limitClient } = options;

  /** Renders a state, for `ask` (the request whose hooks may read it) or for none. */
  async function produce(location: AppLocation, abandoned: AbortSignal, ask: Ask | undefined): Promise<StoredSnapshot> {
    const match = routes.resolve(location);
    const notFound = !match || match.notFound;
    const who = renderFor(ask, settings.origin);
    try {
      const result = await withTimeout(
        timeoutMs,
        location,
        abandoned,
        (work) => queue.overran(work, FORGET_OVERRUN * timeoutMs),
        (signal) => {
          const job: RenderJob = {
            location,
            url: toUrl(location, { ...settings, mode: appMode }),
            canonical: publicUrl((match && routes.canonical(match)) ?? location, settings),
            match,
            notFound,
            settings,
            signal,
            hydrate,
            get request() {
              return who.read();
            },
            hooks: (outlet) => hooks.render(job, outlet),
          };
          return renderer.render(job);
        },
      ).finally(who.end);
      const status = result.status ?? (notFound ? 404 : 200);
      // A failure (an app that showed its error view) is a 500 like a throw: never cached, never its page.
      if (status >= 500)
        throw new SnapshotError(
          'RENDER_FAILED',
          `rendering ${location} gave status ${status}` + (result.error ? `: ${printable(result.error, MAX_CAUSE)}` : ''),
        );
      const target = result.redirect === undefined ? undefined : stripAnchor(normalizeLocation(result.redirect));
      // A redirect to the state itself is a loop (the client router gives up after 10 hops: a page
      // that lands on it says 500): a failure, where a cached 302 would send crawlers round for ever.
      // Its state, not its spelling: a query key the route does not keep is asked for by this very key.
      if (target !== undefined && routes.stateOf(target) === location)
        throw new SnapshotError('RENDER_FAILED', `rendering ${location} redirects to itself`);
      const redirect = target === undefined ? {} : { redirect: target };
      const snapshot = { status, html: result.html, etag: etagOf(result.html), renderedAt: Date.now(), build, ...redirect };
      if (who.used) privateTo(snapshot, ask);
      return snapshot;
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      // The app's own error (its message may quote a visitor's params): printable in the message, whole as the cause.
      throw new SnapshotError('RENDER_FAILED', `rendering ${location} failed: ${printable(thrownText(error), MAX_CAUSE)}`, {
        cause: error,
      });
    }
  }

  // A render goes on while one request still waits for it; when the last has gone it is aborted.
  const flights = createFlights<StoredSnapshot>();
  const waiting = new Map<string | null, number>();

  // The render of a state: its turn in the queue, then the render (for the request that started it).
  const render = (location: AppLocation, abandoned: AbortSignal, ask?: Ask) => () =>
    queue.run(() => produce(location, abandoned, ask), abandoned);

  async function fill(location: AppLocation, abandoned: AbortSignal, ask?: Ask): Promise<StoredSnapshot> {
    try {
      return await cache.get(location, render(location, abandoned, ask));
    } catch (error) {
      // The cache was still sharing a render abandoned a moment ago: this flight starts its own.
      if (!isAbandoned(error) || abandoned.aborted) throw error;
      return cache.get(location, render(location, abandoned, ask));
    }
  }

  const get = (location: AppLocation, signal?: AbortSignal, ask?: Ask) =>
    flights.join(location, (abandoned) => fill(location, abandoned, ask), signal);

  // States whose last render read its request: each request renders its own, past the cache and
  // every other request's render. Bounded (the oldest forgotten first): a state forgotten is only
  // tried through the cache once more, and one that renders public again leaves the list.
  const personal = new Set<AppLocation>();
  const learn = (key: AppLocation, snapshot: StoredSnapshot) => {
    personal.delete(key);
    if (!isPrivate(snapshot)) return;
    personal.add(key);
    if (personal.size > MAX_PERSONAL) personal.delete(personal.values().next().value as AppLocation);
  };
  /** A render of its own for one request: its turn in the queue, no cache, no sharing. */
  const own = async (key: AppLocation, ask: Ask) => {
    const signal = ask.signal ?? new AbortController().signal;
    const snapshot = await queue.run(() => produce(key, signal, ask), signal);
    learn(key, snapshot);
    return snapshot;
  };

  return {
    cached: (key) => cache.peek(key),
    stored: (key) => cache.find(key),
    get: (key) => get(key),
    async forRequest(request, key) {
      const address = request.address ?? null;
      const count = waiting.get(address) ?? 0;
      if (limitClient && !(await limitClient({ address, header: (name) => request.header(name), location: key, waiting: count }))) {
        throw new SnapshotError('LIMITED', `the client at ${address ?? 'an unknown address'} may not ask for more snapshots now`);
      }
      waiting.set(address, (waiting.get(address) ?? 0) + 1);
      try {
        if (personal.has(key)) return await own(key, request);
        const snapshot = await get(key, request.signal, request);
        learn(key, snapshot);
        // Another request's private render is not this one's: it renders its own.
        return isFor(snapshot, request) ? snapshot : await own(key, request);
      } finally {
        const left = (waiting.get(address) ?? 1) - 1;
        if (left > 0) waiting.set(address, left);
        else waiting.delete(address);
      }
    },
  };
}
