// The in-memory store: least recently used first out, bounded by entries and by the bytes its
// entries keep alive, the answers the handler prepares from each snapshot included (held.ts).

import type { AppLocation } from '../../url/location.js';
import { optionsOf, positiveOption } from '../errors.js';
import { ownMemo } from '../held.js';
import type { SnapshotStore, StoredSnapshot } from './store.js';

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /**
   * Most snapshots kept; the least recently used go first. Those of states that do not exist (404)
   * take at most a quarter of them, the oldest of those going first: URLs a crawler (or anyone)
   * invents never push the pages that exist out of the store. Default 1000.
   */
  maxEntries?: number | undefined;
  /**
   * Most bytes kept alive by the entries: each one's HTML and key (as the process holds the text:
   * a byte a character, two when it has one past U+00FF) and the answers prepared from it (its
   * bytes as sent and gzipped, and their headers), counted as they are made, plus 512 bytes an
   * entry and 384 an answer for the objects that hold them; the least recently used go first. A
   * snapshot larger than this is not kept; an answer that would not fit beside its snapshot is sent
   * but not kept (made again for the next request). Default 50 MiB.
   */
  maxBytes?: number | undefined;
}

/** The in-memory store, with what it holds. */
export interface MemoryStore extends SnapshotStore {
  /** The snapshot kept for a state, or undefined; marks it recently used. */
  get(key: AppLocation): StoredSnapshot | undefined;
  /** Keeps a snapshot, at once (no promise to await). */
  set(key: AppLocation, snapshot: StoredSnapshot, ttlMs: number): void;
  /** Forgets a state, at once (no promise to await). */
  delete(key: AppLocation): void;
  /** Every state kept, least recently used first. */
  keys(): AppLocation[];
  /** Snapshots held. */
  readonly size: number;
  /** Bytes held: what `maxBytes` counts (HTML, keys and the answers prepared from them), never above it. */
  readonly bytes: number;
}

/** Bytes a string takes in the process: V8 keeps a text with no character past U+00FF at a byte a character, else two. */
function textBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

/** Bytes of the objects that hold one entry (measured on Node 20: about 420), beside its text. */
export const ENTRY_BYTES = 512;

// Stores whose `get` answers at once (no promise): the cache can serve their hits without waiting.
const immediate = new WeakSet<SnapshotStore>();

/** True for a store whose `get` answers at once (a `memoryStore`). Internal. */
export const answersAtOnce = (store: SnapshotStore): boolean => immediate.has(store);

/** A least-recently-used store in memory, bounded by entries and by the bytes its entries keep alive. */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  optionsOf(options, 'memoryStore', '{ maxEntries, maxBytes }');
  const maxEntries = positiveOption(options.maxEntries, 1000, 'maxEntries');
  const maxBytes = positiveOption(options.maxBytes, 50 * 1024 * 1024, 'maxBytes');
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<AppLocation, { snapshot: StoredSnapshot; bytes: number }>();
  // The 404s among them, in the same order, and how many may be kept.
  const missing = new Set<AppLocation>();
  const maxMissing = Math.max(1, Math.floor(maxEntries / 4));
  let bytes = 0;
  const remove = (key: AppLocation) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    missing.delete(key);
    bytes -= entry.bytes;
  };
  /** Drops the least recently used entries but `keep` until `more` bytes fit (and one more entry, with `entry`). */
  const makeRoom = (more: number, keep: AppLocation, entry: boolean) => {
    for (const oldest of entries.keys()) {
      if (bytes + more <= maxBytes && (!entry || entries.size < maxEntries)) break;
      if (oldest !== keep) remove(oldest);
    }
  };
  const store: MemoryStore = {
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
      if (missing.delete(key)) missing.add(key);
      return entry.snapshot;
    },
    set(key, snapshot) {
      remove(key);
      const size = ENTRY_BYTES + textBytes(snapshot.html) + textBytes(key);
      if (size > maxBytes) return;
      // A 404 past its share makes room among the 404s alone.
      if (snapshot.status === 404)
        for (const oldest of missing) {
          if (missing.size < maxMissing) break;
          remove(oldest);
        }
      makeRoom(size, key, true);
      const entry = { snapshot, bytes: size };
      entries.set(key, entry);
      if (snapshot.status === 404) missing.add(key);
      bytes += size;
      // An answer prepared from this snapshot grows the entry while it is kept here; others make room.
      ownMemo(snapshot, (more) => {
        if (entries.get(key) !== entry || entry.bytes + more > maxBytes) return false;
        makeRoom(more, key, false);
        entry.bytes += more;
        bytes += more;
        return true;
      });
    },
    delete: remove,
    keys() {
      return [...entries.keys()];
    },
  };
  immediate.add(store);
  return store;
}
