// The URL adapters, one per mode: how a location is read from the address bar and written back.
// They differ only in the URL form (clean or `#!`, docs/scheme.md "Words"); the
// navigation core in router.ts never asks which one it has. Writing goes through `createWriter`.

import { hasEscapedFragment, type UglyState } from '../url/codec.js';
import { normalizeLocation, readLocation, splitLocation, stripAnchor, urlOf, type AppLocation, type UrlMode } from '../url/location.js';
import type { RouterSignal, RouterWindow } from './dom.js';
import { FRAGMENT_API, NO_API, PATH_API, type Api } from './steps.js';

/** A location read from the address bar, and whether the URL is already in the adapter's form. */
export interface Reading {
  loc: AppLocation;
  ok: boolean;
}

/** Reads and writes one URL form. */
export interface Adapter {
  /** Reads any form of `href`; `shown` is the location shown now, if any. Null outside `base` or for a malformed ugly URL. */
  read(href: string, shown?: AppLocation | null): Reading | null;
  /** The URL of a location (in canonical spelling, as the router keeps them) in this form. */
  url(loc: AppLocation): string;
}

/**
 * The adapter of a mode. In history mode a `#!` or `_escaped_fragment_` URL names the same state
 * but is in the wrong form; in hashbang mode any URL without `#!` is. An ugly URL's state is read by
 * `ugly` (the codec's uglyState; the lite client's reads none). With a `page` (a document whose path
 * may not change: file://, a sandboxed frame) the state lives in that page's fragment alone: URLs
 * are the page plus `#!`, and a URL of another page is none of the app's.
 */
export function createAdapter(mode: UrlMode, base: string, ugly: (url: string) => UglyState | null, page = ''): Adapter {
  const hashbang = mode === 'hashbang';
  return {
    // urlOf writes the location after the page it is given: the pinned page's in place of `base`.
    url: (loc) => urlOf(loc, page || base, hashbang),
    read(href, shown) {
      if (page) {
        if (stripAnchor(href) !== page) return null;
        href = base + href.slice(page.length);
      }
      const anchor = splitLocation(href)[2];
      // Whether the URL has a `#!` fragment: its first `#` followed by `!`.
      const bang = anchor?.[0] === '!';
      // In a `#!` app a plain `#anchor` (no `!`) is an anchor on the state shown now, never a state
      // of its own (docs/scheme.md, "Reading the text after `#!`"). Any other URL names the location
      // of any of its forms: none outside `base`, nor for a malformed `_escaped_fragment_`.
      const loc =
        hashbang && shown && anchor !== undefined && !bang
          ? normalizeLocation(stripAnchor(shown) + '#' + anchor)
          : readLocation(href, base, ugly);
      // A URL that reads is ugly when it has the parameter (a malformed one does not read), and
      // pretty when it has `#!`: hashbang's form is pretty, history's neither.
      return loc === null ? null : { loc, ok: bang === hashbang && !hasEscapedFragment(href) };
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

/**
 * Where the router reads, writes and listens: the window's own history (`windowNav`), or an
 * instance of the `history` package (`historyNav`). The navigation core sees only this.
 */
export interface Nav {
  /** What URLs this history can be given: any path under `base`, only a new fragment of this page, or none (no History API). */
  api: Api;
  /** The URL shown now. */
  href(): string;
  /** The entry shown now, if the router made or adopted it. */
  entry(): Entry | null;
  /** Writes `url`, the location `loc` in the adapter's form, with its entry; `false` when nothing was written (a blocker of a `history` instance's refused it). */
  write(url: string, entry: Entry, replace: boolean, loc: AppLocation): false | void;
  /** Moves `delta` entries back (negative) or forward. */
  go(delta: number): void;
  /** Calls `f` for every change of entry that the router did not write, until `signal` aborts. */
  listen(f: (event: { type?: string }) => void, signal: RouterSignal): void;
}

/**
 * The window's history. What it can write is found with the real operation: a `replaceState` to
 * another path under `base` and back. A sandboxed or opaque-origin frame refuses it although
 * `pushState` is there, and may change only its fragment. A page of no http(s) URL (file://) is
 * given its fragment without the probe: Firefox logs a refused one as a security error, and with
 * its file-URL policy relaxed lets it pass, when the page's path (its file) is no app location.
 */
export function windowNav(win: RouterWindow, base: string): Nav {
  const h = win.history;
  const href = () => win.location.href;
  const here = href();
  const state = h.state;
  let api: Api = NO_API;
  if (typeof h.pushState === 'function') {
    api = FRAGMENT_API;
    if (/^https?:$/.test(win.location.protocol))
      try {
        // `base-` is another path under base (`/app/-`) for any page but that one.
        h.replaceState(state, '', base + '-');
        h.replaceState(state, '', here);
        api = PATH_API;
      } catch {
        // Refused before the URL moved: the URL is still `here`.
      }
  }
  return {
    api,
    href,
    // The entry the browser is on, if the router stamped it.
    entry() {
      const e = h.state as Partial<Entry> | null;
      return typeof e?.key === 'string' && typeof e.idx === 'number' ? (e as Entry) : null;
    },
    write(url, entry, replace, loc) {
      if (api > NO_API) {
        try {
          return h[replace ? 'replaceState' : 'pushState'](entry, '', url);
        } catch {
          // Refused at run time (Safari past 100 calls in 30 s, a path this page may not take): the
          // `#!` form of the same state on this very page, never a load of another document.
          url = stripAnchor(href()) + '#!' + loc;
        }
      }
      // Without the API a `#!` URL on the same page changes only the fragment: no reload.
      win.location[replace ? 'replace' : 'assign'](url);
    },
    go: (delta) => h.go(delta),
    listen(f, signal) {
      win.addEventListener('popstate', f, { signal });
      win.addEventListener('hashchange', f, { signal });
    },
  };
}
