import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkShard, inShard, shardOf } from '../../../src/server/build/shard.js';

describe('shardOf', () => {
  it('puts each location in one slice, whatever else is rendered, spread evenly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (text, total) => {
        const slice = shardOf('/' + text, total);
        expect(Number.isInteger(slice) && slice >= 1 && slice <= total).toBe(true);
        expect(shardOf('/' + text, total)).toBe(slice);
      }),
      { seed: 15 },
    );
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[shardOf(`/items/${i}`, 4) - 1]!++;
    for (const count of counts) expect(Math.abs(count - 2500)).toBeLessThan(250);
    // Pinned: a state's slice never changes between versions, or shards of one site would overlap.
    expect([shardOf('/', 4), shardOf('/items/1', 4), shardOf('/q/café', 7)]).toEqual([3, 3, 6]);
  });
});

describe('inShard', () => {
  it('puts every state in the one shard of an unsharded run, and each in exactly one slice of a sharded run', () => {
    const states = Array.from({ length: 50 }, (_, i) => `/items/${i}`);
    expect(states.every((state) => inShard(state, { current: 1, total: 1 }))).toBe(true);
    for (const state of states) expect([1, 2, 3].filter((current) => inShard(state, { current, total: 3 }))).toEqual([shardOf(state, 3)]);
  });
});

describe('checkShard', () => {
  it('gives every state (1 of 1) when not given, and refuses what is not 1 <= current <= total in whole numbers', () => {
    expect(checkShard(undefined)).toEqual({ current: 1, total: 1 });
    expect(checkShard({ current: 2, total: 3 })).toEqual({ current: 2, total: 3 });
    for (const shard of [
      { current: 0, total: 2 },
      { current: 3, total: 2 },
      { current: 1.5, total: 2 },
      { current: 1, total: 0 },
    ])
      expect(() => checkShard(shard)).toThrow(
        expect.objectContaining({ code: 'BAD_OPTION', message: expect.stringContaining('shard must be') }),
      );
  });
});
