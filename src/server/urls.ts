// The public URLs the server writes (canonical links, sitemaps, redirects' targets): the clean URL
// wherever the server answers clean URLs, the pretty URL of a hashbang app only where it speaks the
// scheme alone (`cleanUrls: 'shell'`), always on the configured origin, never on the request's Host
// header (docs/scheme.md, last section).

import { PARAM, toUglyUrl } from '../url/codec.js';
import { normalizeBase, stripAnchor, toUrl, type AppLocation, type UrlMode } from '../url/location.js';
import { SnapshotError } from './errors.js';

/** Checks an `origin` option (`https://example.com`, a port allowed, no path) and returns it serialised. */
export function checkOrigin(origin: unknown, option = 'origin'): string {
  let url: URL | null = null;
  try {
    if (typeof origin === 'string') url = new URL(origin);
  } catch {
    url = null;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    /[\s]/.test(origin as string)
  ) {
    // An app served under a path (https://example.com/shop/) names that path as its base.
    const bare = url && /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username && !url.password;
    const path = bare && url && url.pathname !== '/' ? url.pathname.replace(/\/?$/, '/') : '';
    throw new SnapshotError(
      'BAD_OPTION',
      `${option} must be an http(s) origin such as "https://example.com", with no path, query or credentials; got ${JSON.stringify(origin)}` +
        (path
          ? `: an app under a path gives the origin alone and the path as the route table's base: createRoutes(routes, { base: ${JSON.stringify(path)} })`
          : ''),
    );
  }
  return url.origin;
}

/** Checks a `mode` option (named `option` in the message): `'history'` when not given. */
export function checkMode(mode: unknown, option = 'mode'): UrlMode {
  if (mode === undefined) return 'history';
  if (mode === 'history' || mode === 'hashbang') return mode;
  throw new SnapshotError('BAD_OPTION', `${option} must be "history" or "hashbang", got ${JSON.stringify(mode)}`);
}

/** What a clean URL inside `base` gets: see `SnapshotHandlerOptions.cleanUrls`. */
export type CleanUrls = 'bots' | 'all' | 'shell';

const CLEAN_URLS: readonly string[] = ['bots', 'all', 'shell'];

/** Checks a `cleanUrls` option: `'bots'` when not given. */
export function checkCleanUrls(cleanUrls: unknown, option = 'cleanUrls'): CleanUrls {
  if (cleanUrls === undefined) return 'bots';
  if (CLEAN_URLS.includes(cleanUrls as string)) return cleanUrls as CleanUrls;
  throw new SnapshotError('BAD_OPTION', `${option} must be 'bots', 'all' or 'shell', got ${JSON.stringify(cleanUrls)}`);
}

/** Checks a `base` option against the route table's base: the two must name one base. */
export function checkBase(base: string | undefined, routesBase: string): string {
  if (base === undefined) return routesBase;
  const normal = normalizeBase(base);
  if (normal !== routesBase) {
    throw new SnapshotError('BAD_OPTION', `base ${JSON.stringify(base)} is not the route table's base ${JSON.stringify(routesBase)}`);
  }
  return normal;
}

/** Where public URLs are written: the app's origin, base, and the URL mode crawlers are told (`crawlerMode`). */
export interface UrlSettings {
  origin: string;
  base: string;
  mode: UrlMode;
}

/**
 * The form of the URLs crawlers are told (canonical links, `og:url`, sitemaps, the app's links in
 * snapshots): the clean URL wherever the server answers clean URLs, whatever the app's client mode,
 * since crawlers drop the fragment and read `/#!/books/1` as `/`. Only `'shell'`, where the scheme
 * alone is spoken, keeps a hashbang app's `#!` URLs.
 */
export function crawlerMode(mode: UrlMode, cleanUrls: CleanUrls): UrlMode {
  return cleanUrls === 'shell' ? mode : 'history';
}

/**
 * The URL people and search results see for a state: `origin + base + '#!' + state` in hashbang mode
 * (the base state itself is the bare base URL, the scheme's meta-tag page), the clean URL in history
 * mode. Any in-page anchor is dropped: it is not a state.
 */
export function publicUrl(location: AppLocation, settings: UrlSettings): string {
  const state = stripAnchor(location);
  if (settings.mode === 'hashbang' && state === '/') return settings.origin + settings.base;
  return toUrl(state, settings);
}

/**
 * Where a redirect to `target` (a location inside the app) sends the client, on the configured
 * origin whatever the target says, in the form the request came in: `clean` the clean URL, `meta`
 * the clean URL with an empty escaped fragment (the meta-tag form), `ugly` the `?_escaped_fragment_=` URL.
 */
export function redirectUrl(target: AppLocation, settings: UrlSettings, form: 'clean' | 'meta' | 'ugly'): string {
  const state = stripAnchor(target);
  if (form === 'ugly') return toUglyUrl(toUrl(state, { ...settings, mode: 'hashbang' }));
  const clean = toUrl(state, { ...settings, mode: 'history' });
  return form === 'clean' ? clean : clean + (clean.includes('?') ? '&' : '?') + PARAM + '=';
}
