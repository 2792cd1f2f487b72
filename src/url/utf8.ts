// Reading and writing UTF-8 percent escapes on a server: one pass each with charCodeAt and slices,
// and no call into the engine (decodeURIComponent and encodeURIComponent are runtime calls that
// cost more than the whole loop on a URL). package.json's "browser" field puts utf8.browser.ts in
// this file's place in an app's browser build, which is smaller; the two agree
// (test/fuzz/percent.test.ts). Internal: no DOM, no Node.

/** The value of a hex digit's character code, or 256 when it is none. */
function hex(code: number): number {
  const lower = code | 32;
  return code >= 48 && code <= 57 ? code - 48 : lower >= 97 && lower <= 102 ? lower - 87 : 256;
}

/** The byte of the escape at `i` of `text`, or a number over 255 when no escape starts there. */
function escaped(text: string, i: number): number {
  return text.charCodeAt(i) === 37 ? 16 * hex(text.charCodeAt(i + 1)) + hex(text.charCodeAt(i + 2)) : 256;
}

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8: a character is 1 to 4 escapes as RFC 3629 §4
 * (and so decodeURIComponent) allows them, with no overlong form, no surrogate and nothing past
 * U+10FFFF. An escape that starts no character stays as it came, or with `stop` its index is the answer.
 */
export function decodeUtf8(text: string, from: number, stop: boolean): string | number {
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
    } else if (stop) return i;
    else i = text.indexOf('%', i + 1);
  }
  return out + text.slice(start);
}

/**
 * For each ASCII code, the escape to write for it, or undefined to keep it as it is; for each code
 * 128-255, the escape of that byte (every byte of a non-ASCII character is escaped).
 */
type EscapeTable = readonly (string | undefined)[];

/** An escape table that keeps exactly the ASCII characters `keep` matches (a one-character RegExp). */
function escapeTable(keep: RegExp): EscapeTable {
  return Array.from({ length: 256 }, (_, code) =>
    keep.test(String.fromCharCode(code)) ? undefined : (code < 16 ? '%0' : '%') + code.toString(16).toUpperCase(),
  );
}

// The table of the last `keep` asked for, built at its first use: the codec has one.
let tableOf: RegExp | undefined;
let lastTable: EscapeTable = [];

/**
 * UTF-8 percent-encodes `text` from `from` in one pass: the ASCII characters `keep` matches (an
 * ASCII-only, one-character RegExp matching at least all that encodeURIComponent leaves raw,
 * `\w-.!~*'()`, as utf8.browser.ts needs) as they are, every other character as the escapes of its
 * UTF-8 bytes, all from a table. A run of characters that needs nothing is copied in one slice. A
 * lone surrogate has no UTF-8: null.
 */
export function encodeUtf8(text: string, keep: RegExp, from: number): string | null {
  const table = keep === tableOf ? lastTable : (lastTable = escapeTable((tableOf = keep)));
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
      if (rest >> 11 === 0x1b) return null;
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
    start = i + 1;
  }
  return out + text.slice(start);
}
