import { describe, expect, it, vi } from 'vitest';
import { createSnapshotCache } from '../../../src/server/cache/cache.js';
import type { SnapshotLock, SnapshotStore, StoredSnapshot } from '../../../src/server/cache/store.js';
import { memoryStore } from '../../../src/server/cache/memory-store.js';
import { chargeMemo } from '../../../src/server/held.js';

const snap = (html: string, renderedAt = 0): StoredSnapshot => ({ status: 200, html, etag: `"${html.length}"`, renderedAt });

describe('createSnapshotCache', () => {
  const make = (store: SnapshotStore | null = memoryStore(), ttlMs = 1000) => {
    let now = 0;
    const onError = vi.fn();
    const cache = createSnapshotCache({ store, ttlMs, onError, now: () => now });
    return { cache, onError, tick: (ms: number) => (now += ms), at: () => now };
  };

  it('peeks at a fresh snapshot of a memory store without waiting, and at nothing stale or behind a promise', async () => {
    const { cache, tick } = make(memoryStore(), 1000);
    expect(cache.peek('/a')).toBeUndefined();
    const stored = await cache.get('/a', async () => snap('a'));
    expect(cache.peek('/a')).toBe(stored);
    tick(1000);
    expect(cache.peek('/a')).toBeUndefined();
    // A store that answers with promises is only read through get (its reads are shared there).
    const kept = new Map<string, StoredSnapshot>();
    const get = vi.fn(async (key: string) => kept.get(key));
    const slow = make({ get, set: async (k, v) => void kept.set(k, v), delete: async (k) => void kept.delete(k), keys: () => kept.keys() });
    await slow.cache.get('/a', async () => snap('a'));
    get.mockClear();
    expect(slow.cache.peek('/a')).toBeUndefined();
    expect(get).not.toHaveBeenCalled();
  });

  it('finds what any store holds, fresh, and never joins a render in flight or takes a lock', async () => {
    // What a render's own request gets (nested.ts): the stored snapshot, else nothing at once.
    const kept = new Map<string, StoredSnapshot>();
    const lock = vi.fn(async (): Promise<SnapshotLock | null> => null);
    const store: SnapshotStore = {
      get: async (key) => kept.get(key),
      set: async (k, v) => void kept.set(k, v),
      delete: async (k) => void kept.delete(k),
      keys: () => kept.keys(),
      lock,
    };
    const { cache, tick } = make(store, 1000);
    expect(await cache.find('/a')).toBeUndefined();
    kept.set('/a', snap('a'));
    expect(await cache.find('/a')).toEqual(snap('a'));
    tick(1000);
    expect(await cache.find('/a')).toBeUndefined();
    let release!: () => void;
    const inflight = cache.get('/b', () => new Promise<StoredSnapshot>((resolve) => (release = () => resolve(snap('b', 1000)))));
    lock.mockImplementationOnce(async () => ({
      extend: async () => {},
      commit: async (s: StoredSnapshot) => void kept.set('/b', s),
      release: async () => {},
    }));
    for (let turn = 0; turn < 100 && !release; turn++) await new Promise((r) => setTimeout(r, 1));
    lock.mockClear();
    expect(await cache.find('/b')).toBeUndefined();
    expect(lock).not.toHaveBeenCalled();
    release();
    await inflight;
    expect(await cache.find('/b')).toEqual(snap('b', 1000));
  });

  it('renders once for concurrent requests of one state (single flight)', async () => {
    const { cache } = make();
    let release!: () => void;
    const produce = vi.fn(() => new Promise<StoredSnapshot>((resolve) => (release = () => resolve(snap('a')))));
    const all = Array.from({ length: 50 }, () => cache.get('/a', produce));
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    release();
    const results = await Promise.all(all);
    expect(produce).toHaveBeenCalledTimes(1);
    expect(new Set(results).size).toBe(1);
    await cache.get('/a', produce);
    expect(produce).toHaveBeenCalledTimes(1);
  });

  it('shares a render without a store too, and renders again afterwards', async () => {
    const { cache } = make(null);
    const produce = vi.fn(async () => snap('a'));
    await Promise.all([cache.get('/a', produce), cache.get('/a', produce)]);
    await cache.get('/a', produce);
    expect(produce).toHaveBeenCalledTimes(2);
  });

  it('renders again once the TTL has passed', async () => {
    const { cache, tick, at } = make(memoryStore(), 1000);
    const produce = vi.fn(async () => snap('a', at()));
    await cache.get('/a', produce);
    tick(999);
    await cache.get('/a', produce);
    expect(produce).toHaveBeenCalledTimes(1);
    tick(1);
    await cache.get('/a', produce);
    expect(produce).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure: the next request renders again', async () => {
    const { cache } = make();
    const produce = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValue(snap('a'));
    await expect(cache.get('/a', produce)).rejects.toThrow('boom');
    await expect(cache.get('/a', produce)).resolves.toMatchObject({ html: 'a' });
  });

  it('invalidates one state or every state a predicate accepts', async () => {
    const store = memoryStore();
    const { cache } = make(store);
    for (const key of ['/books/1', '/books/2', '/authors/1']) await cache.get(key, async () => snap(key));
    await cache.invalidate('/books/1');
    expect([...store.keys()]).toEqual(['/books/2', '/authors/1']);
    await cache.invalidate((key) => key.startsWith('/authors/'));
    expect([...store.keys()]).toEqual(['/books/2']);
  });

  it('does not keep a render that was in flight when its state was invalidated', async () => {
    const store = memoryStore();
    const { cache } = make(store);
    let release!: (s: StoredSnapshot) => void;
    const first = cache.get('/a', () => new Promise((resolve) => (release = resolve)));
    await new Promise((r) => setTimeout(r, 0));
    await cache.invalidate('/a');
    const second = cache.get('/a', async () => snap('new'));
    release(snap('old'));
    expect((await first).html).toBe('old');
    expect((await second).html).toBe('new');
    expect(store.get('/a')?.html).toBe('new');
  });

  it('serves what a shared store holds without rendering', async () => {
    const shared = memoryStore();
    shared.set('/a', snap('from the fleet', 0), 1000);
    const { cache } = make(shared);
    const produce = vi.fn(async () => snap('local'));
    expect((await cache.get('/a', produce)).html).toBe('from the fleet');
    expect(produce).not.toHaveBeenCalled();
  });

  describe('over a store of other processes, with `recent`', () => {
    /** A store as Redis is one: each read gives a new object, decoded from what it holds. */
    const remote = () => {
      const kept = new Map<string, string>();
      const store: SnapshotStore = {
        get: async (key) => (kept.has(key) ? (JSON.parse(kept.get(key)!) as StoredSnapshot) : undefined),
        set: async (key, value) => void kept.set(key, JSON.stringify(value)),
        delete: async (key) => void kept.delete(key),
        keys: () => kept.keys(),
      };
      return { store, kept };
    };
    const withRecent = (store: SnapshotStore, recent = { maxEntries: 10, maxBytes: 1_000_000 }) => {
      let now = 0;
      const cache = createSnapshotCache({ store, ttlMs: 1000, onError: vi.fn(), recent, now: () => now });
      return { cache, tick: (ms: number) => (now += ms) };
    };

    it('hands out one object for a snapshot while the store gives back the same one, so what is prepared on it is kept', async () => {
      const { store } = remote();
      const { cache } = withRecent(store);
      const first = await cache.get('/a', async () => snap('a'));
      const again = await cache.get('/a', async () => snap('never'));
      expect(again).toBe(first);
      expect(await cache.get('/a', async () => snap('never'))).toBe(first);
      // Its owner counts what the handler keeps on it (held.ts); a snapshot read from the store without `recent` has none.
      expect(chargeMemo(first, 100)).toBe(true);
      const bare = createSnapshotCache({ store, ttlMs: 1000, onError: vi.fn(), now: () => 0 });
      const read = await bare.get('/a', async () => snap('never'));
      expect(read).toEqual(first);
      expect(read).not.toBe(await bare.get('/a', async () => snap('never')));
      expect(chargeMemo(read, 100)).toBe(false);
    });

    it('hands out what the store holds now once it changes, and nothing kept once the state is invalidated or gone', async () => {
      const { store, kept } = remote();
      const { cache } = withRecent(store);
      const first = await cache.get('/a', async () => snap('a'));
      // Another process rendered it again: the store's snapshot is the one served.
      await store.set('/a', snap('b', 5), 1000);
      const second = await cache.get('/a', async () => snap('never'));
      expect([second.html, second.renderedAt, second === first]).toEqual(['b', 5, false]);
      expect(await cache.get('/a', async () => snap('never'))).toBe(second);
      // Same text, another render time: another snapshot (its Last-Modified differs).
      await store.set('/a', snap('b', 6), 1000);
      expect((await cache.get('/a', async () => snap('never'))).renderedAt).toBe(6);
      await cache.invalidate((key) => key === '/a');
      expect(kept.size).toBe(0);
      expect((await cache.get('/a', async () => snap('c'))).html).toBe('c');
      // Gone from the store (another process invalidated it): rendered here again.
      kept.clear();
      expect((await cache.get('/a', async () => snap('d'))).html).toBe('d');
    });

    it('keeps its own copy, never marking the object a store of this process holds', async () => {
      const held = new Map<string, StoredSnapshot>();
      const store: SnapshotStore = {
        get: async (key) => held.get(key),
        set: async (key, value) => void held.set(key, value),
        delete: async (key) => void held.delete(key),
        keys: () => held.keys(),
      };
      const { cache } = withRecent(store);
      const served = await cache.get('/a', async () => snap('a'));
      expect(served).not.toBe(held.get('/a'));
      expect(chargeMemo(held.get('/a')!, 100)).toBe(false);
      expect(await cache.get('/a', async () => snap('never'))).toBe(served);
    });

    it('keeps no more than its bounds: past maxEntries the least recently read goes, and nothing past maxBytes', async () => {
      const { store } = remote();
      const { cache } = withRecent(store, { maxEntries: 2, maxBytes: 1_000_000 });
      const a = await cache.get('/a', async () => snap('a'));
      await cache.get('/b', async () => snap('b'));
      expect(await cache.get('/a', async () => snap('never'))).toBe(a);
      const c = await cache.get('/c', async () => snap('c'));
      // '/b' was the least recently read: it went, '/a' stayed.
      expect(await cache.get('/a', async () => snap('never'))).toBe(a);
      const b = await cache.get('/b', async () => snap('never'));
      expect(await cache.get('/b', async () => snap('never'))).toBe(b);
      // Reading '/b' again took the place of '/c', the least recently read by then.
      expect(await cache.get('/c', async () => snap('never'))).not.toBe(c);
      // A snapshot larger than maxBytes is served, never kept.
      const small = withRecent(store, { maxEntries: 10, maxBytes: 600 }).cache;
      const big = await small.get('/big', async () => snap('x'.repeat(1000)));
      expect(await small.get('/big', async () => snap('never'))).not.toBe(big);
    });
  });

  it('treats a failing store as a miss and reports it once per outage, not once per request', async () => {
    let up = false;
    const failing = () => (up ? undefined : Promise.reject(new Error('store down')));
    const flaky: SnapshotStore = { get: failing, set: failing, delete: () => undefined, keys: () => [] };
    const { cache, onError } = make(flaky);
    for (let i = 0; i < 5; i++) await expect(cache.get(`/a/${i}`, async () => snap('a'))).resolves.toMatchObject({ html: 'a' });
    expect(onError).toHaveBeenCalledTimes(1);
    up = true;
    await cache.get('/b', async () => snap('b'));
    up = false;
    await cache.get('/c', async () => snap('c'));
    await cache.get('/d', async () => snap('d'));
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('walks an async store for predicate invalidation', async () => {
    const deleted: string[] = [];
    const store: SnapshotStore = {
      get: () => undefined,
      set: () => undefined,
      delete: (key) => void deleted.push(key),
      async *keys() {
        yield* ['/a/1', '/b/1', '/a/2'];
      },
    };
    await make(store).cache.invalidate((key) => key.startsWith('/a/'));
    expect(deleted).toEqual(['/a/1', '/a/2']);
  });
});

/** A store with locks, shared by several caches as by the processes of a fleet (in memory, real clock). */
function lockingStore() {
  const entries = memoryStore();
  const locks = new Map<string, { token: number; until: number }>();
  let tokens = 0;
  const holds = (key: string, token: number) => {
    const held = locks.get(key);
    return held !== undefined && held.token === token && held.until > Date.now();
  };
  const store: SnapshotStore & { locks: typeof locks } = {
    locks,
    get: (key) => entries.get(key),
    set: (key, snapshot, ttl) => entries.set(key, snapshot, ttl),
    delete: (key) => {
      entries.delete(key);
      locks.delete(key);
    },
    keys: () => entries.keys(),
    async lock(key, ttlMs): Promise<SnapshotLock | null> {
      const held = locks.get(key);
      if ((held && held.until > Date.now()) || entries.get(key)) return null;
      const token = ++tokens;
      locks.set(key, { token, until: Date.now() + ttlMs });
      return {
        extend: async (ms) => void (holds(key, token) && locks.set(key, { token, until: Date.now() + ms })),
        release: async () => void (holds(key, token) && locks.delete(key)),
        commit: async (snapshot, ms) => {
          if (!holds(key, token)) return;
          entries.set(key, snapshot, ms);
          locks.delete(key);
        },
      };
    },
  };
  return store;
}

describe('createSnapshotCache over a store with locks (a fleet)', () => {
  const fleet = (store: SnapshotStore, count: number, options: { waitMs?: number; lockTtlMs?: number } = {}) =>
    Array.from({ length: count }, () => createSnapshotCache({ store, ttlMs: 60_000, onError: vi.fn(), ...options }));
  const later = (ms: number, value: StoredSnapshot) => new Promise<StoredSnapshot>((resolve) => setTimeout(resolve, ms, value));

  it('renders a state once for concurrent requests in every cache, and each gets it', async () => {
    const caches = fleet(lockingStore(), 3);
    const produce = vi.fn(() => later(30, snap('once', Date.now())));
    const results = await Promise.all(caches.flatMap((cache) => Array.from({ length: 10 }, () => cache.get('/a', produce))));
    expect(produce).toHaveBeenCalledTimes(1);
    expect(new Set(results.map((r) => r.html))).toEqual(new Set(['once']));
  });

  it('takes over when the holder fails: a waiter renders it', async () => {
    const [a, b] = fleet(lockingStore(), 2) as [ReturnType<typeof createSnapshotCache>, ReturnType<typeof createSnapshotCache>];
    const failing = a.get('/a', () => later(20, snap('x')).then(() => Promise.reject(new Error('boom'))));
    const waiting = b.get('/a', async () => snap('taken over', Date.now()));
    await expect(failing).rejects.toThrow('boom');
    expect((await waiting).html).toBe('taken over');
  });

  it('keeps no private render (one that read its request): the lock goes, the next process renders its own', async () => {
    const store = lockingStore();
    const mine = new WeakSet<StoredSnapshot>();
    const [a, b] = Array.from({ length: 2 }, () =>
      createSnapshotCache({ store, ttlMs: 60_000, onError: vi.fn(), isPrivate: (s) => mine.has(s) }),
    ) as [ReturnType<typeof createSnapshotCache>, ReturnType<typeof createSnapshotCache>];
    const personal = (html: string) => async () => {
      const made = snap(html, Date.now());
      mine.add(made);
      return later(20, made);
    };
    const [first, second] = await Promise.all([a.get('/me', personal('ann')), b.get('/me', personal('bob'))]);
    expect([first.html, second.html]).toEqual(['ann', 'bob']);
    expect([...(store.keys() as Iterable<string>)]).toEqual([]);
    expect(store.locks.size).toBe(0);
    // Without a lock, the same: nothing kept.
    const plain = createSnapshotCache({ store: memoryStore(), ttlMs: 60_000, onError: vi.fn(), isPrivate: (s) => mine.has(s) });
    await plain.get('/me', personal('cy'));
    expect(plain.peek('/me')).toBeUndefined();
  });

  // These three run on vitest's fake clock (Date.now and the timers the cache polls and renews
  // with): what they prove is where on the clock the cache acts (after lockTtlMs, at waitMs, renewing
  // within lockTtlMs), and a busy machine that delays a real timer would move each of those points.
  const clock = async <T>(body: () => Promise<T>): Promise<T> => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      return await body();
    } finally {
      vi.useRealTimers();
    }
  };

  it('takes over when the holder dies: its lock expires after lockTtlMs', () =>
    clock(async () => {
      const store = lockingStore();
      const lock = store.lock!.bind(store);
      const asked: number[] = [];
      store.lock = (key, ttl) => (asked.push(Date.now()), lock(key, ttl));
      const start = Date.now();
      await lock('/a', 150); // a process that took the lock and died
      const [cache] = fleet(store, 1, { lockTtlMs: 150 });
      let taken = -1;
      const got = cache!.get('/a', async () => ((taken = Date.now() - start), snap('mine', Date.now())));
      await vi.advanceTimersByTimeAsync(149);
      expect(taken).toBe(-1); // still held: no takeover before lockTtlMs
      await vi.advanceTimersByTimeAsync(200);
      expect(taken).not.toBe(-1);
      expect((await got).html).toBe('mine');
      // Taken on the first poll past 150 ms (polls 5 ms apart, doubling), after 5 refused asks.
      expect(taken).toBeGreaterThanOrEqual(150);
      expect(taken).toBeLessThan(150 + 100);
      expect(asked.length).toBe(6);
    }));

  it('waits no longer than waitMs for another cache’s render', () =>
    clock(async () => {
      const store = lockingStore();
      await store.lock?.('/a', 10_000);
      const lock = store.lock!.bind(store);
      let asks = 0;
      store.lock = (key, ttl) => (asks++, lock(key, ttl));
      const [cache] = fleet(store, 1, { waitMs: 200 });
      const produce = vi.fn(async () => snap('never'));
      let settled = false;
      const got = cache!.get('/a', produce).finally(() => (settled = true));
      got.catch(() => {});
      await vi.advanceTimersByTimeAsync(199);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      await expect(got).rejects.toMatchObject({
        code: 'TIMEOUT',
        message: 'rendering /a in another process took longer than 200 ms',
      });
      // Asked at 0, 5, 15, 35, 75, 155 and 200 ms: the backoff, not a busy loop, and no render here.
      expect(asks).toBe(7);
      expect(produce).not.toHaveBeenCalled();
    }));

  it('keeps the lock alive for as long as the render runs, so a render past lockTtlMs is not done twice', () =>
    clock(async () => {
      const store = lockingStore();
      // A lock of 300 ms; the render (its wait in the queue and its work) lasts 1.2 s: a live holder,
      // never taken for a dead one.
      const [a, b] = fleet(store, 2, { lockTtlMs: 300 }) as [
        ReturnType<typeof createSnapshotCache>,
        ReturnType<typeof createSnapshotCache>,
      ];
      const produce = vi.fn(() => later(1200, snap('once', Date.now())));
      const first = a.get('/a', produce);
      await vi.advanceTimersByTimeAsync(50);
      const second = b.get('/a', produce);
      // Long enough for a second render too, had b taken the lock for a dead holder's.
      await vi.advanceTimersByTimeAsync(3000);
      expect([(await first).html, (await second).html]).toEqual(['once', 'once']);
      expect(produce).toHaveBeenCalledTimes(1);
      expect(store.locks.size).toBe(0);
      expect((await store.get('/a'))?.html).toBe('once');
    }));

  it.each([
    ['a store without locks', false],
    ['a store with locks', true],
  ])(
    'reports once, not once per request, a store that reads but refuses every write (a read-only replica, a full Redis): %s',
    async (_, locks) => {
      const onError = vi.fn();
      let refusing = true;
      const write = () => (refusing ? Promise.reject(new Error('READONLY You cannot write against a read only replica.')) : undefined);
      const entries = memoryStore();
      const store: SnapshotStore = {
        get: async (key) => entries.get(key),
        set: async (key, snapshot, ttl) => {
          await write();
          entries.set(key, snapshot, ttl);
        },
        delete: write,
        keys: () => [],
        ...(locks && {
          lock: async () => {
            await write();
            return { extend: async () => {}, release: async () => {}, commit: async () => {} };
          },
        }),
      };
      const cache = createSnapshotCache({ store, ttlMs: 60_000, onError });
      for (let i = 0; i < 5; i++) expect((await cache.get(`/a/${i}`, async () => snap(`a${i}`))).html).toBe(`a${i}`);
      expect(onError).toHaveBeenCalledTimes(1);
      // Writes work again, then fail again: a second outage, heard once more.
      refusing = false;
      await cache.get('/b', async () => snap('b'));
      refusing = true;
      for (const key of ['/c', '/d']) await cache.get(key, async () => snap(key));
      expect(onError).toHaveBeenCalledTimes(2);
    },
  );

  it('renders here when the store cannot lock, and reports it once', async () => {
    const onError = vi.fn();
    const down = () => Promise.reject(new Error('redis down'));
    const store: SnapshotStore = { get: down, set: down, delete: down, keys: () => [], lock: down };
    const cache = createSnapshotCache({ store, ttlMs: 1000, onError });
    for (const key of ['/a', '/b', '/c']) expect((await cache.get(key, async () => snap(key))).html).toBe(key);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
