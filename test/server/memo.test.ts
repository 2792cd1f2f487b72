import { describe, expect, it, vi } from 'vitest';
import { memoize } from '../../src/server/memo.js';

describe('memoize', () => {
  it('works a key out once, falsy results included', () => {
    const fn = vi.fn((key: string) => (key === 'no' ? false : key.length));
    const memo = memoize(fn, { max: 10, maxKeyLength: 10 });
    expect([memo('abc'), memo('abc'), memo('no'), memo('no')]).toEqual([3, 3, false, false]);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('keeps no key longer than maxKeyLength, and no throw', () => {
    let calls = 0;
    const memo = memoize(
      (key: string) => {
        calls++;
        if (key === 'bad') throw new Error('bad');
        return key;
      },
      { max: 10, maxKeyLength: 3 },
    );
    memo('long key');
    memo('long key');
    expect(calls).toBe(2);
    expect(() => memo('bad')).toThrow('bad');
    expect(() => memo('bad')).toThrow('bad');
    expect(calls).toBe(4);
  });

  it('holds at most max entries under any number of distinct keys, starting over past it', () => {
    const fn = vi.fn((key: string) => key);
    const memo = memoize(fn, { max: 100, maxKeyLength: 10 });
    for (let i = 0; i < 10_000; i++) memo(String(i));
    fn.mockClear();
    // The last round (9,900 to 9,999) is kept; what came before was let go.
    memo('9999');
    expect(fn).not.toHaveBeenCalled();
    memo('0');
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
