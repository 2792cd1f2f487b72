// One state, three URL forms (clean, pretty, ugly): docs/scheme.md, "Words" and "Reading the text after `#!`".
// A location is the state as a string relative to the app's base: path, optional query, optional
// in-page anchor. Locations are kept in one canonical spelling (below) so that a state reached
// through any form, and through any percent-encoding a browser or crawler applied, is one string.

import { endOf, hasEscapedFragment, readUglyUrl, type UglyState } from './codec.js';
import { LONE } from './percent.js';

/** An app state relative to `base`: `/books/42?tab=reviews#top`, in canonical spelling. */
export type AppLocation = string;

/** Which URL form the router writes: clean URLs (pushState) or `#!` URLs. */
export type UrlMode = 'history' | 'hashbang';

// What a path (and a query or anchor, which may also hold `?`) may hold raw: RFC 3986 pchar
// (`\w-.~!$&'()*+,;=:@`) and `/`, written out in each regexp below.
// A path already canonical: `/`-rooted segments of pchar, with no `//` and no segment starting with a dot.
const PATH_DONE = /^(?:\/(?![./])[\w\-.~!$&'()*+,;=:@]*)+$/;
// What `canonical` rewrites, a run at a time: a run of escapes, a lone `%`, and a run of
// characters not allowed raw (not pchar or `/`, and in a query or anchor not `?` either). Runs, not
// characters: 16 kB of `%25` is one call, not 5,461. A text with none of these (all pchar, no `%`)
// is canonical as it is.
const PATH_FIX = /(?:%[\dA-Fa-f]{2})+|%|[^\w\-.~!$&'()*+,;=:@/%]+/g;
const QUERY_FIX = /(?:%[\dA-Fa-f]{2})+|%|[^\w\-.~!$&'()*+,;=:@/?%]+/g;

// Escapes of unreserved characters (letters, digits, `-._~`), which canonical spelling decodes, and
// of `'`, which a browser's URL parser escapes in a query (not in a path or `#!` fragment): one state.
const UNRESERVED = /(?:%(?:2[7DE]|3\d|[46][1-9A-F]|5[\dAF]|7[\dAE]))+/g;

/**
 * Canonical spelling of one URL component (RFC 3986 §6.2.2), a path unless `fix` is QUERY_FIX:
 * characters the component may not hold raw are UTF-8 percent-encoded, escapes get upper-case hex,
 * escapes of unreserved characters are decoded, and a `%` that starts no escape becomes `%25`. A
 * lone surrogate becomes U+FFFD, as browsers write it.
 */
function canonical(text: string, fix = PATH_FIX): string {
  // A lone surrogate (matched alone with the `u` flag) is what encodeURIComponent refuses.
  return text.replace(fix, (run: string) =>
    run[0] !== '%'
      ? encodeURIComponent(run.replace(LONE, '\uFFFD'))
      : run.length > 1
        ? run.toUpperCase().replace(UNRESERVED, unescape)
        : '%25',
  );
}

/** RFC 3986 §5.2.4 remove_dot_segments, after collapsing empty segments (`//`) so no path reads as an authority. */
function cleanPath(path: string): string {
  const out: string[] = [];
  // Whether the segment read last is `''`, `.` or `..`: none is a segment kept, and ending a path
  // each names a directory, which keeps its trailing slash (`/a/`, `/a/.`, `/a/b/..`).
  let dir = false;
  // The first segment is the empty one before the leading `/`, skipped as every empty one is.
  for (const segment of path.split('/')) {
    dir = segment === '' || segment === '.' || segment === '..';
    if (segment === '..') out.pop();
    else if (!dir) out.push(segment);
  }
  return '/' + out.join('/') + (dir && out.length > 0 ? '/' : '');
}

// The last path canonicalised: toLocation canonicalises a path, and match is then handed it again
// (so a 16 kB path of escapes is rewritten once a request, not three times).
let known = '/';

/** Whether `text` is a path in canonical spelling with no query and no anchor: a location as it is. Internal. */
export const isCanonicalPath = (text: string): boolean => PATH_DONE.test(text);

function canonicalPath(path: string): string {
  // No `/` is put before a relative path: no run `canonical` rewrites holds a `/`, and `cleanPath`
  // roots the segments it keeps.
  return PATH_DONE.test(path) || path === known ? path : (known = cleanPath(canonical(path)));
}

/**
 * Canonical spelling of literal path text (a route pattern's text), with no dot-segment cleaning.
 * A function of one argument: passed to `map`, `canonical` itself would take the index for `fix`. Internal.
 */
export const canonicalPathText = (text: string): string => canonical(text);

/**
 * A location's (or a path-with-query-and-anchor's) three parts: the path, the query after the first
 * `?` before the first `#`, and the anchor after that `#`; undefined where there is none. Internal.
 */
export function splitLocation(text: string): [path: string, query: string | undefined, anchor: string | undefined] {
  const hash = endOf(text);
  const pre = text.slice(0, hash);
  const q = pre.indexOf('?');
  return [q < 0 ? pre : pre.slice(0, q), q < 0 ? undefined : pre.slice(q + 1), hash < text.length ? text.slice(hash + 1) : undefined];
}

/** Puts any path-with-query-and-anchor into canonical location spelling. Internal to the package. */
export function normalizeLocation(text: string): AppLocation {
  const [path, query, anchor] = splitLocation(text);
  // The anchor may hold a second `#` (`#!/a#b#c`): it is text, so it is escaped (`#` is no pchar:
  // `canonical` escapes it). A leading `!` is escaped too: a clean URL ending in `#!x` is a hashbang
  // URL, not the anchor `!x`. A non-empty part is never empty once canonical.
  return (
    canonicalPath(path) +
    (query ? '?' + canonical(query, QUERY_FIX) : '') +
    (anchor ? '#' + canonical(anchor.replace(/^!/, '%21'), QUERY_FIX) : '')
  );
}

/** A base path in canonical form, starting and ending with `/`. Internal to the package. */
export function normalizeBase(base = '/'): string {
  const path = canonicalPath(splitLocation(base)[0]);
  return path.endsWith('/') ? path : path + '/';
}

/**
 * Reads the state after `#!`, as a location still to be normalized: a leading `/` starts a path;
 * anything else is a query on the base path (`#!key=value` is `/?key=value`); an empty fragment is
 * the base path itself.
 */
function fromFragment(state: string): string {
  return (/^[?#]|^$/.test(state) ? '/' : state[0] === '/' ? '' : '/?') + state;
}

/** The path relative to `base` (`'/'`-rooted), or null when the path lies outside it. */
function relative(path: string, base: string): string | null {
  const clean = canonicalPath(path);
  // The base's own path without its last `/` (`/app` for `/app/`) is the base too: `/`.
  return (clean + '/').startsWith(base) ? clean.slice(base.length - 1) || '/' : null;
}

/** Options of `toLocation`. */
export interface ToLocationOptions {
  /** The app's base path; URLs outside it are not the app's. Default `'/'`. */
  base?: string | undefined;
}

/** The text before its first `#`: a location without its in-page anchor, a URL without its fragment. */
export function stripAnchor<T extends string>(text: T): T {
  return text.slice(0, endOf(text)) as T;
}

// scheme://authority or //authority at the start of a URL.
const ORIGIN = /^(?:[a-z][a-z\d+.-]*:)?\/\/[^/?#]*/i;

/**
 * Reads any of the three forms (clean, pretty `#!`, ugly `_escaped_fragment_`), absolute or
 * origin-relative, into the one location it names; null when the URL lies outside `base`.
 * A malformed ugly URL throws the codec's `CodecError`.
 */
export function toLocation(url: string, options: ToLocationOptions = {}): AppLocation | null {
  // As the URL parser reads a URL string: controls and spaces around it dropped, tabs and newlines
  // dropped anywhere. Each run of them is matched once, whole: linear, where `[…]+$` would retry
  // at every character of a long run (quadratic).
  const text = url.replace(/[\0- ]+/g, (run, at: number) =>
    at === 0 || at + run.length === url.length ? '' : run.replace(/[\t\n\r]/g, ''),
  );
  return readLocation(text, normalizeBase(options.base), readUglyUrl);
}

/**
 * `toLocation` under a base already normalized, reading an ugly URL with `ugly`: `readUglyUrl`,
 * which throws, or the client's `uglyState`, whose null (a malformed ugly URL) reads as no state.
 * Internal to the package.
 */
export function readLocation(url: string, base: string, ugly: (url: string) => UglyState | null): AppLocation | null {
  let rest = url.replace(ORIGIN, '');
  if (/^[?#]|^$/.test(rest)) rest = base + rest;
  if (hasEscapedFragment(rest)) {
    const state = ugly(rest);
    if (!state) return null;
    // Read as its pretty URL (an ugly URL has no anchor of its own); the meta-tag form as its page.
    rest = state.fragment ? state.page + '#!' + state.fragment : state.page;
  }
  const [page, , anchor] = splitLocation(rest);
  const path = relative(page, base);
  if (path === null) return null;
  return normalizeLocation(anchor?.[0] === '!' ? fromFragment(anchor.slice(1)) : path + rest.slice(page.length));
}

/** Options of `toUrl`. */
export interface ToUrlOptions {
  /** The app's base path. Default `'/'`. */
  base?: string | undefined;
  /** `'history'` writes the clean URL, `'hashbang'` the pretty `#!` URL. Default `'history'`. */
  mode?: UrlMode | undefined;
  /** An origin (`https://example.com`) to make the URL absolute. Default none: origin-relative. */
  origin?: string | undefined;
}

/** Writes a location as a clean URL (history mode) or a pretty `#!` URL (hashbang mode). */
export function toUrl(location: AppLocation, options: ToUrlOptions = {}): string {
  const origin = (options.origin ?? '').replace(/\/+$/, '');
  return origin + urlOf(normalizeLocation(location), normalizeBase(options.base), options.mode === 'hashbang');
}

/** `toUrl` of a canonical location under a normalized base, origin-relative. Internal to the package. */
export function urlOf(loc: AppLocation, base: string, hashbang: boolean): string {
  // `/?k=v` is written `#!k=v`, the scheme's own form, when it cannot be misread as a path.
  return hashbang ? base + '#!' + (/^\/\?(?![/?#])/.test(loc) ? loc.slice(2) : loc) : base + loc.slice(1);
}
