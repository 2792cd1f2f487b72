// What a route's `load` throws to say how a state ends other than "here is its data": the item
// does not exist (`notFound()`), or the state moved (`redirect(to, status)`). The client router,
// the hooks renderer and (through the client router) the headless renderer all read them the same
// way, so a missing item is a 404 and a moved one a redirect in every renderer, never a 200 page.

import { DEV } from '../env/dev.js';
import { normalizeLocation, type AppLocation } from '../url/location.js';

/** The statuses a redirect may carry. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

// Shared by every copy of the package loaded in one realm (an ESM and a CJS build side by side).
const BRAND = Symbol.for('crawlable-router.outcome');

/** Thrown by `load` when the state's item does not exist: the table's notFound view, status 404. */
export interface NotFoundOutcome {
  /** What this outcome is. */
  readonly kind: 'notFound';
  /** Always 404. */
  readonly status: 404;
}

/** Thrown by `load` when the state moved: the router replaces the entry, the server answers `status` with `Location`. */
export interface RedirectOutcome {
  /** What this outcome is. */
  readonly kind: 'redirect';
  /** The HTTP status: 301, 302 (the default), 303, 307 or 308. */
  readonly status: RedirectStatus;
  /** The target, a location inside the app (relative to its base; never another origin). */
  readonly to: AppLocation;
}

/** An outcome a `load` may throw. */
export type Outcome = NotFoundOutcome | RedirectOutcome;

/** The value a `load` throws when its item does not exist: `throw notFound()`. */
export function notFound(): NotFoundOutcome {
  return { [BRAND]: true, kind: 'notFound', status: 404 } as NotFoundOutcome;
}

/**
 * The value a `load` throws when its state moved: `throw redirect('/books/42', 301)`. `to` is a
 * location of this app; an absolute URL or `//host` is read as a path inside the app, so a
 * redirect can never leave the origin. Throws a TypeError for a status that is not a redirect.
 */
export function redirect(to: AppLocation, status: RedirectStatus = 302): RedirectOutcome {
  if (![301, 302, 303, 307, 308].includes(status))
    throw new TypeError(
      DEV ? `redirect: ${String(status)} is not a redirect status (301, 302, 303, 307 or 308)` : `redirect status ${String(status)}`,
    );
  return redirectOutcome(to, status);
}

/** `redirect` of a status known to be one (a redirect route's 301): no check for an app to bundle. Internal. */
export function redirectOutcome(to: AppLocation, status: RedirectStatus): RedirectOutcome {
  return { [BRAND]: true, kind: 'redirect', status, to: normalizeLocation(String(to)) } as RedirectOutcome;
}

/** The outcome `thrown` is, or null when it is any other error. Internal to the package. */
export function outcomeOf(thrown: unknown): Outcome | null {
  return typeof thrown === 'object' && thrown !== null && (thrown as { [BRAND]?: unknown })[BRAND] === true ? (thrown as Outcome) : null;
}
