// Snapshots are cached by canonical state (the location without its anchor). The cache is bounded
// (entries and bytes, by the store), ages entries out after a TTL, renders a state once however
// many requests ask for it at the same time (single flight), and forgets states on `invalidate`.
// The store is pluggable so a fleet can share snapshots; the embedded default is `memoryStore`.
// A store that can `lock` a state (redisStore) makes single flight hold across every process that
// shares it: one process renders, the others poll the store with backoff until the snapshot lands,
// the lock is gone (its holder failed or died: one of them takes over) or their own time is up.
// A store that fails is a miss: the state is rendered here, and `onError` hears of it once per
// outage (the first failure while nothing of the store failed), not once per request.

import type { AppLocation } from '../../url/location.js';
import { SnapshotError } from '../errors.js';
import { answersAtOnce, memoryStore, type MemoryStoreOptions } from './memory-store.js';
import type { SnapshotLock, SnapshotStore, StoredSnapshot } from './store.js';

/** What `invalidate` forgets: one state, or every state a predicate accepts. */
export type InvalidateTarget = AppLocation | ((location: AppLocation) => boolean);

/** Options of the cache in front of the renderer. */
export interface SnapshotCacheOptions {
  /** Where snapshots live; `null` keeps none (single flight still holds). */
  store: SnapshotStore | null;
  /** How long a snapshot stays fresh, in ms. */
  ttlMs: number;
  /** The build this process serves: a snapshot of another (an older deploy's) is a miss, never served. Default none: snapshots stamped with none. */
  build?: string;
  /** Told about a store that fails, once per outage; the request goes on as a miss. */
  onError: (error: unknown) => void;
  /** With a locking store: longest a request waits for another process's render, in ms. Default Infinity. */
  waitMs?: number;
  /** With a locking store: how long a lock outlives its holder's last renewal, in ms (renewed every third of it while the render runs). Default 10000. */
  lockTtlMs?: number;
  /**
   * With a store of other processes (not a `memoryStore`): the bounds of what this process keeps of
   * the snapshots it last read from it, so that the answers prepared from one (its bytes as sent and
   * gzipped) serve every request while the store gives back the same snapshot. Default: none kept.
   */
  recent?: MemoryStoreOptions;
  /** The clock of snapshot ages, for tests. */
  now?: () => number;
  /** Whether a rendered snapshot is private to the request it was made for (it read `request`): never kept. Default: none is. */
  isPrivate?: (snapshot: StoredSnapshot) => boolean;
  /**
   * Whether a route of the table renders the state (a redirect route's never does). A store's 200
   * for one no route renders is another state's page: a file two spellings share (fileStore keeps
   * `/a/` as a/index.html, which `/a` names too). It is a miss, and stays in the store for its own
   * state. Default: every state has one.
   */
  isRouted?: (key: AppLocation) => boolean;
}

/** Whether two snapshots read from a store are one: the same answer comes of each. */
function sameSnapshot(a: StoredSnapshot, b: StoredSnapshot): boolean {
  return (
    a.html === b.html &&
    a.etag === b.etag &&
    a.renderedAt === b.renderedAt &&
    a.status === b.status &&
    a.redirect === b.redirect &&
    a.build === b.build
  );
}

/** Renders a snapshot (its turn in the queue, then the render). */
export type Produce = () => Promise<StoredSnapshot>;

/** The cache: `get` renders on a miss, once per state at a time. */
export interface SnapshotCache {
  /** The fresh snapshot of `key`, from the store or from `produce` (shared by concurrent callers). */
  get(key: AppLocation, produce: Produce): Promise<StoredSnapshot>;
  /** The fresh snapshot of `key` when the store answers at once (`memoryStore`) and has it; else undefined (ask `get`). */
  peek(key: AppLocation): StoredSnapshot | undefined;
  /** The fresh snapshot of `key` that the store holds, else undefined: never renders, never waits for a render or a lock. */
  find(key: AppLocation): Promise<StoredSnapshot | undefined>;
  /** Forgets states; a render in flight for one of them is not kept when it lands. */
  invalidate(target: InvalidateTarget): Promise<void>;
}

