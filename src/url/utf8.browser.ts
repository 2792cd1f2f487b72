// Reading and writing UTF-8 percent escapes in a browser, with the engine's decodeURIComponent and
// encodeURIComponent: smaller than utf8.ts, which package.json's "browser" field puts it in
// place of, and slower, which a page that reads a URL per navigation never sees. The two agree
// (test/fuzz/percent.test.ts).
// Internal: no DOM, no Node.

/**
 * The escapes of one character as RFC 3629 §4 (and so decodeURIComponent) allows them: 1 to 4, with
 * no overlong form, no surrogate and nothing past U+10FFFF. Else a `%` alone, which starts none.
 */
const CHARACTER =
  /%(?:[0-7][\dA-F]|(?:C[2-9A-F]|D[\dA-F]|E(?:0%[AB]|[1-9A-CEF]%[89AB]|D%[89])[\dA-F]|F(?:0%[9AB]|[1-3]%[89AB]|4%8)[\dA-F]%[89AB][\dA-F])%[89AB][\dA-F])|%/gi;

/**
 * Decodes every `%XX` in `text` from `from` as UTF-8, as utf8.ts does: text that decodes whole
 * takes one call, other text a call per character the pattern matches, so that a long run of bad
 * escapes throws no error per escape.
 */
export function decodeUtf8(text: string, from: number, stop: boolean): string | number {
  const part = text.slice(from);
  try {
    return decodeURIComponent(part);
  } catch {
    // some escape starts no character: found below
  }
  let fault = -1;
  const out = part.replace(CHARACTER, (escapes, at: number) =>
    escapes.length > 1 ? decodeURIComponent(escapes) : (fault < 0 && (fault = from + at), escapes),
  );
  return stop ? fault : out;
}

/**
 * UTF-8 percent-encodes `text` from `from` as utf8.ts does: what encodeURIComponent writes,
 * with its escapes of the ASCII characters `keep` matches (which match at least all it leaves raw,
 * `\w-.!~*'()`) undone. encodeURIComponent throws for a lone surrogate: null.
 */
export function encodeUtf8(text: string, keep: RegExp, from: number): string | null {
  try {
    return encodeURIComponent(text.slice(from)).replace(/%[0-7][\dA-F]/g, (escape) => {
      const char = String.fromCharCode(parseInt(escape.slice(1), 16));
      return keep.test(char) ? char : escape;
    });
  } catch {
    return null;
  }
}
