import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, toUglyUrl } from '../../src/url/codec.js';
import { isCanonicalPath, normalizeLocation, stripAnchor, toLocation, toUrl } from '../../src/url/location.js';
import { costRatio } from '../cost.js';

describe('toLocation', () => {
  it.each([
    // clean, pretty and ugly, absolute and origin-relative, for one state
    ['/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['https://example.com/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['/#!/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['https://example.com/#!/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['/?_escaped_fragment_=/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['https://example.com/?_escaped_fragment_=/books/42?tab=reviews', '/', '/books/42?tab=reviews'],
    ['/books/42?tab=reviews&_escaped_fragment_=', '/', '/books/42?tab=reviews'],
    // with a base
    ['/app/books/42?tab=reviews', '/app/', '/books/42?tab=reviews'],
    ['/app/#!/books/42?tab=reviews', '/app', '/books/42?tab=reviews'],
    ['//cdn.test/app/?_escaped_fragment_=/books/42?tab=reviews', '/app/', '/books/42?tab=reviews'],
    ['/app/books/42?tab=reviews&_escaped_fragment_=', '/app/', '/books/42?tab=reviews'],
    ['/app', '/app/', '/'],
    ['/app/', '/app/', '/'],
    ['/app/?_escaped_fragment_=', '/app/', '/'],
    ['/app/#!', '/app/', '/'],
    ['/app/index.html#!/books', '/app/', '/books'],
    // the fragment rule: no leading `/` is a query on the base path
    ['/#!key1=value1&key2=value2', '/', '/?key1=value1&key2=value2'],
    ['/?_escaped_fragment_=key1=value1%26key2=value2', '/', '/?key1=value1&key2=value2'],
    ['/Showcase.html#!CwRadioButton', '/', '/?CwRadioButton'],
    ['/#!?x=1', '/', '/?x=1'],
    // in-page anchors ride inside the state; a plain anchor is an anchor
    ['/app/#!/books/42#reviews', '/app/', '/books/42#reviews'],
    ['/app/?_escaped_fragment_=/books/42%23reviews', '/app/', '/books/42#reviews'],
    ['/app/books/42#reviews', '/app/', '/books/42#reviews'],
    ['/app/#!key=v#top', '/app/', '/?key=v#top'],
    ['/app/#!#top', '/app/', '/#top'],
    ['/#!/a#b#c', '/', '/a#b%23c'],
    // a non-empty escaped fragment wins over the URL's own path and query
    ['/app/books/1?x=1&_escaped_fragment_=/books/2', '/app/', '/books/2'],
    // Bing's quirk
    ['/?&_escaped_fragment_=', '/', '/'],
  ])('reads %s (base %s) as %s', (url, base, location) => {
    expect(toLocation(url, { base })).toBe(location);
  });

  it.each([
    [' /books/42 ', '/books/42'],
    ['\t\n https://example.com/books/42?tab=x\r\n', '/books/42?tab=x'],
    ['/a/ ', '/a/'],
    ['\u0000/x\u001f', '/x'],
    ['/bo\toks/4\n2?t\rab=1', '/books/42?tab=1'],
    ['/q/a b ?x= 1 ', '/q/a%20b%20?x=%201'],
    ['/q/a\u0001b', '/q/a%01b'],
    [' /#!/books/42 ', '/books/42'],
    [' /?_escaped_fragment_=/books/42 ', '/books/42'],
  ])('reads %j as the URL parser reads the string, as %s', (url, location) => {
    expect(toLocation(url)).toBe(location);
  });

  it('reads a URL string with controls and spaces around it, and tabs and newlines in it, as the URL without them', () => {
    const blank = fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u001f', '\f');
    const part = fc.constantFrom('/', 'a', 'é', '%41', '%2F', '?', '=', '&', '#', '#!', '!', ' ', '.', '_escaped_fragment_=');
    const cut = fc.constantFrom('\t', '\n', '\r');
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 12 }),
        fc.array(blank, { maxLength: 3 }),
        fc.array(blank, { maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), cut), { maxLength: 3 }),
        (parts, before, after, cuts) => {
          // A URL of the app: it starts with `/` and neither starts nor ends with a blank.
          const url = `/${parts.join('')}`.replace(/[\0- ]+$/, '') || '/';
          const noisy = [...url];
          for (const [at, char] of cuts) noisy.splice(1 + (at % url.length), 0, char);
          const read = (text: string) => {
            try {
              return toLocation(text);
            } catch (error) {
              return (error as Error).message;
            }
          };
          expect(read(before.join('') + noisy.join('') + after.join(''))).toBe(read(url));
        },
      ),
      { seed: 460, numRuns: 500 },
    );
  });

  it('drops the blanks of a URL string in linear time, a long run inside it too', () => {
    // A run inside is matched once, whole: a `[…]+$` would retry it from each of its characters.
    const url = (n: number) => `${' '.repeat(n)}/a${' '.repeat(n)}x${' \t'.repeat(n / 2)}`;
    const long = url(16_384);
    const short = url(2_048);
    // 8 times longer, 8 times the cost, not 64; the bound is the one of the escapes' test below.
    const ratio = costRatio(
      () => toLocation(long),
      () => toLocation(short),
      { repeat: 5, baselineRepeat: 40 },
    );
    expect(ratio).toBeLessThan(44);
  });

  it.each([
    ['/app/#!/q/café'],
    ['/app/#!/q/caf%C3%A9'],
    ['/app/#!/q/caf%c3%a9'],
    ['/app/?_escaped_fragment_=/q/caf%25C3%25A9'],
    ['/app/?_escaped_fragment_=/q/caf%C3%A9'],
    ['/app/q/café'],
    ['/app/q/caf%C3%A9'],
    ['https://example.com/app/q/%63af%C3%A9'],
  ])('resolves %s to the one state /q/caf%C3%A9, whatever the encoding', (url) => {
    expect(toLocation(url, { base: '/app/' })).toBe('/q/caf%C3%A9');
  });

  it.each([
    ['/a/./b/../c', '/a/c'],
    ['/a/%2e%2E/b', '/b'],
    ['//evil.test/x', '/x'],
    ['/#!//evil.test/x', '/evil.test/x'],
    ['/#!/\\evil.test', '/%5Cevil.test'],
    ['/a//b///c/', '/a/b/c/'],
    ['/q/a b?x=a b&y="<>"', '/q/a%20b?x=a%20b&y=%22%3C%3E%22'],
    ['/q/%7e%41?%7E', '/q/~A?~'],
    ['/q/%zz?x=%4', '/q/%25zz?x=%254'],
    ['/q/C++?q=C++', '/q/C++?q=C++'],
    ['/q/%2F%2B%25', '/q/%2F%2B%25'],
    ['/x?', '/x'],
    ['/x#', '/x'],
    // An anchor that starts with `!` would read as a #! state in a clean URL.
    ['/#!/x#!y', '/x#%21y'],
  ])('writes %s in canonical spelling as %s', (url, location) => {
    expect(toLocation(url)).toBe(location);
  });

  it.each([
    ['/other/books', '/app/'],
    ['/application', '/app/'],
    ['/other/?_escaped_fragment_=/books', '/app/'],
    ['/other/#!/books', '/app/'],
  ])('returns null for %s, outside base %s', (url, base) => {
    expect(toLocation(url, { base })).toBeNull();
  });

  it.each([
    ['/?_escaped_fragment_=%zz', 'MALFORMED_ESCAPE'],
    ['/?_escaped_fragment_=%C3', 'INVALID_UTF8'],
    ['/?_escaped_fragment_=a&b', 'NOT_UGLY'],
    ['/?_escaped_fragment_=a&_escaped_fragment_=b', 'NOT_UGLY'],
    ['/books?_escaped_fragment_&x=1', 'NOT_UGLY'],
  ])('throws the codec’s error for the malformed ugly URL %s', (url, code) => {
    expect(() => toLocation(url)).toThrow(CodecError);
    expect(() => toLocation(url)).toThrow(expect.objectContaining({ code }));
  });
});

