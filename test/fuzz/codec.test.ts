import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, escapeFragment, isPrettyUrl, isUglyUrl, toPrettyUrl, toUglyUrl, unescapeFragment } from '../../src/url/codec.js';
import { fuzz } from './runs.js';

// test/url/codec.test.ts proves the round trip for short strings of any code point and pretty URLs
// over a small alphabet. These extend it: an independent byte-level model of the escaping, long
// and escape-like text, URLs of any Unicode, and any string at all, well-formed or not.

/** The scheme's escaping written from its text, over TextEncoder's UTF-8 bytes. */
function modelEscape(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const unsafe = byte <= 0x20 || byte === 0x23 || byte === 0x25 || byte === 0x26 || byte === 0x2b || byte >= 0x7f;
    out += unsafe ? '%' + byte.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(byte);
  }
  return out;
}

// Well-formed Unicode: any code point, whole graphemes, and text that looks like escapes already.
const unicode = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ unit: fc.constantFrom('%', '%25', '%2525', '%C3%A9', '25', 'C3', '+', '&', '#', '=', '!', 'é', ' '), maxLength: 30 }),
);
// Any UTF-16, lone surrogates and malformed escapes included.
const anyText = fc.oneof(
  fc.string({ unit: fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom(
      '%',
      '%z',
      '%4',
      '%C3',
      '%E2%82',
      '%ED%A0%80',
      '%F4%90%80%80',
      '%41',
      '\uD800',
      '\uDC00',
      '#',
      '#!',
      '?',
      '&',
      '_escaped_fragment_',
      '_escaped_fragment_=',
      'a',
    ),
    maxLength: 20,
  }),
);

describe('escapeFragment and unescapeFragment', () => {
  it('escape exactly the bytes the scheme lists, for any well-formed Unicode', () => {
    fc.assert(
      fc.property(unicode, (s) => {
        expect(escapeFragment(s)).toBe(modelEscape(s));
      }),
      fuzz(301, 2000),
    );
  });

  it('round trip escape-like and long text, and decode an escaped escape exactly once', () => {
    fc.assert(
      fc.property(unicode, (s) => {
        const once = escapeFragment(s);
        expect(unescapeFragment(once)).toBe(s);
        expect(unescapeFragment(escapeFragment(once))).toBe(once);
      }),
      fuzz(302, 2000),
    );
  });

  it('decode what decodeURIComponent decodes, or throw a CodecError that points at the fault', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        let native: string | null;
        try {
          native = decodeURIComponent(s);
        } catch {
          native = null;
        }
        const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
        try {
          expect(unescapeFragment(s)).toBe(native);
          expect(lone).toBe(false);
        } catch (error) {
          if (!(error instanceof CodecError)) throw error;
          expect(native === null || lone).toBe(true);
          expect(error.input).toBe(s);
          expect(s[error.index] === '%' || /[\uD800-\uDFFF]/.test(s[error.index] ?? '')).toBe(true);
          expect(error.message).toContain(`at index ${error.index} in `);
        }
      }),
      fuzz(303, 2000),
    );
  });
});

describe('toUglyUrl and toPrettyUrl', () => {
  // Pages and queries of any Unicode: everything but the fragment must stay byte for byte.
  const page = fc
    .tuple(
      fc.constantFrom('', 'https://Ex.COM', 'http://h:8080', '//cdn.test', 'www.example.com'),
      fc.string({ unit: 'binary', maxLength: 30 }),
    )
    .map(([origin, path]) => origin + '/' + path.replace(/[?#]/g, ''));
  const query = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 30 })
    .map((q) => q.replace(/#/g, ''))
    .filter((q) => /[^&]/.test(q) && !/(^|&)_escaped_fragment_($|[=&])/.test(q));

  it('keep every byte before the fragment and map back, for URLs of any Unicode', () => {
    fc.assert(
      fc.property(page, fc.option(query, { nil: undefined }), unicode, (p, q, fragment) => {
        const before = p + (q === undefined ? '' : '?' + q);
        const url = before + '#!' + fragment;
        const ugly = toUglyUrl(url);
        expect(ugly.startsWith(before)).toBe(true);
        expect(isUglyUrl(ugly) && !isPrettyUrl(ugly)).toBe(true);
        expect(toPrettyUrl(ugly)).toBe(fragment === '' ? before : url);
      }),
      fuzz(304, 2000),
    );
  });

  it('agree with isUglyUrl and isPrettyUrl on any string, and throw nothing but a CodecError', () => {
    const url = fc.tuple(fc.constantFrom('', '/', 'https://example.com/', '/a?b=1'), anyText).map(([head, tail]) => head + tail);
    fc.assert(
      fc.property(url, (u) => {
        const outcome = (map: (u: string) => string): string => {
          try {
            map(u);
            return 'ok';
          } catch (error) {
            if (!(error instanceof CodecError)) throw error;
            return error.code;
          }
        };
        const pretty = outcome(toPrettyUrl);
        const ugly = outcome(toUglyUrl);
        expect(pretty === 'NOT_UGLY').toBe(!isUglyUrl(u));
        if (isPrettyUrl(u)) expect(['ok', 'LONE_SURROGATE']).toContain(ugly);
        if (isUglyUrl(u)) expect(ugly).toBe('NOT_PRETTY');
      }),
      fuzz(305, 3000),
    );
  });
});
