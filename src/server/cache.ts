// Snapshots are cached by canonical state (the location without its anchor). The cache is bounded
// (entries and bytes, by the store), ages entries out after a TTL, renders a state once however
// many requests ask for it at the same time (single flight), and forgets states on `invalidate`.
// The store is pluggable so a fleet can share snapshots; the embedded default is `memoryStore`.

import type { AppLocation } from '../location.js';

/** A snapshot as a store keeps it. */
export interface StoredSnapshot {
  /** The HTTP status it is served with: 200, 404 for a state that does not exist, or a redirect's status. */
  status: number;
  /** For a redirect: the target location; the handler writes `Location` in each request's form. */
  redirect?: AppLocation;
  /** The whole HTML document. */
  html: string;
  /** A strong ETag over `html`, quoted. */
  etag: string;
  /** When it was rendered, in ms since the epoch; it is also its Last-Modified. */
  renderedAt: number;
}

/** Where snapshots are kept: the embedded `memoryStore`, `fileStore`, or a shared store of your own. */
export interface SnapshotStore {
  /** The snapshot kept for a state, or undefined. */
  get(key: AppLocation): StoredSnapshot | undefined | Promise<StoredSnapshot | undefined>;
  /** Keeps a snapshot; `ttlMs` is how long it stays fresh (Infinity: until invalidated). */
  set(key: AppLocation, snapshot: StoredSnapshot, ttlMs: number): void | Promise<void>;
  /** Forgets a state. */
  delete(key: AppLocation): void | Promise<void>;
  /** Every state kept, for `invalidate(predicate)`. */
  keys(): Iterable<AppLocation> | AsyncIterable<AppLocation>;
}

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /** Most snapshots kept; the least recently used go first. Default 1000. */
  maxEntries?: number;
  /** Most bytes kept (UTF-8 HTML plus keys); a larger snapshot is not kept at all. Default 50 MiB. */
  maxBytes?: number;
}

/** The in-memory store, with what it holds. */
export interface MemoryStore extends SnapshotStore {
  /** The snapshot kept for a state, or undefined; marks it recently used. */
  get(key: AppLocation): StoredSnapshot | undefined;
  /** Every state kept, least recently used first. */
  keys(): AppLocation[];
  /** Snapshots held. */
  readonly size: number;
  /** Bytes held. */
  readonly bytes: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new RangeError(`${name} must be a number above 0, got ${String(value)}`);
  return value;
}

/** A least-recently-used store in memory, bounded by entries and bytes. */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = positive(options.maxEntries, 1000, 'maxEntries');
  const maxBytes = positive(options.maxBytes, 50 * 1024 * 1024, 'maxBytes');
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<AppLocation, { snapshot: StoredSnapshot; bytes: number }>();
  let bytes = 0;
  const remove = (key: AppLocation) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.snapshot;
    },
    set(key, snapshot) {
      remove(key);
      const size = Buffer.byteLength(snapshot.html) + Buffer.byteLength(key);
      if (size > maxBytes) return;
      for (const oldest of entries.keys()) {
        if (entries.size < maxEntries && bytes + size <= maxBytes) break;
        remove(oldest);
      }
      entries.set(key, { snapshot, bytes: size });
      bytes += size;
    },
    delete: remove,
    keys() {
      return [...entries.keys()];
    },
  };
}

/** What `invalidate` forgets: one state, or every state a predicate accepts. */
export type InvalidateTarget = AppLocation | ((location: AppLocation) => boolean);

/** Options of the cache in front of the renderer. */
export interface SnapshotCacheOptions {
  /** Where snapshots live; `null` keeps none (single flight still holds). */
  store: SnapshotStore | null;
  /** How long a snapshot stays fresh, in ms. */
  ttlMs: number;
  /** Told about a store that fails; the request goes on as a miss. */
  onError: (error: unknown) => void;
  /** The clock, for tests. */
  now?: () => number;
}

/** The cache: `get` renders on a miss, once per state at a time. */
export interface SnapshotCache {
  /** The fresh snapshot of `key`, from the store or from `produce` (shared by concurrent callers). */
  get(key: AppLocation, produce: () => Promise<StoredSnapshot>): Promise<StoredSnapshot>;
  /** Forgets states; a render in flight for one of them is not kept when it lands. */
  invalidate(target: InvalidateTarget): Promise<void>;
}

/** Builds the cache over a store. */
export function createSnapshotCache(options: SnapshotCacheOptions): SnapshotCache {
  const { store, ttlMs, onError } = options;
  const now = options.now ?? Date.now;
  const inflight = new Map<AppLocation, { promise: Promise<StoredSnapshot>; stale: boolean }>();

  async function lookup(key: AppLocation): Promise<StoredSnapshot | undefined> {
    if (!store) return undefined;
    try {
      const found = await store.get(key);
      if (found && found.renderedAt + ttlMs > now()) return found;
      if (found) await store.delete(key);
    } catch (error) {
      onError(error);
    }
    return undefined;
  }

  async function fill(key: AppLocation, produce: () => Promise<StoredSnapshot>, flight: { stale: boolean }): Promise<StoredSnapshot> {
    const cached = await lookup(key);
    if (cached) return cached;
    const snapshot = await produce();
    if (store && !flight.stale) {
      try {
        await store.set(key, snapshot, ttlMs);
      } catch (error) {
        onError(error);
      }
    }
    return snapshot;
  }

  return {
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
      if (!store) return;
      if (typeof target !== 'function') return void (await store.delete(target));
      const doomed: AppLocation[] = [];
      for await (const key of store.keys()) if (matches(key)) doomed.push(key);
      for (const key of doomed) await store.delete(key);
    },
  };
}
