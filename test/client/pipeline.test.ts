import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/index.js';
import { anchorMoved, MAX_REDIRECTS, newKey, statusOf, until } from '../../src/client/pipeline.js';
import type { Current } from '../../src/client/types.js';
import type { AnyRoute, RouteMatch } from '../../src/index.js';

const routes = createRoutes([{ path: '/books/:id' }], { base: '/app/' });
const match = (location: string) => routes.resolve(location, {}) as RouteMatch<AnyRoute>;
const shown = (location: string, error?: unknown): Current => ({
  ...match(location),
  state: undefined,
  data: undefined,
  ...(error === undefined ? {} : { error }),
});

describe('the pipeline’s pure steps', () => {
  it('follows ten redirects before it calls a navigation a loop', () => {
    expect(MAX_REDIRECTS).toBe(10);
  });

  it('gives each entry a key of its own', () => {
    const keys = new Set(Array.from({ length: 1000 }, newKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^[0-9a-z]+$/);
  });

  it('settles with the value, or rejects with the abort as soon as the signal aborts', async () => {
    const live = new AbortController();
    await expect(until(Promise.resolve(7), live.signal)).resolves.toBe(7);
    await expect(until('now', live.signal)).resolves.toBe('now');
    await expect(until(Promise.reject(new Error('down')), live.signal)).rejects.toThrow('down');
    const ended = new AbortController();
    const never = until(new Promise(() => {}), ended.signal);
    ended.abort();
    await expect(never).rejects.toHaveProperty('type', 'abort');
  });

  it('takes another anchor of the state shown, and nothing else, for an anchor-only move', () => {
    expect(anchorMoved(shown('/books/1'), '/books/1#reviews')).toBe(true);
    expect(anchorMoved(shown('/books/1#reviews'), '/books/1')).toBe(true);
    expect(anchorMoved(shown('/books/1#reviews'), '/books/1#reviews')).toBe(false);
    expect(anchorMoved(shown('/books/1'), '/books/2#reviews')).toBe(false);
    expect(anchorMoved(null, '/books/1#reviews')).toBeFalsy();
    // A failed state loads again.
    expect(anchorMoved(shown('/books/1', new Error('down')), '/books/1#reviews')).toBe(false);
  });

  it('gives the status a server answers: 500 for a failed load, 404 for no match, else 200', () => {
    const found = match('/books/1');
    const missing = match('/nowhere');
    expect([statusOf(found), statusOf(missing), statusOf(found, true), statusOf(missing, true)]).toEqual([200, 404, 500, 500]);
  });
});
