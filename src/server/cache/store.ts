// What a snapshot store is: the snapshot it keeps, the calls every store answers (memoryStore,
// fileStore, redisStore, one of your own), and the render lock a store shared by processes may give.

import type { AppLocation } from '../../url/location.js';

/** A snapshot as a store keeps it. */
export interface StoredSnapshot {
  /** The HTTP status it is served with: 200, 404 for a state that does not exist, or a redirect's status. */
  status: number;
  /** For a redirect: the target location; the handler writes `Location` in each request's form. */
  redirect?: AppLocation | undefined;
  /** The whole HTML document. */
  html: string;
  /** A strong ETag over `html`, quoted. */
  etag: string;
  /** When it was rendered, in ms since the epoch; it is also its Last-Modified. */
  renderedAt: number;
  /** The build it was rendered for (the handler's `build`): a snapshot of another build, or of none, is never served. */
  build?: string | undefined;
}

/** Where snapshots are kept: the embedded `memoryStore`, `fileStore`, or a shared store of your own. */
export interface SnapshotStore {
  /** Optional: the build every snapshot of the store belongs to (a prerendered folder's); a handler of another build refuses the store at start. */
  readonly build?: string | undefined;
  /** The snapshot kept for a state, or undefined. */
  get(key: AppLocation): StoredSnapshot | undefined | Promise<StoredSnapshot | undefined>;
  /** Keeps a snapshot; `ttlMs` is how long it stays fresh (Infinity: until invalidated). */
  set(key: AppLocation, snapshot: StoredSnapshot, ttlMs: number): void | Promise<void>;
  /** Forgets a state. */
  delete(key: AppLocation): void | Promise<void>;
  /** Every state kept, for `invalidate(predicate)`. */
  keys(): Iterable<AppLocation> | AsyncIterable<AppLocation>;
  /**
   * Optional, for a store of other processes: true when the snapshot kept for a state is still
   * `snapshot` (one this process read from it), told without reading it whole. The cache asks it
   * before `get` for a snapshot it already holds, so a request for a kept state does not read a
   * large snapshot again from the store.
   */
  holds?: ((key: AppLocation, snapshot: StoredSnapshot) => Promise<boolean>) | undefined;
  /**
   * Optional, for a store with `lock`: forgets the snapshot kept for a state if it is still
   * `snapshot` (one the cache found stale), and leaves the state's render lock to its holder. Without
   * it the cache calls `delete`, which also takes the lock: with another process's render of the state
   * under way, that lets a second process render it too.
   */
  expire?: ((key: AppLocation, snapshot: StoredSnapshot) => Promise<void>) | undefined;
  /** Optional, for a store shared by several processes: the render lock of a state for `ttlMs`; null while another holder has it or a snapshot of it is kept (checked in the same atomic step). */
  lock?: ((key: AppLocation, ttlMs: number) => Promise<SnapshotLock | null>) | undefined;
}

/** The render lock of one state, held by one process of those that share a store. */
export interface SnapshotLock {
  /** Holds the lock `ttlMs` longer (the render starts after its turn in the queue). */
  extend(ttlMs: number): Promise<void>;
  /** Keeps the snapshot for `ttlMs` and lets go; keeps nothing if the lock was lost meanwhile (invalidated or expired). */
  commit(snapshot: StoredSnapshot, ttlMs: number): Promise<void>;
  /** Lets go, keeping nothing (the render failed). */
  release(): Promise<void>;
}
