// Percent-encoding over UTF-8, shared by the codec (strict) and by locations and params (lenient).
// Internal: no DOM, no Node. Encoding and decoding are single passes over the text with charCodeAt
// and slices that read and write UTF-8 themselves: they know where a fault is, a run of characters
// that needs nothing is copied in one slice, and nothing calls into the engine (encodeURIComponent
// and decodeURIComponent are runtime calls that cost more than the whole loop on a URL).

import { DEV } from './dev.js';

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
 * For each ASCII code, the escape to write for it, or undefined to keep it as it is; for each code
 * 128-255, the escape of that byte (every byte of a non-ASCII character is escaped).
 */
export type EscapeTable = readonly (string | undefined)[];

/** An escape table that keeps exactly the ASCII characters `keep` matches (a one-character RegExp). */
export function escapeTable(keep: RegExp): EscapeTable {
  return Array.from({ length: 256 }, (_, code) =>
    keep.test(String.fromCharCode(code)) ? undefined : (code < 16 ? '%0' : '%') + code.toString(16).toUpperCase(),
  );
}

/**
 * UTF-8 percent-encodes `text` from `from` in one pass: each ASCII character as `table` says, every
 * other character as the escapes of its UTF-8 bytes, from `table` too (encodeURIComponent would be
 * a runtime call, dearer than the loop). A lone surrogate is handed to `onLoneSurrogate`, which
 * throws or returns the text to write in its place.
 */
export function percentEncode(text: string, table: EscapeTable, onLoneSurrogate: (fault: PercentFault) => string, from = 0): string {
  let out = '';
  let start = from;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && table[code] === undefined) continue;
    out += text.slice(start, i);
    if (code < 128) out += table[code];
    else {
      // A surrogate pair is one code point; a lone surrogate has no UTF-8.
      let rest = text.codePointAt(i) as number;
      if (rest >> 11 === 0x1b) out += onLoneSurrogate(surrogateFault(text, i));
      else {
        if (rest > 0xffff) i++;
        // Its UTF-8 bytes: 6 bits a continuation byte, last first, until the rest fits the lead
        // byte (C0, E0 or F0 and 5, 4 or 3 bits).
        let bytes = '';
        let lead = 0x80;
        do {
          bytes = table[0x80 | (rest & 63)] + bytes;
          rest >>= 6;
          lead = 0x80 | (lead >> 1);
        } while (rest > (0xff - lead) >> 1);
        out += table[lead | rest] + bytes;
      }
    }
    start = i + 1;
  }
  return out + text.slice(start);
}

/** The value of a hex digit's character code, or 256 when it is none. */
function hex(code: number): number {
  const lower = code | 32;
  return code >= 48 && code <= 57 ? code - 48 : lower >= 97 && lower <= 102 ? lower - 87 : 256;
}

/** The byte of the escape at `i` of `text`, or a number over 255 when no escape starts there. */
function escaped(text: string, i: number): number {
  return text.charCodeAt(i) === 37 ? 16 * hex(text.charCodeAt(i + 1)) + hex(text.charCodeAt(i + 2)) : 256;
}

/** A malformed escape at `i`, or the escapes of the character its `lead` byte announced (as far as they are escapes). */
function escapesAt(text: string, i: number, lead: number): string {
  const announced = i + 3 * (lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);
  let end = i + 3;
  while (end < announced && escaped(text, end) < 256) end += 3;
  return text.slice(i, end);
}

// String.prototype.isWellFormed (ES2024) where the engine has it: a native scan, about three times
// the speed of the `u` pattern on a URL. Typed as optional here, since the lib is ES2022.
const wellFormed = (text: string): boolean => (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? text.search(LONE) < 0;

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, one pass with no call into the engine: a character is 1
 * to 4 escapes as RFC 3629 §4 (and so decodeURIComponent) allows them, with no overlong form, no
 * surrogate and nothing past U+10FFFF. Strictly, the first escape that starts no character is the
 * fault, and so is a lone surrogate in the raw text (unless an escape before it is one); leniently,
 * such an escape stays exactly as it came and the text is never at fault.
 */
function decode(text: string, strict: boolean, from = 0): string | PercentFault {
  let out = '';
  let start = from;
  for (let i = text.indexOf('%', from); i >= 0; ) {
    const lead = escaped(text, i);
    // How many escapes the lead starts: 0 for none (a continuation byte, C0, C1, F5-FF).
    const n = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    let point = n > 1 ? lead & (0xff >> (n + 1)) : lead;
    let k = 1;
    for (let byte; k < n && (byte = escaped(text, i + 3 * k)) < 256 && (byte & 0xc0) === 0x80; k++) point = (point << 6) | (byte & 0x3f);
    if (n > 0 && k === n && point >= (n === 3 ? 0x800 : n === 4 ? 0x10000 : 0) && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)) {
      out += text.slice(start, i) + String.fromCodePoint(point);
      i = text.indexOf('%', (start = i + 3 * n));
    } else if (strict) {
      const lone = loneSurrogate(text, from);
      return lone >= 0 && lone < i
        ? surrogateFault(text, lone)
        : { kind: lead > 255 ? 'MALFORMED_ESCAPE' : 'INVALID_UTF8', index: i, text: DEV ? escapesAt(text, i, lead) : '' };
    } else i = text.indexOf('%', i + 1);
  }
  return strict && !wellFormed(text.slice(from)) ? surrogateFault(text, loneSurrogate(text, from)) : out + text.slice(start);
}

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, strictly: returns that part decoded, or the
 * first malformed escape, invalid UTF-8 sequence or lone surrogate in it as a `PercentFault` (its
 * index in the whole text).
 */
export const strictDecode = (text: string, from?: number): string | PercentFault => decode(text, true, from);

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, leniently: `+` is always a plus, and whatever
 * does not decode stays exactly as it came (route params, queries and anchors of locations).
 */
export const percentDecode = (text: string, from?: number): string => decode(text, false, from) as string;