describe('canonical spelling of escape runs', () => {
  it.each([
    ['/%2f%41%7e%7E%25%c3%a9%zz%', '/%2FA~~%25%C3%A9%25zz%25'],
    ['/a%2D%2e%5f%30b%21%2A%40', '/a-._0b%21%2A%40'],
    ['/%2e%2E/x/%2E', '/x/'],
    ['/q?%3d%3D%3f&k=%ff%FE', '/q?%3D%3D%3F&k=%FF%FE'],
    ['/\uD800x\uD83D\uDE00', '/%EF%BF%BDx%F0%9F%98%80'],
    // A browser's URL parser escapes `'` in a query (not in a path or a `#!` fragment): one spelling.
    ['/it%27s?q=O%27Reilly&k=%27', "/it's?q=O'Reilly&k='"],
  ])('writes %s as %s', (raw, canonical) => {
    const text = JSON.parse(`"${raw}"`) as string;
    expect(toLocation(text)).toBe(canonical);
    expect(toLocation(canonical)).toBe(canonical);
  });

  it('canonicalises a 16 kB path of escapes in linear time, whichever escapes it holds', () => {
    for (const run of ['%25', '%2f', '%41%2f', '%c3%a9', '%7E']) {
      const path = (bytes: number) => '/' + run.repeat(Math.floor(bytes / run.length));
      const long = path(16_384);
      const short = path(2_048);
      let i = 0;
      // 8 times longer, 8 times the cost, not 64: each escape costing a call of its own was 3.7 ms and more.
      // A path of %41%2f (an escape decoded, one kept, in turn) measures 7-8 here, but past 16-32 kB
      // it costs about twice as much a byte (31 for 32 kB against 2 kB), and one clean-clone run with
      // two CPU hogs measured 29.6 for this pair: the bound stays below a quadratic 64, above that.
      const ratio = costRatio(
        () => toLocation(long + i++),
        () => toLocation(short + i++),
        { repeat: 5, baselineRepeat: 40 },
      );
      expect(ratio, run).toBeLessThan(44);
    }
  });
});

