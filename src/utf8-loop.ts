// Reading UTF-8 percent escapes on a server: one pass with charCodeAt and slices, and no call into
// the engine (decodeURIComponent is a runtime call that costs more than the whole loop on a URL).
// package.json's "browser" field puts utf8-builtin.ts in this file's place in an app's browser
// build, which is smaller; the two agree (test/fuzz/percent.test.ts). Internal: no DOM, no Node.

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
