import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createSnapshotCache, memoryStore, type SnapshotStore, type StoredSnapshot } from '../../src/server/cache.js';

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

  it('counts UTF-8 bytes of the HTML and key, and drops old entries past maxBytes', () => {
    const store = memoryStore({ maxBytes: 20 });
    store.set('/a', snap('é'.repeat(4)), 1); // 8 + 2 bytes
    expect(store.bytes).toBe(10);
    store.set('/b', snap('xxxxxxxx'), 1); // 10 bytes
    expect(store.bytes).toBe(20);
    store.set('/c', snap('y'), 1); // 3 bytes: /a goes
    expect([...store.keys()]).toEqual(['/b', '/c']);
    expect(store.bytes).toBe(13);
  });

  it('keeps nothing larger than maxBytes, and replacing a key frees its old bytes', () => {
    const store = memoryStore({ maxBytes: 10 });
    store.set('/a', snap('12345678'), 1);
    store.set('/big', snap('x'.repeat(11)), 1);
    expect(store.get('/big')).toBeUndefined();
    expect(store.size).toBe(1);
    store.set('/a', snap('1'), 1);
    expect(store.bytes).toBe(3);
    store.delete('/a');
    expect(store.bytes).toBe(0);
  });

  it.each([0, -1, NaN])('refuses maxEntries %s', (maxEntries) => {
    expect(() => memoryStore({ maxEntries })).toThrow(/maxEntries must be a number above 0/);
  });

  it('holds its bounds under 10,000 distinct states of any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 100, max: 5000 }), fc.array(fc.nat(300), { minLength: 10_000, maxLength: 10_000 }), (maxEntries, maxBytes, sizes) => {
        const store = memoryStore({ maxEntries, maxBytes });
        let worst = { size: 0, bytes: 0 };
        sizes.forEach((size, i) => {
          store.set(`/s/${i}`, snap('x'.repeat(size)), 1);
          worst = { size: Math.max(worst.size, store.size), bytes: Math.max(worst.bytes, store.bytes) };
        });
        expect(worst.size).toBeLessThanOrEqual(maxEntries);
        expect(worst.bytes).toBeLessThanOrEqual(maxBytes);
        const held = [...store.keys()].reduce((sum, key) => sum + key.length + (store.get(key)?.html.length ?? 0), 0);
        expect(held).toBe(store.bytes);
      }),
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

  it('treats a failing store as a miss and reports it', async () => {
    const broken: SnapshotStore = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
      delete: () => undefined,
      keys: () => [],
    };
    const { cache, onError } = make(broken);
    await expect(cache.get('/a', async () => snap('a'))).resolves.toMatchObject({ html: 'a' });
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
