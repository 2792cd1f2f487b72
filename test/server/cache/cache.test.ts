import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  createSnapshotCache,
  ENTRY_BYTES as E,
  memoryStore,
  type SnapshotLock,
  type SnapshotStore,
  type StoredSnapshot,
} from '../../../src/server/cache/cache.js';
import { chargeMemo } from '../../../src/server/held.js';

const snap = (html: string, renderedAt = 0): StoredSnapshot => ({ status: 200, html, etag: `"${html.length}"`, renderedAt });

describe('memoryStore', () => {
  it('drops the least recently used entry past maxEntries', () => {
    const store = memoryStore({ maxEntries: 2 });
    store.set('/a', snap('a'), 1);
    store.set('/b', snap('b'), 1);
    store.get('/a');
    store.set('/c', snap('c'), 1);
    expect([...store.keys()]).toEqual(['/a', '/c']);
    expect(store.get('/b')).toBeUndefined();
  });

  it('counts the HTML and key as the process holds them, with its objects, and drops old entries past maxBytes', () => {
    const store = memoryStore({ maxBytes: 3 * E });
    store.set('/a', snap('é'.repeat(8)), 1); // 8 + 2 bytes: a byte a character up to U+00FF
    expect(store.bytes).toBe(E + 10);
    store.set('/b', snap('x—x'), 1); // 6 + 2 bytes: two a character once one is past U+00FF
    expect(store.bytes).toBe(2 * E + 18);
    store.set('/c', snap('y'.repeat(E - 20)), 1); // /a goes
    expect([...store.keys()]).toEqual(['/b', '/c']);
    expect(store.bytes).toBe(3 * E - 20 + 2 + 8);
  });

  it('keeps nothing larger than maxBytes, and replacing a key frees its old bytes', () => {
    const store = memoryStore({ maxBytes: E + 10 });
    store.set('/a', snap('12345678'), 1);
    store.set('/big', snap('x'.repeat(7)), 1);
    expect(store.get('/big')).toBeUndefined();
    expect(store.size).toBe(1);
    store.set('/a', snap('1'), 1);
    expect(store.bytes).toBe(E + 3);
    store.delete('/a');
    expect(store.bytes).toBe(0);
  });

  it('grows an entry by the answers prepared from its snapshot, dropping the least recently used others to make room', () => {
    const store = memoryStore({ maxBytes: 3 * E + 40 });
    const [a, b, c] = [snap('12345678'), snap('abcdefgh'), snap('ABCDEFGH')];
    store.set('/a', a, 1);
    store.set('/b', b, 1);
    store.set('/c', c, 1);
    store.get('/a'); // least recently used first: /b, /c, /a
    expect(chargeMemo(a, E + 5)).toBe(true);
    expect(store.keys()).toEqual(['/c', '/a']);
    expect(store.bytes).toBe(3 * E + 25);
    expect(chargeMemo(c, 15)).toBe(true);
    expect(store.bytes).toBe(3 * E + 40);
    expect(store.keys()).toEqual(['/c', '/a']);
    expect(chargeMemo(c, 1)).toBe(true); // /a goes, though /c was used less recently: /c is the one growing
    expect(store.keys()).toEqual(['/c']);
    expect(store.bytes).toBe(E + 26);
  });

  it('refuses an answer that cannot fit beside its own snapshot, dropping nothing: it is sent, not kept', () => {
    const store = memoryStore({ maxBytes: 2 * E + 20 });
    const [a, b] = [snap('12345678'), snap('abcdefgh')];
    store.set('/a', a, 1);
    store.set('/b', b, 1);
    expect(chargeMemo(b, E + 11)).toBe(false);
    expect(store.keys()).toEqual(['/a', '/b']);
    expect(store.bytes).toBe(2 * E + 20);
    expect(chargeMemo(b, E + 10)).toBe(true);
    expect(store.keys()).toEqual(['/b']);
    expect(store.bytes).toBe(2 * E + 20);
  });

  it('counts nothing more for a snapshot it no longer holds (dropped, deleted or replaced), and frees what it counted', () => {
    const store = memoryStore({ maxEntries: 1 });
    const [a, b, c] = [snap('a'), snap('b'), snap('c')];
    store.set('/a', a, 1);
    expect(chargeMemo(a, 100)).toBe(true);
    expect(store.bytes).toBe(E + 103);
    store.set('/b', b, 1);
    expect(chargeMemo(a, 1)).toBe(false);
    expect(store.bytes).toBe(E + 3);
    store.set('/b', c, 1);
    expect(chargeMemo(b, 1)).toBe(false);
    store.delete('/b');
    expect(chargeMemo(c, 1)).toBe(false);
    expect(store.bytes).toBe(0);
  });

  it('holds maxBytes and least-recently-used order whatever answers grow its entries (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.nat(9), size: fc.nat(60) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.nat(9) }),
      fc.record({ kind: fc.constant('grow' as const), key: fc.nat(9), size: fc.nat(80) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const maxBytes = 2 * E + 100;
        const store = memoryStore({ maxBytes, maxEntries: 5 });
        const snapshots = new Map<string, StoredSnapshot>();
        // The model: keys least recently used first, with each one's bytes.
        let model: [string, number][] = [];
        const drop = (key: string) => (model = model.filter(([k]) => k !== key));
        const total = () => model.reduce((n, [, b]) => n + b, 0);
        for (const o of ops) {
          const key = `/${o.key}`;
          if (o.kind === 'set') {
            const s = snap('x'.repeat(o.size));
            snapshots.set(key, s);
            store.set(key, s, 1);
            drop(key);
            const size = E + o.size + key.length;
            while (model.length >= 5 || total() + size > maxBytes) model.shift();
            model.push([key, size]);
          } else if (o.kind === 'get') {
            const found = model.find(([k]) => k === key);
            expect(store.get(key)).toBe(found ? snapshots.get(key) : undefined);
            if (found) model = [...model.filter(([k]) => k !== key), found];
          } else {
            const s = snapshots.get(key);
            if (!s) continue;
            const found = model.find(([k]) => k === key);
            // Answers up to E + 80 bytes: some cannot fit beside their entry.
            const more = o.size * 8;
            const fits = found !== undefined && found[1] + more <= maxBytes;
            expect(chargeMemo(s, more)).toBe(fits);
            if (!fits || !found) continue;
            found[1] += more;
            while (total() > maxBytes)
              model.splice(
                model.findIndex(([k]) => k !== key),
                1,
              );
          }
          expect(store.keys()).toEqual(model.map(([k]) => k));
          expect(store.bytes).toBe(total());
          expect(store.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it.each([0, -1, NaN])('refuses maxEntries %s with a BAD_OPTION SnapshotError, as every option check does', (maxEntries) => {
    expect(() => memoryStore({ maxEntries })).toThrow(/maxEntries must be a number above 0/);
    expect(() => memoryStore({ maxEntries })).toThrow(expect.objectContaining({ name: 'SnapshotError', code: 'BAD_OPTION' }));
  });

  it('holds its bounds under 10,000 distinct states of any size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: E + 100, max: 20 * E }),
        fc.array(fc.nat(300), { minLength: 10_000, maxLength: 10_000 }),
        (maxEntries, maxBytes, sizes) => {
          const store = memoryStore({ maxEntries, maxBytes });
          let worst = { size: 0, bytes: 0 };
          sizes.forEach((size, i) => {
            store.set(`/s/${i}`, snap('x'.repeat(size)), 1);
            worst = { size: Math.max(worst.size, store.size), bytes: Math.max(worst.bytes, store.bytes) };
          });
          expect(worst.size).toBeLessThanOrEqual(maxEntries);
          expect(worst.bytes).toBeLessThanOrEqual(maxBytes);
          const held = [...store.keys()].reduce((sum, key) => sum + E + key.length + (store.get(key)?.html.length ?? 0), 0);
          expect(held).toBe(store.bytes);
        },
      ),
      { seed: 10, numRuns: 5 },
    );
  });
});

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

  it('takes over when the holder dies: its lock expires after lockTtlMs', async () => {
    const store = lockingStore();
    await store.lock?.('/a', 150); // a process that took the lock and died
    const [cache] = fleet(store, 1, { lockTtlMs: 150 });
    const started = Date.now();
    expect((await cache!.get('/a', async () => snap('mine', Date.now()))).html).toBe('mine');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('waits no longer than waitMs for another cache’s render', async () => {
    const store = lockingStore();
    await store.lock?.('/a', 10_000);
    const [cache] = fleet(store, 1, { waitMs: 200 });
    const started = Date.now();
    await expect(cache!.get('/a', async () => snap('never'))).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'rendering /a in another process took longer than 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('extends the lock when the render starts, so a long wait in the queue does not lose it', async () => {
    const store = lockingStore();
    // Wide margins (a lock of 1 s, a render ending 1.3 s after it was taken) for a busy machine.
    const [cache] = fleet(store, 1, { lockTtlMs: 1000 });
    const done = cache!.get('/a', async (started) => {
      await later(600, snap('queued'));
      started();
      await later(700, snap('rendering'));
      expect(store.locks.get('/a')?.until).toBeGreaterThan(Date.now());
      return snap('rendered', Date.now());
    });
    expect((await done).html).toBe('rendered');
    expect(store.locks.size).toBe(0);
    expect((await store.get('/a'))?.html).toBe('rendered');
  });

  it('keeps the lock alive while the render waits its turn, so no other cache renders it meanwhile', async () => {
    const store = lockingStore();
    const [a, b] = fleet(store, 2, { lockTtlMs: 800 }) as [ReturnType<typeof createSnapshotCache>, ReturnType<typeof createSnapshotCache>];
    const produce = vi.fn(async (started: () => void) => {
      await later(2000, snap('queued'));
      started();
      return snap('once', Date.now());
    });
    const first = a.get('/a', produce);
    await later(20, snap('x'));
    const second = b.get('/a', produce);
    expect([(await first).html, (await second).html]).toEqual(['once', 'once']);
    expect(produce).toHaveBeenCalledTimes(1);
  });

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