describe('the characters kept raw', () => {
  // RFC 3986 pchar: unreserved, sub-delims, `:` and `@`. Each regexp of location.ts writes the set out.
  const pchar = /^[A-Za-z0-9_\-.~!$&'()*+,;=:@]$/;
  const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

  it('are pchar and `/` in a path, whether it is read as canonical or rewritten', () => {
    for (const c of ascii.filter((c) => c !== '?' && c !== '#')) {
      const raw = pchar.test(c) || c === '/';
      expect([c, normalizeLocation(`/x${c}y`) === `/x${c}y`]).toEqual([c, raw]);
      expect([c, isCanonicalPath(`/x${c}y`)]).toEqual([c, raw]);
    }
  });

  it('are pchar, `/` and `?` in a query and in an anchor', () => {
    for (const c of ascii.filter((c) => c !== '#')) {
      const raw = pchar.test(c) || c === '/' || c === '?';
      expect([c, normalizeLocation(`/?x${c}y`) === `/?x${c}y`]).toEqual([c, raw]);
      expect([c, normalizeLocation(`/#x${c}y`) === `/#x${c}y`]).toEqual([c, raw]);
    }
  });
});

describe("a ' in the query, escaped by the browser in one form only", () => {
  it('is one location from the clean URL a browser sends, the #! URL and the ugly URL', () => {
    const clean = new URL("https://example.com/q?a=O'Reilly");
    expect(clean.search).toBe('?a=O%27Reilly');
    const forms = [clean.href, "https://example.com/#!/q?a=O'Reilly", toUglyUrl("https://example.com/#!/q?a=O'Reilly")];
    expect(forms.map((url) => toLocation(url))).toEqual(Array(3).fill("/q?a=O'Reilly"));
  });
});

describe('toUrl', () => {
  it.each([
    ['/books/42?tab=x', {}, '/books/42?tab=x'],
    ['/books/42?tab=x', { base: '/app' }, '/app/books/42?tab=x'],
    ['/', { base: '/app/' }, '/app/'],
    ['/books/42?tab=x', { base: '/app', mode: 'hashbang' as const }, '/app/#!/books/42?tab=x'],
    ['/', { mode: 'hashbang' as const }, '/#!/'],
    ['/?key1=value1&key2=value2', { mode: 'hashbang' as const }, '/#!key1=value1&key2=value2'],
    ['/?/looks-like-a-path', { mode: 'hashbang' as const }, '/#!/?/looks-like-a-path'],
    ['/books/42#reviews', { mode: 'hashbang' as const }, '/#!/books/42#reviews'],
    ['/books/42', { origin: 'https://example.com/', base: '/app/' }, 'https://example.com/app/books/42'],
    ['/q/café', {}, '/q/caf%C3%A9'],
    ['//evil.test', {}, '/evil.test'],
    ['/x#!y', {}, '/x#%21y'],
  ])('writes %s with %o as %s', (location, options, url) => {
    expect(toUrl(location, options)).toBe(url);
  });
});

// Random states: path segments and query values holding space, &, =, #, %, +, /, ? and non-ASCII.
const raw = fc.string({ unit: fc.constantFrom(...'ab Z9&=#%+/?é日😀.-~'.split(/(?:)/u)), maxLength: 8 });
const state = fc.record({
  segments: fc.array(
    raw.filter((s) => s !== '' && s !== '.' && s !== '..'),
    { maxLength: 4 },
  ),
  query: fc.array(
    fc.tuple(
      raw.filter((k) => k !== ''),
      raw,
    ),
    { maxLength: 3 },
  ),
  base: fc.constantFrom('/', '/app/', '/a b/'),
});
const encode = encodeURIComponent;
// What a browser shows: non-ASCII left raw, reserved ASCII escaped.
const encodeLikeABrowser = (s: string) => s.replace(/[^\u0080-\uFFFF]+/g, (ascii) => encode(ascii));

function forms(s: { segments: string[]; query: [string, string][] }, enc: (s: string) => string) {
  const path = '/' + s.segments.map(enc).join('/');
  const query = s.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  return path + (query ? '?' + query : '');
}

describe('one state, three forms, for all states', () => {
  it('toLocation gives one location for the clean, pretty and ugly URL, absolute or relative', () => {
    fc.assert(
      fc.property(state, (s) => {
        const location = forms(s, encode);
        const clean = toUrl(location, { base: s.base });
        const pretty = toUrl(location, { base: s.base, mode: 'hashbang' });
        const shown = toUrl(s.base, {}) + '#!' + forms(s, encodeLikeABrowser);
        const expected = toLocation(clean, { base: s.base });
        const all = [
          pretty,
          toUglyUrl(pretty),
          shown,
          toUglyUrl(shown),
          'https://example.com' + clean,
          'https://example.com' + toUglyUrl(pretty),
        ];
        return expected !== null && all.every((url) => toLocation(url, { base: s.base }) === expected);
      }),
      { numRuns: 1500, seed: 5 },
    );
  });

  it('toLocation(toUrl(location)) is the location in both modes', () => {
    fc.assert(
      fc.property(state, fc.constantFrom('history' as const, 'hashbang' as const), (s, mode) => {
        const location = toLocation(forms(s, encode)) as string;
        return toLocation(toUrl(location, { base: s.base, mode }), { base: s.base }) === location;
      }),
      { numRuns: 1500, seed: 6 },
    );
  });
});

describe('stripAnchor', () => {
  it.each([
    ['/a?b=c#d#e', '/a?b=c'],
    ['/a?b=c', '/a?b=c'],
    ['https://example.com/app/#!/books/1', 'https://example.com/app/'],
    ['#only', ''],
  ])('gives the text of %s before its first #: %s', (text, expected) => {
    expect(stripAnchor(text)).toBe(expected);
  });
});
