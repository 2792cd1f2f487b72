// The pure parts of one navigation's pipeline (src/client/router.ts runs it): how long it may wait,
// how many redirects it follows, when only the anchor moved, and the status it publishes.

import { stripAnchor, type AppLocation } from '../url/location.js';
import type { RouteMatch } from '../routes/types.js';
import type { Current } from './types.js';

/** How many redirects one navigation may follow before it is a loop. */
export const MAX_REDIRECTS = 10;

/** A new history entry's key: random, so that no two entries (of this page or a reloaded one) share one. */
export const newKey = () => Math.random().toString(36).slice(2);

/** Settles with `value`, or rejects as soon as `signal` aborts: a hung guard or loader never holds a navigation. */
export const until = <T>(value: T | Promise<T>, signal: AbortSignal) =>
  new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', reject);
    Promise.resolve(value).then(resolve, reject);
  });

/**
 * Whether `to` is the location `from` shows with another anchor: the same state, so no guards, no
 * load and no render. A failed state is not: it loads again.
 */
export const anchorMoved = (from: Current | null, to: AppLocation) =>
  from && from.error === undefined && from.location !== to && stripAnchor(from.location) === stripAnchor(to);

/**
 * The status a server would answer a state with, once its hooks have run: 500 when its `load`
 * failed, 404 for no match, else 200 (a redirect that led here gives its own).
 */
export const statusOf = (match: RouteMatch, failed?: boolean) => (failed ? 500 : match.notFound ? 404 : 200);