// Polls for another process's render start at 5 ms and double up to 100 ms: a fast render is
// picked up within a few ms, a slow one costs the store at most 10 reads a second per process.
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the cache over a store. */
export function createSnapshotCache(options: SnapshotCacheOptions): SnapshotCache {
  const { store, ttlMs, build, onError, waitMs = Infinity, lockTtlMs = 10_000, isPrivate = () => false, isRouted } = options;
  const now = options.now ?? Date.now;
  // Served: a snapshot of this build, still fresh. One of another build names another deploy's
  // hashed assets (a page whose scripts 404); it is a miss, rendered again and kept over.
  const servable = (found: StoredSnapshot | undefined): found is StoredSnapshot =>
    !!found && found.build === build && found.renderedAt + ttlMs > now();
  const inflight = new Map<AppLocation, { promise: Promise<StoredSnapshot>; stale: boolean }>();
  // What of the store fails now: its reads, its writes (set, delete, lock). An outage starts when
  // one fails while none did, and ends when each that failed has worked again: a store that reads
  // but refuses writes (a read-only replica, a Redis past maxmemory) is one outage, not one per
  // request whose read worked in between.
  const failing = new Set<'read' | 'write'>();
  const fault = (kind: 'read' | 'write', error: unknown) => {
    if (failing.size === 0) onError(error);
    failing.add(kind);
  };
  const quietly = (work: () => Promise<void>) =>
    work().then(
      () => void failing.delete('write'),
      (error: unknown) => fault('write', error),
    );
  // A shared store gives a new object at each read, and the handler keeps what it prepares for a
  // snapshot on its object (http/respond.ts): a copy of each snapshot last read is kept here, in a
  // memory store that counts those answers too, and handed out again for as long as the store gives
  // back the same snapshot. A copy (its text shared), so that nothing is kept on an object the store
  // may hold past these bounds. The store stays the one that says what is fresh.
  const recent = store && options.recent && !answersAtOnce(store) ? memoryStore(options.recent) : null;
  const remember = (key: AppLocation, found: StoredSnapshot): StoredSnapshot => {
    if (!recent) return found;
    const seen = recent.get(key);
    if (seen && sameSnapshot(seen, found)) return seen;
    const copy = { ...found };
    recent.set(key, copy, ttlMs);
    return copy;
  };

  async function lookup(key: AppLocation): Promise<StoredSnapshot | undefined> {
    if (!store) return undefined;
    let found: StoredSnapshot | undefined;
    const seen = recent?.get(key);
    try {
      // What this process read, while the store still holds it, is not read again whole: a HEAD
      // of a kept 2 MiB snapshot read 2 MiB from Redis and decoded it (13.7 ms of CPU) each time.
      found = seen && store.holds && (await store.holds(key, seen)) ? seen : await store.get(key);
      failing.delete('read');
    } catch (error) {
      fault('read', error);
      return undefined;
    }
    if (servable(found)) return found.status === 200 && isRouted?.(key) === false ? undefined : remember(key, found);
    recent?.delete(key);
    // Stale here (this clock may run ahead of the one that set its expiry), or another build's:
    // forgotten, but if another process found it first, forgot it and is rendering the state, its
    // lock stays (`expire`).
    if (found) await quietly(async () => (store.expire ? store.expire(key, found) : store.delete(key)));
    return undefined;
  }

  async function keep(key: AppLocation, snapshot: StoredSnapshot, flight: { stale: boolean }): Promise<StoredSnapshot> {
    if (!store || flight.stale || isPrivate(snapshot)) return snapshot;
    await quietly(async () => store.set(key, snapshot, ttlMs));
    return remember(key, snapshot);
  }

  async function holding(key: AppLocation, lock: SnapshotLock, produce: Produce, flight: { stale: boolean }): Promise<StoredSnapshot> {
    let snapshot: StoredSnapshot;
    // The lock is kept alive for as long as this process renders (waiting its turn in the queue, then
    // rendering): it lapses lockTtlMs after the holder's last sign of life, so a holder that died (a
    // deploy's kill, an OOM) is taken over by a waiter within lockTtlMs, not after the render's whole
    // timeout, when every request that waited for it had given up with a 504.
    const alive = setInterval(() => void quietly(() => lock.extend(lockTtlMs)), Math.min(lockTtlMs / 3, 60_000));
    try {
      snapshot = await produce();
    } catch (error) {
      void quietly(() => lock.release());
      throw error;
    } finally {
      clearInterval(alive);
    }
    // A private render (it read its request) is kept nowhere: the lock goes, the next asker renders its own.
    const kept = !flight.stale && !isPrivate(snapshot);
    await quietly(() => (kept ? lock.commit(snapshot, ttlMs) : lock.release()));
    return kept ? remember(key, snapshot) : snapshot;
  }

  async function fill(key: AppLocation, produce: Produce, flight: { stale: boolean }): Promise<StoredSnapshot> {
    const cached = await lookup(key);
    if (cached) return cached;
    if (!store?.lock) return keep(key, await produce(), flight);
    const deadline = Date.now() + waitMs;
    for (let delay = FIRST_POLL_MS; ; delay = Math.min(2 * delay, MAX_POLL_MS)) {
      let lock: SnapshotLock | null;
      try {
        lock = await store.lock(key, lockTtlMs);
        failing.delete('write');
      } catch (error) {
        // No lock to be had: render here, as a process with no fleet would.
        fault('write', error);
        return keep(key, await produce(), flight);
      }
      if (lock) return holding(key, lock, produce, flight);
      // Held, or kept since our miss: look before waiting.
      const found = await lookup(key);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new SnapshotError('TIMEOUT', `rendering ${key} in another process took longer than ${waitMs} ms`);
      await sleep(Math.min(delay, left));
    }
  }

  return {
    peek(key) {
      if (!store || !answersAtOnce(store)) return undefined;
      const found = store.get(key) as StoredSnapshot | undefined;
      return servable(found) ? found : undefined;
    },
    find: lookup,
    get(key, produce) {
      const running = inflight.get(key);
      if (running) return running.promise;
      const flight = { promise: null as unknown as Promise<StoredSnapshot>, stale: false };
      flight.promise = fill(key, produce, flight).finally(() => {
        if (inflight.get(key) === flight) inflight.delete(key);
      });
      inflight.set(key, flight);
      return flight.promise;
    },
    async invalidate(target) {
      const matches = typeof target === 'function' ? target : (key: AppLocation) => key === target;
      for (const [key, flight] of inflight) {
        if (!matches(key)) continue;
        flight.stale = true;
        inflight.delete(key);
      }
      // What this process kept goes first: a request meanwhile finds the store's answer, not ours.
      if (recent) for (const key of recent.keys()) if (matches(key)) recent.delete(key);
      if (!store) return;
      if (typeof target !== 'function') return void (await store.delete(target));
      const doomed: AppLocation[] = [];
      for await (const key of store.keys()) if (matches(key)) doomed.push(key);
      // 100 at a time: a shared store answers them in one round trip (node-redis pipelines them).
      for (let i = 0; i < doomed.length; i += 100) await Promise.all(doomed.slice(i, i + 100).map(async (key) => store.delete(key)));
    },
  };
}
