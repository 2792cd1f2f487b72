// The URL adapters, one per mode: how a location is read from the address bar and written back.
// They differ only in the URL form (clean or `#!`, docs/scheme.md "Words"); the
// navigation core in router.ts never asks which one it has. Writing goes through `createWriter`.

import { hasEscapedFragment, normalizeLocation, toLocation, toUrl, type AppLocation, type UrlMode } from '../location.js';
import type { RouterWindow } from './types.js';

/** A location read from the address bar, and whether the URL is already in the adapter's form. */
export interface Reading {
  loc: AppLocation;
  ok: boolean;
}

/** Reads and writes one URL form. */
export interface Adapter {
  /** Reads any form of `href`; `shown` is the location shown now. Null outside `base` or for a malformed ugly URL. */
  read(href: string, shown: AppLocation | null): Reading | null;
  /** The URL of a location in this form. */
  url(loc: AppLocation): string;
}

/** The page part of a URL or location: everything before its first `#`. */
export const pathOf = (text: string) => text.split('#', 1)[0] as string;

/** The location any form of `href` names; null outside `base` or for a malformed `_escaped_fragment_`, no state of ours. */
export function safeRead(href: string, base: string): AppLocation | null {
  try {
    return toLocation(href, { base });
  } catch {
    return null;
  }
}

/**
 * The adapter of a mode. In history mode a `#!` or `_escaped_fragment_` URL names the same state
 * but is in the wrong form; in hashbang mode any URL without `#!` is.
 */
export function createAdapter(mode: UrlMode, base: string): Adapter {
  const hashbang = mode === 'hashbang';
  return {
    url: (loc) => toUrl(loc, { base, mode }),
    read(href, shown) {
      const hash = href.indexOf('#');
      // In a `#!` app a plain `#anchor` (no `!`) is an anchor on the state shown now, never a state
      // of its own (docs/scheme.md, "Reading the text after `#!`").
      const loc =
        hashbang && shown !== null && hash >= 0 && href.charCodeAt(hash + 1) !== 33
          ? normalizeLocation(pathOf(shown) + href.slice(hash))
          : safeRead(href, base);
      // A URL that reads is ugly when it has the parameter (else toLocation throws), and pretty when
      // it has `#!`: hashbang's form is pretty, history's neither.
      return loc === null ? null : { loc, ok: /^[^#]*#!/.test(href) === hashbang && !hasEscapedFragment(href) };
    },
  };
}

/** What the router keeps in `history.state` for each entry it made or adopted. */
export interface Entry {
  /** Unique per entry: tells an entry from another with the same URL, and keys saved scroll positions. */
  key: string;
  /** The entry's position relative to the first one the router saw, to undo a back/forward by `go(-delta)`. */
  idx: number;
  /** The `state` given to `navigate`. */
  state?: unknown;
}

/** The entry the browser is on, if the router stamped it. */
export function readEntry(win: RouterWindow): Entry | null {
  const s = win.history.state as Partial<Entry> | null;
  return s && typeof s.key === 'string' && typeof s.idx === 'number' ? (s as Entry) : null;
}

/** True where `history.pushState` exists and works (it throws in sandboxed and opaque-origin documents). */
export function hasHistoryApi(win: RouterWindow): boolean {
  try {
    const h = win.history;
    h.replaceState(h.state, '', win.location.href);
    return typeof h.pushState === 'function';
  } catch {
    return false;
  }
}

/** Writes a URL (origin-relative, inside `base`) and its entry: pushState/replaceState, else `location`. */
export function createWriter(win: RouterWindow, api: boolean) {
  return (url: string, entry: Entry, replace: boolean): void => {
    if (api) {
      try {
        win.history[replace ? 'replaceState' : 'pushState'](entry, '', url);
        return;
      } catch {
        // Safari throws past 100 pushState calls in 30 s; loading the URL keeps the state reachable.
      }
    }
    // Without pushState a `#!` URL on the same page changes only the fragment: no reload.
    win.location[replace ? 'replace' : 'assign'](url);
  };
}
