import { describe, expect, it } from 'vitest';
import { chargeMemo, ownMemo } from '../../src/server/held.js';

describe('held', () => {
  it('refuses every charge on an object that has no owner', () => {
    expect(chargeMemo({}, 0)).toBe(false);
    expect(chargeMemo({}, 10)).toBe(false);
  });

  it("passes each charge to the object's owner and gives its answer; the last owner named is the one asked", () => {
    const memo = {};
    const asked: number[] = [];
    ownMemo(memo, (bytes) => (asked.push(bytes), bytes < 5));
    expect([chargeMemo(memo, 4), chargeMemo(memo, 5)]).toEqual([true, false]);
    expect(asked).toEqual([4, 5]);
    ownMemo(memo, () => true);
    expect(chargeMemo(memo, 5)).toBe(true);
    expect(asked).toEqual([4, 5]);
  });
});
