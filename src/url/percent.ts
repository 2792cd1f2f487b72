// Percent-encoding over UTF-8, shared by the codec (strict) and by locations and params (lenient).
// Internal: no DOM, no Node. UTF-8 is written and read as utf8.ts does on a server (and
// utf8.browser.ts in a browser build); which faults there are and how they are told is here.

import { DEV } from '../env/dev.js';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

/**
 * A lone surrogate: with the `u` flag a surrogate pair is one code point, never matched. Global for
 * `replace` (location.ts); `search` ignores the flag. Internal.
 */
export const LONE = /[\uD800-\uDFFF]/gu;

/** Finds a lone surrogate in `text` (from `from`), or -1. */
export function loneSurrogate(text: string, from = 0): number {
  const index = text.slice(from).search(LONE);
  return index < 0 ? index : from + index;
}

/** A fault found while encoding or decoding, with its index in the text. */
export interface PercentFault {
  kind: 'MALFORMED_ESCAPE' | 'INVALID_UTF8' | 'LONE_SURROGATE';
  index: number;
  /** The offending text for an error message: `%zz`, `%C3%28`, or the surrogate (escapes: `''` in a production build). */
  text: string;
}

function surrogateFault(text: string, index: number): PercentFault {
  return { kind: 'LONE_SURROGATE', index, text: text[index] as string };
}

/**
 * UTF-8 percent-encodes `text` from `from` (utf8.ts): the ASCII characters `keep` matches (an
 * ASCII-only, one-character RegExp matching at least all that encodeURIComponent leaves raw) as they
 * are, every other character as the escapes of its UTF-8 bytes; null when the text holds a lone
 * surrogate, which has no UTF-8 (`loneFault` tells it).
 */
export const percentEncode: (text: string, keep: RegExp, from: number) => string | null = encodeUtf8;

/** The fault of the first lone surrogate in `text` from `from`. */
export const loneFault = (text: string, from: number): PercentFault => surrogateFault(text, loneSurrogate(text, from));

/** An escape, valid or not as UTF-8. */
const ESCAPE = /^%[\dA-F]{2}/i;

/** For an error message: a malformed escape at `i`, or the escapes of the character its lead byte announced (as far as they are escapes). */
function escapesAt(text: string, i: number): string {
  const lead = ESCAPE.test(text.slice(i, i + 3)) ? parseInt(text.slice(i + 1, i + 3), 16) : 256;
  const announced = i + 3 * (lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);
  let end = i + 3;
  while (end < announced && ESCAPE.test(text.slice(end, end + 3))) end += 3;
  return text.slice(i, end);
}

// String.prototype.isWellFormed (ES2024) where the engine has it: a native scan, about three times
// the speed of the `u` pattern on a URL. Typed as optional here, since the lib is ES2022.
const wellFormed = (text: string): boolean => (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? text.search(LONE) < 0;

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8 (utf8.ts), strictly: that part decoded, or
 * null when an escape starts no character or the raw text holds a lone surrogate. Internal: the
 * client reads ugly URLs with it, so that it bundles no fault.
 */
export function cleanDecode(text: string, from: number): string | null {
  const out = decodeUtf8(text, from, true);
  return typeof out === 'string' && wellFormed(text.slice(from)) ? out : null;
}

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, strictly: returns that part decoded, or the
 * first malformed escape, invalid UTF-8 sequence or lone surrogate in it as a `PercentFault` (its
 * index in the whole text): the first escape that starts no character, unless a lone surrogate in
 * the raw text comes before it.
 */
export function strictDecode(text: string, from = 0): string | PercentFault {
  const out = decodeUtf8(text, from, true);
  if (typeof out === 'string' && wellFormed(text.slice(from))) return out;
  const lone = loneSurrogate(text, from);
  return typeof out === 'string' || (lone >= 0 && lone < out)
    ? surrogateFault(text, lone)
    : {
        kind: ESCAPE.test(text.slice(out, out + 3)) ? 'INVALID_UTF8' : 'MALFORMED_ESCAPE',
        index: out,
        text: DEV ? escapesAt(text, out) : '',
      };
}

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, leniently: `+` is always a plus, and whatever
 * does not decode stays exactly as it came (route params, queries and anchors of locations).
 */
export const percentDecode = (text: string, from = 0): string => decodeUtf8(text, from, false) as string;
