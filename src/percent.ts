// Percent-encoding over UTF-8, shared by the codec (strict) and by locations and params (lenient).
// Internal: no DOM, no Node. Hand-written rather than TextEncoder/decodeURIComponent so that a fault
// can name its position and lenient decoding can keep a bad escape exactly as it came.

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

/**
 * UTF-8 percent-encodes every run of characters that `unsafe` (a global RegExp of runs) matches.
 * encodeURIComponent escapes every character any caller here treats as unsafe, so each run goes
 * through it natively. A lone surrogate is handed to `onLoneSurrogate` (which throws or returns
 * the text to write for the run instead).
 */
export function percentEncode(text: string, unsafe: RegExp, onLoneSurrogate: (fault: PercentFault, run: string) => string): string {
  return text.replace(unsafe, (run: string, offset: number) => {
    try {
      return encodeURIComponent(run);
    } catch {
      return onLoneSurrogate(surrogateFault(text, offset + loneSurrogate(run)), run);
    }
  });
}

/** `text` with every lone surrogate replaced by U+FFFD, as browsers write them into URLs. */
export function wellFormed(text: string): string {
  for (let i = loneSurrogate(text); i >= 0; i = loneSurrogate(text, i + 1)) text = text.slice(0, i) + '\uFFFD' + text.slice(i + 1);
  return text;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  code |= 32;
  return code >= 97 && code <= 102 ? code - 87 : -1;
}

/** The byte that the escape at `i` stands for, or -1 when `text[i..i+3)` is not `%XX`. */
function byteAt(text: string, i: number, end: number): number {
  if (i + 3 > end) return -1;
  const hi = hexValue(text.charCodeAt(i + 1));
  const lo = hexValue(text.charCodeAt(i + 2));
  return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
}

/**
 * Decodes the UTF-8 sequence whose first escape is at `i`. Returns the decoded character and the
 * index after it, or null when the bytes there are not valid UTF-8 (overlong forms, encoded
 * surrogates, code points past U+10FFFF, stray continuation bytes and truncated sequences included).
 */
function decodeSequence(text: string, i: number, end: number): [string, number] | null {
  const b0 = byteAt(text, i, end);
  if (b0 < 0x80) return [String.fromCharCode(b0), i + 3];
  let need: number;
  let cp: number;
  let min: number;
  if (b0 >= 0xc2 && b0 <= 0xdf) (need = 1), (cp = b0 & 0x1f), (min = 0x80);
  else if (b0 >= 0xe0 && b0 <= 0xef) (need = 2), (cp = b0 & 0x0f), (min = 0x800);
  else if (b0 >= 0xf0 && b0 <= 0xf4) (need = 3), (cp = b0 & 0x07), (min = 0x10000);
  else return null;
  let j = i + 3;
  for (let n = 0; n < need; n++, j += 3) {
    if (text.charCodeAt(j) !== 37) return null;
    const b = byteAt(text, j, end);
    if (b < 0x80 || b > 0xbf) return null;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return [String.fromCodePoint(cp), j];
}

/** How far an invalid sequence at `i` reaches, for the fault's text: the bytes its lead byte announces, up to and including the first that does not fit. */
function invalidSpan(text: string, i: number, end: number): number {
  const lead = byteAt(text, i, end);
  const length = lead >= 0xf0 && lead <= 0xf7 ? 4 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xc0 && lead <= 0xdf ? 2 : 1;
  let j = i + 3;
  for (let n = 1; n < length && text.charCodeAt(j) === 37; n++) {
    const b = byteAt(text, j, end);
    if (b < 0) break;
    j += 3;
    if (b < 0x80 || b > 0xbf) break;
  }
  return j;
}

/**
 * Decodes every `%XX` in `text[from..to)` as UTF-8. Strict mode (an `onFault` given) hands each
 * malformed escape, invalid UTF-8 sequence or lone surrogate to `onFault`, which throws. Lenient
 * mode (no `onFault`) keeps whatever does not decode exactly as it came. `+` is always a plus.
 */
export function percentDecode(
  text: string,
  from = 0,
  to = text.length,
  onFault?: (fault: PercentFault) => never,
): string {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  // The common case natively: decodeURIComponent is exactly as strict about escapes and UTF-8.
  // Only a fault, or a surrogate to check, takes the scanner below, which knows positions.
  if (!onFault || !/[\uD800-\uDFFF]/.test(part)) {
    if (part.indexOf('%') < 0) return part;
    try {
      return decodeURIComponent(part);
    } catch {
      // fall through to the scanner
    }
  }
  return scan(text, from, to, onFault);
}

function scan(text: string, from: number, to: number, onFault?: (fault: PercentFault) => never): string {
  let out = '';
  let start = from;
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    if (code === 37) {
      const byte = byteAt(text, i, to);
      if (byte < 0) {
        if (onFault) onFault({ kind: 'MALFORMED_ESCAPE', index: i, text: text.slice(i, Math.min(i + 3, to)) });
        i++;
        continue;
      }
      const decoded = decodeSequence(text, i, to);
      if (decoded) {
        out += text.slice(start, i) + decoded[0];
        start = i = decoded[1];
        continue;
      }
      if (onFault) onFault({ kind: 'INVALID_UTF8', index: i, text: text.slice(i, invalidSpan(text, i, to)) });
      i += 3;
      continue;
    }
    if (onFault && code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff && i + 1 < to) {
        i += 2;
        continue;
      }
      onFault(surrogateFault(text, i));
    }
    i++;
  }
  return start === from ? text.slice(from, to) : out + text.slice(start, to);
}
