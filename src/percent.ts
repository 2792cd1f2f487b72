// Percent-encoding over UTF-8, shared by the codec (strict) and by locations and params (lenient).
// Internal: no DOM, no Node. Hand-written rather than TextEncoder/decodeURIComponent so that a fault
// can name its position and lenient decoding can keep a bad escape exactly as it came.

const SURROGATE = /[\uD800-\uDFFF]/;

/** Finds a lone surrogate in `text` (from `from`), or -1. */
export function loneSurrogate(text: string, from = 0): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return -1;
}

/** A fault found while encoding or decoding, with its index in the text. */
export interface PercentFault {
  kind: 'MALFORMED_ESCAPE' | 'INVALID_UTF8' | 'LONE_SURROGATE';
  index: number;
  /** The offending text: `%zz`, `%C3%28`, or the surrogate as `U+D800`. */
  text: string;
}

function surrogateFault(text: string, index: number): PercentFault {
  return { kind: 'LONE_SURROGATE', index, text: 'U+' + text.charCodeAt(index).toString(16).toUpperCase() };
}

/** For each ASCII code, the escape to write for it, or undefined to keep it as it is. */
export type EscapeTable = readonly (string | undefined)[];

/** An escape table that keeps exactly the ASCII characters `keep` matches (a one-character RegExp). */
export function escapeTable(keep: RegExp): EscapeTable {
  return Array.from({ length: 128 }, (_, code) => (keep.test(String.fromCharCode(code)) ? undefined : '%' + code.toString(16).toUpperCase().padStart(2, '0')));
}

/**
 * UTF-8 percent-encodes `text`: each ASCII character as `table` says, every run of non-ASCII
 * characters through encodeURIComponent (natively, in UTF-8). A lone surrogate is handed to
 * `onLoneSurrogate` (which throws, or returns the text to write for its run instead).
 */
export function percentEncode(text: string, table: EscapeTable, onLoneSurrogate: (fault: PercentFault, run: string) => string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      const escape = table[code];
      if (escape === undefined) continue;
      out += text.slice(start, i) + escape;
      start = i + 1;
      continue;
    }
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) >= 128) end++;
    const run = text.slice(i, end);
    let encoded: string;
    try {
      encoded = encodeURIComponent(run);
    } catch {
      encoded = onLoneSurrogate(surrogateFault(text, i + loneSurrogate(run)), run);
    }
    out += text.slice(start, i) + encoded;
    start = end;
    i = end - 1;
  }
  return start === 0 ? text : out + text.slice(start);
}

/** `text` with every lone surrogate replaced by U+FFFD, as browsers write them into URLs. */
export function wellFormed(text: string): string {
  for (let i = loneSurrogate(text); i >= 0; i = loneSurrogate(text, i + 1)) text = text.slice(0, i) + '\uFFFD' + text.slice(i + 1);
  return text;
}

/** How many escapes the UTF-8 sequence led by the escape at `i` announces (1 for a stray byte). */
function announced(text: string, i: number): number {
  const lead = parseInt(text.slice(i + 1, i + 3), 16);
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

// UTF-8 characters as escapes, exactly as RFC 3629 §4 (and so decodeURIComponent) allows them: no
// overlong form, no surrogate, nothing past U+10FFFF. Matched, not tried with decodeURIComponent in
// a try: a thrown error per escape made a 64 kB run of `%C3` take most of a second to decode.
const UTF8_CHARS = /%[0-7][\dA-F]|%(?:C[2-9A-F]|D[\dA-F])%[89AB][\dA-F]|%(?:E0%[AB]|E[1-9A-CEF]%[89AB]|ED%[89])[\dA-F]%[89AB][\dA-F]|%(?:F0%[9AB]|F[1-3]%[89AB]|F4%8)[\dA-F](?:%[89AB][\dA-F]){2}/gi;
// The same, for one character exactly at `lastIndex`.
const UTF8_CHAR_AT = new RegExp(UTF8_CHARS.source, 'iy');

/** The first fault in `text[from..to)`: a malformed escape, invalid UTF-8 or a lone surrogate. */
function locate(text: string, from: number, to: number): PercentFault | null {
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) === 37) {
      if (!/^%[\dA-Fa-f]{2}/.test(text.slice(i, Math.min(i + 3, to)))) return { kind: 'MALFORMED_ESCAPE', index: i, text: text.slice(i, Math.min(i + 3, to)) };
      UTF8_CHAR_AT.lastIndex = i;
      if (!UTF8_CHAR_AT.test(text.slice(0, to))) {
        let end = i + 3;
        for (let k = 1; k < announced(text, i) && end < to && /^%[\dA-Fa-f]{2}/.test(text.slice(end, end + 3)); k++) end += 3;
        return { kind: 'INVALID_UTF8', index: i, text: text.slice(i, end) };
      }
      i = UTF8_CHAR_AT.lastIndex - 1;
    } else {
      const lone = loneSurrogate(text.slice(i, i + 2));
      if (lone === 0) return surrogateFault(text, i);
      // A valid pair is one character: step over its second half.
      if (lone < 0 && (text.charCodeAt(i) & 0xfc00) === 0xd800) i++;
    }
  }
  return null;
}

/**
 * Decodes every `%XX` in `text[from..to)` as UTF-8; `+` is always a plus. Strict mode (an
 * `onFault` given) hands the first malformed escape, invalid UTF-8 sequence or lone surrogate to
 * `onFault`, which throws. Lenient mode keeps whatever does not decode exactly as it came.
 */
export function percentDecode(text: string, from = 0, to = text.length, onFault?: (fault: PercentFault) => never): string {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  // Strict mode must refuse a lone surrogate, which decodeURIComponent lets through: one native
  // test for any surrogate first, the scan only when there is one.
  const checked = !onFault || !SURROGATE.test(part) || loneSurrogate(part) < 0;
  if (part.indexOf('%') < 0 && checked) return part;
  try {
    const out = decodeURIComponent(part);
    if (checked) return out;
  } catch {
    // Lenient: each escape that is not part of valid UTF-8 stays as it came.
    if (!onFault) return part.replace(UTF8_CHARS, decodeURIComponent);
  }
  return onFault(locate(text, from, to) as PercentFault);
}
