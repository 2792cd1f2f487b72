import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredSnapshot } from '../../../src/server/cache/store.js';
import { ENTRY_BYTES as E, memoryStore } from '../../../src/server/cache/memory-store.js';
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

  it('keeps 404s in a quarter of maxEntries, the oldest going first: invented URLs never push out pages that exist', () => {
    const store = memoryStore({ maxEntries: 8 });
    for (let i = 0; i < 6; i++) store.set(`/page/${i}`, snap(`page ${i}`), 1);
    for (let i = 0; i < 100; i++) store.set(`/invented/${i}`, { ...snap('not found'), status: 404 }, 1);
    expect([...store.keys()]).toEqual([...Array.from({ length: 6 }, (_, i) => `/page/${i}`), '/invented/98', '/invented/99']);
    // A 404 asked for again is used as any entry is: the older one goes first.
    store.get('/invented/98');
    store.set('/invented/100', { ...snap('not found'), status: 404 }, 1);
    expect([...store.keys()].slice(6)).toEqual(['/invented/98', '/invented/100']);
    // A page that exists still takes the least recently used entry, whichever it is.
    store.set('/page/6', snap('page 6'), 1);
    expect(store.size).toBe(8);
    expect(store.get('/page/0')).toBeUndefined();
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

  it.each([0, -1, NaN, '1000'])('refuses maxEntries %s with a BAD_OPTION SnapshotError, as every option check does', (given) => {
    // Text (an environment variable's '1000') is refused, not coerced, as by every numeric option of the server.
    const maxEntries = given as number;
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
