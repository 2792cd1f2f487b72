// Query strings of locations: repeated keys kept, escapes decoded once and leniently, and `+` is a
// plus (RFC 3986), not the space of HTML form encoding, so `C++` survives every form of a URL.

import { DEV } from '../env/dev.js';
import { loneSurrogate, percentDecode } from './percent.js';
import { record } from './record.js';

/** A parsed query: one string per key, or an array when the key repeats. */
export type Query = Record<string, string | string[]>;

/** A query to write: `null`/`undefined` values are left out, arrays repeat the key. */
export type QueryInput = Record<string, string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>>;

/** Parses `a=1&b=2&a=3` (no leading `?`) into `{ a: ['1', '3'], b: '2' }`; a bare key gets `''`. */
export function parseQuery(text: string): Query {
  // Nothing inherited: keys such as `__proto__` and `constructor` are data, never members.
  const query = record<Query>();
  // No query, as on most matches: nothing to split.
  if (text === '') return query;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = percentDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : percentDecode(pair, eq + 1);
    const prior = query[key];
    if (prior === undefined) query[key] = value;
    else if (typeof prior === 'string') query[key] = [prior, value];
    else prior.push(value);
  }
  return query;
}

/**
 * encodeURIComponent, except that a lone surrogate is handed to `onLoneSurrogate` (which throws)
 * with its index, which only development builds' messages say (-1 in production).
 */
export function encodeComponent(text: string, onLoneSurrogate: (index: number) => never): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return onLoneSurrogate(DEV ? loneSurrogate(text) : -1);
  }
}

/** Writes a query (no leading `?`) in the order of its keys; `''` when nothing is left. A lone surrogate in a key or (`inValue`) a value is handed to `onLoneSurrogate`. */
export function stringifyQuery(query: QueryInput, onLoneSurrogate: (key: string, inValue?: boolean) => never): string {
  let out = '';
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === null || value === undefined) continue;
    const name = encodeComponent(key, () => onLoneSurrogate(key));
    for (const item of Array.isArray(value) ? value : [value]) {
      out += (out ? '&' : '') + name + '=' + encodeComponent(String(item), () => onLoneSurrogate(key, true));
    }
  }
  return out;
}

// Campaign and click tags that analytics and ad networks add to a shared link: `utm_*`, Google's
// `gclid`, `dclid`, `_ga` and `_gl`, Facebook's `fbclid`, Microsoft's `msclkid`, Mailchimp's
// `mc_cid` and `mc_eid`, Yandex's `yclid`, Instagram's `igshid`. Case as the trackers write them.
const TRACKING = /^(utm_.*|(fb|[dgy])clid|msclkid|mc_[ce]id|_g[al]|igshid)$/;

/** True for a query key that tracks a visit (`utm_source`, `fbclid`, …): it never makes a state. Internal. */
export const isTrackingKey = (key: string): boolean => TRACKING.test(key);

/**
 * The pairs of a query (raw text, no leading `?`) whose decoded key is in `keys`, kept as written,
 * in the order of `keys` (a key's own pairs in the order they came); every pair in its order when
 * `keys` is undefined. Tracking tags never: what makes a state distinct are its declared keys in
 * any order, and every other key (a tracking tag, a cache buster) names the same state.
 */
export function keepQueryKeys(text: string, keys?: readonly string[]): string {
  // No query, as on most matches: nothing kept, and no split (half a match's time).
  if (text === '') return text;
  // The pairs of each key at the key's place in `keys` (a key listed twice: its first place), or all
  // in one, each after a `&`: text joined, not arrays flattened (`flat()` was a third of the time).
  const kept = (keys || [0]).map(() => '');
  for (const pair of text.split('&')) {
    // indexOf and slice, not `split('=', 1)`, which took another third.
    const eq = pair.indexOf('=');
    const key = percentDecode(eq < 0 ? pair : pair.slice(0, eq));
    // An empty pair is no key's, whatever `keys` lists.
    const at = keys ? (pair ? keys.indexOf(key) : -1) : 0;
    if (at >= 0 && !TRACKING.test(key)) kept[at] += '&' + pair;
  }
  return kept.join('').slice(1);
}

/** A query (raw text, no leading `?`) without its tracking tags, every other pair kept as written, in order. */
export const dropTracking = (text: string): string => keepQueryKeys(text);
