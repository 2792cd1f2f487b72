// Percent-encoding over UTF-8, shared by the codec (strict) and by locations and params (lenient).
// Internal: no DOM, no Node. Encoding and strict decoding are loops over the text that handle ASCII
// themselves and hand each non-ASCII character to encodeURIComponent/decodeURIComponent: they know
// where a fault is, and ASCII (most of a URL) costs no call into the engine. Lenient decoding keeps
// the native decoder, with a pattern for text that holds bad escapes.

// With the `u` flag a surrogate pair is one code point: only a lone surrogate matches.
const LONE = /[\uD800-\uDFFF]/u;

/** Finds a lone surrogate in `text` (from `from`), or -1. */
export function loneSurrogate(text: string, from = 0): number {
  const index = text.slice(from).search(LONE);
  return index < 0 ? index : from + index;
}

/** A fault found while encoding or decoding, with its index in the text. */
export interface PercentFault {
  kind: 'MALFORMED_ESCAPE' | 'INVALID_UTF8' | 'LONE_SURROGATE';
  index: number;
  /** The offending text: `%zz`, `%C3%28`, or the surrogate. */
  text: string;
}

function surrogateFault(text: string, index: number): PercentFault {
  return { kind: 'LONE_SURROGATE', index, text: text[index] as string };
}

/** For each ASCII code, the escape to write for it, or undefined to keep it as it is. */
export type EscapeTable = readonly (string | undefined)[];

/** An escape table that keeps exactly the ASCII characters `keep` matches (a one-character RegExp). */
export function escapeTable(keep: RegExp): EscapeTable {
  return Array.from({ length: 128 }, (_, code) =>
    keep.test(String.fromCharCode(code)) ? undefined : (code < 16 ? '%0' : '%') + code.toString(16).toUpperCase(),
  );
}

/**
 * UTF-8 percent-encodes `text`: each ASCII character as `table` says, every other character as
 * the escapes of its UTF-8 bytes (natively). A lone surrogate is handed to `onLoneSurrogate`,
 * which throws or returns the text to write in its place.
 */
export function percentEncode(text: string, table: EscapeTable, onLoneSurrogate: (fault: PercentFault) => string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && table[code] === undefined) continue;
    out += text.slice(start, i);
    if (code < 128) out += table[code];
    else {
      // A run of non-ASCII natively; encodeURIComponent refuses exactly a lone surrogate, and then
      // the run is written up to it, and the surrogate as `onLoneSurrogate` says.
      let end = i + 1;
      while (text.charCodeAt(end) > 127) end++;
      try {
        out += encodeURIComponent(text.slice(i, end));
      } catch {
        end = loneSurrogate(text, i);
        out += encodeURIComponent(text.slice(i, end)) + onLoneSurrogate(surrogateFault(text, end++));
      }
      i = end - 1;
    }
    start = i + 1;
  }
  return start === 0 ? text : out + text.slice(start);
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

/** The first fault in `text` read up to `i`: a lone surrogate before it, or `kind` at `text[i..end)`. */
function firstFault(text: string, lone: number, kind: PercentFault['kind'], i: number, end: number): PercentFault {
  return lone >= 0 && lone < i ? surrogateFault(text, lone) : { kind, index: i, text: text.slice(i, end) };
}

/**
 * Decodes every `%XX` in `text` as UTF-8, strictly: returns the text, or the first malformed
 * escape, invalid UTF-8 sequence or lone surrogate as a `PercentFault`.
 */
export function strictDecode(text: string): string | PercentFault {
  // A lone surrogate is raw text, never an escape: the fault, unless an escape before it is one.
  const lone = text.search(LONE);
  let out = '';
  let start = 0;
  for (let i = text.indexOf('%'); i >= 0; i = text.indexOf('%', start)) {
    const lead = escaped(text, i);
    if (lead > 255) return firstFault(text, lone, 'MALFORMED_ESCAPE', i, i + 3);
    // The lead byte announces a character of 1 to 4 bytes (a stray continuation byte is 1, and
    // fails). An ASCII escape is read here; the rest natively, which refuses what RFC 3629 does:
    // overlong forms, surrogates, code points past U+10FFFF.
    const announced = i + 3 * (lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);
    let char = String.fromCharCode(lead);
    if (lead > 0x7f) {
      try {
        char = decodeURIComponent(text.slice(i, announced));
      } catch {
        // The fault is the escapes the lead announced, as far as they are escapes.
        let end = i + 3;
        while (end < announced && escaped(text, end) < 256) end += 3;
        return firstFault(text, lone, 'INVALID_UTF8', i, end);
      }
    }
    out += text.slice(start, i) + char;
    start = announced;
  }
  return lone >= 0 ? surrogateFault(text, lone) : start === 0 ? text : out + text.slice(start);
}

// UTF-8 characters as escapes, exactly as RFC 3629 §4 (and so decodeURIComponent) allows them: no
// overlong form, no surrogate, nothing past U+10FFFF. Lenient decoding matches them rather than
// trying each escape with decodeURIComponent: a thrown error per escape made a 64 kB run of `%C3`
// take most of a second to decode.
const UTF8_CHARS =
  /%[0-7][\dA-F]|%(?:C[2-9A-F]|D[\dA-F])%[89AB][\dA-F]|%(?:E0%[AB]|E[1-9A-CEF]%[89AB]|ED%[89])[\dA-F]%[89AB][\dA-F]|%(?:F0%[9AB]|F[1-3]%[89AB]|F4%8)[\dA-F](?:%[89AB][\dA-F]){2}/gi;

/**
 * Decodes every `%XX` in `text[from..to)` as UTF-8, leniently: `+` is always a plus, and whatever
 * does not decode stays exactly as it came (route params, queries and anchors of locations).
 */
export function percentDecode(text: string, from = 0, to = text.length): string {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  if (part.indexOf('%') < 0) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part.replace(UTF8_CHARS, decodeURIComponent);
  }
}
