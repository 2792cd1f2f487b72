// A site too large for one prerender job is split across N jobs with `shard`: each renders the
// states whose location hashes to its slice (FNV-1a of the UTF-8 location, so a state's job depends
// on nothing else: stable across runs, orders and machines).

import type { AppLocation } from '../../url/location.js';
import { SnapshotError } from '../errors.js';

/** Slice `current` of `total`, 1-based. */
export interface Shard {
  current: number;
  total: number;
}

/** The slice (1 to `total`) a location falls in: FNV-1a over its UTF-8 bytes. */
export function shardOf(location: AppLocation, total: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(location)) hash = Math.imul(hash ^ byte, 0x01000193);
  return ((hash >>> 0) % total) + 1;
}

/** Whether a state is rendered by the job of `shard`. */
export const inShard = (state: AppLocation, shard: Shard): boolean => shard.total === 1 || shardOf(state, shard.total) === shard.current;

/** The `shard` option checked: every state (1 of 1) when not given; BAD_OPTION unless whole numbers with 1 <= current <= total. */
export function checkShard(shard: Shard | undefined): Shard {
  if (shard === undefined) return { current: 1, total: 1 };
  const { current, total } = shard;
  if (!Number.isInteger(total) || total < 1 || !Number.isInteger(current) || current < 1 || current > total) {
    throw new SnapshotError(
      'BAD_OPTION',
      `shard must be { current, total } with 1 <= current <= total, whole numbers; got ${JSON.stringify(shard)}`,
    );
  }
  return shard;
}
