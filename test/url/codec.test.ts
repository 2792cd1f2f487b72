import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  escapeFragment,
  isPrettyUrl,
  isUglyUrl,
  readUglyUrl,
  toPrettyUrl,
  toUglyUrl,
  uglyState,
  unescapeFragment,
  type UglyState,
} from '../../src/url/codec.js';
import { inProduction, thrown } from '../production.js';

// Every pretty/ugly pair the scheme's published texts give as examples (the agreement, the
// webmaster guides in English and French, the FAQ, the 2009 proposal), both directions.
const specPairs: [pretty: string, ugly: string][] = [
  ['www.example.com?myquery#!key1=value1&key2=value2', 'www.example.com?myquery&_escaped_fragment_=key1=value1%26key2=value2'],
  ['www.example.com#!key1=value1&key2=value2', 'www.example.com?_escaped_fragment_=key1=value1%26key2=value2'],
  ['www.example.com?user=userid#!key1=value1&key2=value2', 'www.example.com?user=userid&_escaped_fragment_=key1=value1%26key2=value2'],
  ['http://www.example.com/index.html#!mystate', 'http://www.example.com/index.html?_escaped_fragment_=mystate'],
  ['http://www.example.com/ajax.html#!mystate', 'http://www.example.com/ajax.html?_escaped_fragment_=mystate'],
  ['www.example.com/ajax.html#!mon_état', 'www.example.com/ajax.html?_escaped_fragment_=mon_%C3%A9tat'],
  [
    'http://gwt.google.com/samples/Showcase/Showcase.html#!CwRadioButton',
    'http://gwt.google.com/samples/Showcase/Showcase.html?_escaped_fragment_=CwRadioButton',
  ],
  ['http://example.com/ajax.html#!foo=123', 'http://example.com/ajax.html?_escaped_fragment_=foo=123'],
  ['https://example.com/page?query#!state', 'https://example.com/page?query&_escaped_fragment_=state'],
  ['https://example.com/dictionary.html#!AJAX', 'https://example.com/dictionary.html?_escaped_fragment_=AJAX'],
  // The meta-tag form: a page with no fragment, fetched with an empty escaped fragment.
  ['www.example.com', 'www.example.com?_escaped_fragment_='],
  ['http://www.example.com', 'http://www.example.com?_escaped_fragment_='],
  ['domain:8080/path?queryparams', 'domain:8080/path?queryparams&_escaped_fragment_='],
];

describe('the scheme’s own examples', () => {
  it.each(specPairs)('maps %s to its ugly URL', (pretty, ugly) => {
    expect(toUglyUrl(pretty)).toBe(ugly);
  });
  it.each(specPairs)('maps the ugly URL of %s back', (pretty, ugly) => {
    expect(toPrettyUrl(ugly)).toBe(pretty);
  });
  it.each([
    ['%26', '&'],
    ['%20', ' '],
    ['%23', '#'],
    ['%25', '%'],
  ])('unescapes %s to %j as the webmaster guide lists', (escaped, plain) => {
    expect(unescapeFragment(escaped)).toBe(plain);
  });
});

describe('escapeFragment', () => {
  const escaped = (code: number) => code <= 0x20 || code === 0x23 || code === 0x25 || code === 0x26 || code === 0x2b || code >= 0x7f;
  const codes = Array.from({ length: 256 }, (_, i) => [i.toString(16).toUpperCase().padStart(2, '0'), i] as const);

  it.each(codes.filter(([, c]) => c < 0x80))('escapes byte 0x%s exactly when it is in %00-20 %23 %25-26 %2B %7F', (_, code) => {
    const char = String.fromCharCode(code);
    const hex = code.toString(16).toUpperCase().padStart(2, '0');
    expect(escapeFragment(char)).toBe(escaped(code) ? `%${hex}` : char);
  });

  it.each(codes.filter(([, c]) => c >= 0x80))('escapes U+00%s as its two UTF-8 bytes, both in %80-FF', (_, code) => {
    const bytes = [0xc0 | (code >> 6), 0x80 | (code & 63)];
    expect(escapeFragment(String.fromCharCode(code))).toBe(bytes.map((b) => '%' + b.toString(16).toUpperCase()).join(''));
  });

  it.each([
    ['é', '%C3%A9'],
    ['日本', '%E6%97%A5%E6%9C%AC'],
    ['😀', '%F0%9F%98%80'],
    ['a+b c', 'a%2Bb%20c'],
    ['100%', '100%25'],
    ['/books/42?tab=x&y=1#reviews', '/books/42?tab=x%26y=1%23reviews'],
    ['!$\'()*,/:;=?@[]~"<>\\^`{|}', '!$\'()*,/:;=?@[]~"<>\\^`{|}'],
  ])('encodes %j as %s', (text, out) => {
    expect(escapeFragment(text)).toBe(out);
  });

  it('refuses a lone surrogate with its position', () => {
    expect(() => escapeFragment('ab\uD800x')).toThrow(
      expect.objectContaining({
        name: 'CodecError',
        code: 'LONE_SURROGATE',
        index: 2,
        message: 'lone surrogate "\\ud800" at index 2 in "ab\\ud800x"',
      }),
    );
    expect(() => escapeFragment('\uDC00')).toThrow('lone surrogate "\\udc00" at index 0');
  });
});

describe('unescapeFragment', () => {
  it.each([
    ['a+b', 'a+b'],
    ['C%2B%2B', 'C++'],
    ['%2525', '%25'],
    ['%252525', '%2525'],
    ['caf%C3%A9', 'café'],
    ['caf%c3%a9', 'café'],
    ['%F0%9F%98%80', '😀'],
    ['already é raw', 'already é raw'],
    ['%00%7F', '\u0000\u007f'],
    ['', ''],
  ])('decodes %j once, to %j', (text, out) => {
    expect(unescapeFragment(text)).toBe(out);
  });

  it.each([
    ['ab%zz', 'MALFORMED_ESCAPE', 'malformed escape "%zz" at index 2 in "ab%zz"'],
    ['%4', 'MALFORMED_ESCAPE', 'malformed escape "%4" at index 0 in "%4"'],
    ['x%', 'MALFORMED_ESCAPE', 'malformed escape "%" at index 1 in "x%"'],
    ['%%41', 'MALFORMED_ESCAPE', 'malformed escape "%%4" at index 0 in "%%41"'],
    ['ab%C3%28x', 'INVALID_UTF8', 'invalid utf8 "%C3%28" at index 2 in "ab%C3%28x"'],
    ['%E6%97', 'INVALID_UTF8', 'invalid utf8 "%E6%97" at index 0 in "%E6%97"'],
    ['%E6%97x', 'INVALID_UTF8', 'invalid utf8 "%E6%97" at index 0 in "%E6%97x"'],
    ['%C0%AF', 'INVALID_UTF8', 'invalid utf8 "%C0%AF" at index 0 in "%C0%AF"'],
    ['%ED%A0%80', 'INVALID_UTF8', 'invalid utf8 "%ED%A0%80" at index 0 in "%ED%A0%80"'],
    ['%F4%90%80%80', 'INVALID_UTF8', 'invalid utf8 "%F4%90%80%80" at index 0 in "%F4%90%80%80"'],
    ['ok%FF', 'INVALID_UTF8', 'invalid utf8 "%FF" at index 2 in "ok%FF"'],
    ['%80', 'INVALID_UTF8', 'invalid utf8 "%80" at index 0 in "%80"'],
    ['a\uDFFFb', 'LONE_SURROGATE', 'lone surrogate "\\udfff" at index 1 in "a\\udfffb"'],
    ['😀é%zz', 'MALFORMED_ESCAPE', 'malformed escape "%zz" at index 3 in "😀é%zz"'],
    ['%F0%9F%98%80\uD800', 'LONE_SURROGATE', 'lone surrogate "\\ud800" at index 12 in "%F0%9F%98%80\\ud800"'],
  ])('refuses %j as %s', (text, code, message) => {
    let caught: unknown;
    try {
      unescapeFragment(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CodecError);
    expect(caught).toMatchObject({ code, message, input: text, name: 'CodecError' });
  });

  it.each(Array.from({ length: 256 }, (_, i) => '%' + i.toString(16).toUpperCase().padStart(2, '0')))(
    'decodes %s as a byte: ASCII alone, the rest only inside UTF-8',
    (escape) => {
      const byte = parseInt(escape.slice(1), 16);
      if (byte < 0x80) expect(unescapeFragment(escape)).toBe(String.fromCharCode(byte));
      else expect(() => unescapeFragment(escape)).toThrow(/invalid utf8/);
    },
  );

  it('cuts a 10 kB input in its message around the fault', () => {
    const text = 'a'.repeat(10_000) + '%zz' + 'b'.repeat(10_000);
    let message = '';
    try {
      unescapeFragment(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith('malformed escape "%zz" at index 10000 in …"')).toBe(true);
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('%zz');
  });
});

describe('toUglyUrl and toPrettyUrl', () => {
  it.each([
    ['HTTP://Ex.COM:80/a/./b/../%7e?x=%7e&y=a+b#!s', 'HTTP://Ex.COM:80/a/./b/../%7e?x=%7e&y=a+b&_escaped_fragment_=s'],
    ['https://user:pw@[::1]:8443/p;m?x#!/a b', 'https://user:pw@[::1]:8443/p;m?x&_escaped_fragment_=/a%20b'],
    ['/#!/books/42#reviews', '/?_escaped_fragment_=/books/42%23reviews'],
    ['/app/#!/q/caf%C3%A9', '/app/?_escaped_fragment_=/q/caf%25C3%25A9'],
    ['/#!/q/C++', '/?_escaped_fragment_=/q/C%2B%2B'],
    ['/?a=1&#!x', '/?a=1&&_escaped_fragment_=x'],
    ['/?#!x', '/?_escaped_fragment_=x'],
    ['/#!!', '/?_escaped_fragment_=!'],
  ])('keeps everything but the fragment byte for byte: %s', (pretty, ugly) => {
    expect(toUglyUrl(pretty)).toBe(ugly);
  });

  it.each([
    ['/?&_escaped_fragment_=', '/'],
    ['/?&_escaped_fragment_=/books', '/#!/books'],
    ['/page?_escaped_fragment_=', '/page'],
    ['/page?x=1&_escaped_fragment_=', '/page?x=1'],
    ['/?_escaped_fragment_=C%2B%2B', '/#!C++'],
    ['/?_escaped_fragment_=a+b', '/#!a+b'],
    ['/?_escaped_fragment_=%2525', '/#!%25'],
    ['/?_escaped_fragment_=/q/caf%25C3%25A9', '/#!/q/caf%C3%A9'],
    ['/?escaped_fragment_x=1&_escaped_fragment_=s', '/?escaped_fragment_x=1#!s'],
    ['/?_escaped_fragment_x=1&_escaped_fragment_=s', '/?_escaped_fragment_x=1#!s'],
  ])('reads %s as %s', (ugly, pretty) => {
    expect(toPrettyUrl(ugly)).toBe(pretty);
  });

  it('maps a #! URL with an empty state to the meta-tag form', () => {
    expect(toUglyUrl('/page#!')).toBe('/page?_escaped_fragment_=');
  });

  it.each([
    ['/?_escaped_fragment_=ab%zz', 'MALFORMED_ESCAPE', 'malformed escape "%zz" at index 23 in "/?_escaped_fragment_=ab%zz"'],
    ['/p?x=1&_escaped_fragment_=%C3', 'INVALID_UTF8', 'invalid utf8 "%C3" at index 26 in "/p?x=1&_escaped_fragment_=%C3"'],
    ['/?_escaped_fragment_=a\uD800', 'LONE_SURROGATE', 'lone surrogate "\\ud800" at index 22 in "/?_escaped_fragment_=a\\ud800"'],
    ['/?a=1', 'NOT_UGLY', 'no _escaped_fragment_ parameter in "/?a=1"'],
    ['/page', 'NOT_UGLY', 'no _escaped_fragment_ parameter in "/page"'],
    ['/?_escaped_fragment_=a&b=1', 'NOT_UGLY', '_escaped_fragment_ is not the last parameter at index 2 in "/?_escaped_fragment_=a&b=1"'],
    [
      '/?_escaped_fragment_=a&_escaped_fragment_=b',
      'NOT_UGLY',
      '_escaped_fragment_ is not the last parameter at index 2 in "/?_escaped_fragment_=a&_escaped_fragment_=b"',
    ],
    ['/?_escaped_fragment_=a#b', 'NOT_UGLY', 'fragment "#b" after _escaped_fragment_ at index 22 in "/?_escaped_fragment_=a#b"'],
  ])('toPrettyUrl refuses %j', (url, code, message) => {
    expect(() => toPrettyUrl(url)).toThrow(expect.objectContaining({ code, message }));
  });

  it.each([
    ['/page#top', '"#top" is not a #! fragment at index 5 in "/page#top"'],
    ['/?_escaped_fragment_=x#!y', '_escaped_fragment_ is already a parameter at index 2 in "/?_escaped_fragment_=x#!y"'],
    ['/#!a\uDBFF', 'lone surrogate "\\udbff" at index 4 in "/#!a\\udbff"'],
  ])('toUglyUrl refuses %j', (url, message) => {
    expect(() => toUglyUrl(url)).toThrow(message);
  });
});

describe('isPrettyUrl and isUglyUrl', () => {
  it.each([
    ['/#!/a', true, false],
    ['/#!', true, false],
    ['/#/a', false, false],
    ['/a', false, false],
    ['/?_escaped_fragment_=', false, true],
    ['/?x&_escaped_fragment_=a', false, true],
    ['/?&_escaped_fragment_=', false, true],
    ['/?_escaped_fragment_=%zz', false, true],
    ['/?_escaped_fragment_=a&x', false, false],
    ['/?_escaped_fragment_=a&_escaped_fragment_=b', false, false],
    ['/?_escaped_fragment_=a#!b', false, false],
    ['/?_escaped_fragment_x=a', false, false],
    ['/?x=_escaped_fragment_=a', false, false],
  ])('%s is pretty: %s, ugly: %s', (url, pretty, ugly) => {
    expect(isPrettyUrl(url)).toBe(pretty);
    expect(isUglyUrl(url)).toBe(ugly);
  });
});

describe('round trips for all inputs', () => {
  const text = fc.string({ unit: 'binary', maxLength: 40 });

  it('unescapeFragment(escapeFragment(s)) is s for every well-formed string', () => {
    fc.assert(
      fc.property(text, (s) => unescapeFragment(escapeFragment(s)) === s),
      { numRuns: 2000, seed: 42 },
    );
  });

  it('names the position of a fault after any well-formed text', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('%zz', '%C3', '%ED%A0%80', '\uDC00'), (s, bad) => {
        const escaped = escapeFragment(s);
        try {
          unescapeFragment(escaped + bad);
          return false;
        } catch (error) {
          return (error as CodecError).index === escaped.length;
        }
      }),
      { numRuns: 1000, seed: 21 },
    );
  });

  it('escapeFragment leaves no byte of the escape set raw', () => {
    fc.assert(
      fc.property(text, (s) => /^[!-"$'-*,-~]*$/.test(escapeFragment(s).replace(/%[0-9A-F]{2}/g, ''))),
      { numRuns: 1000, seed: 7 },
    );
  });

  it('escapeFragment either refuses a lone surrogate or round trips, for any UTF-16', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }), (s) => {
        try {
          return unescapeFragment(escapeFragment(s)) === s;
        } catch (error) {
          return (error as CodecError).code === 'LONE_SURROGATE';
        }
      }),
      { numRuns: 1000, seed: 3 },
    );
  });

  const pageChar = fc.constantFrom(..."abcXYZ019-._~!$'()*+,;=:@/%7e".split(''));
  const queryChar = fc.constantFrom(..."abc=&+%é /?:@!$'()*,;~".split(''));
  const page = fc
    .tuple(fc.constantFrom('', 'https://Ex.COM', 'http://h:8080', '//cdn.test'), fc.array(pageChar, { maxLength: 12 }))
    .map(([origin, chars]) => origin + '/' + chars.join(''));
  const query = fc
    .array(queryChar, { minLength: 1, maxLength: 12 })
    .map((chars) => chars.join(''))
    .filter((q) => /[^&]/.test(q) && !/(^|&)_escaped_fragment_/.test(q));

  it('toPrettyUrl(toUglyUrl(u)) is u for pretty URLs with and without a query', () => {
    fc.assert(
      fc.property(
        page,
        fc.option(query, { nil: undefined }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
        (p, q, fragment) => {
          const url = p + (q === undefined ? '' : '?' + q) + '#!' + fragment;
          const ugly = toUglyUrl(url);
          return isUglyUrl(ugly) && !isPrettyUrl(ugly) && toPrettyUrl(ugly) === url;
        },
      ),
      { numRuns: 2000, seed: 11 },
    );
  });
});

describe('errors in a production build', () => {
  it('keep their code, input and index, and have the code as their message instead of the long text', async () => {
    await inProduction(async () => {
      const prod = await import('../../src/url/codec.js');
      const cases: [() => unknown, string, string, number][] = [
        [() => prod.unescapeFragment('ab%zz'), 'MALFORMED_ESCAPE', 'ab%zz', 2],
        [() => prod.toPrettyUrl('/a?_escaped_fragment_=%C3%28'), 'INVALID_UTF8', '/a?_escaped_fragment_=%C3%28', 22],
        [() => prod.toPrettyUrl('/a?_escaped_fragment_=x&b'), 'NOT_UGLY', '/a?_escaped_fragment_=x&b', 3],
        [() => prod.toUglyUrl('/a#b'), 'NOT_PRETTY', '/a#b', 2],
      ];
      for (const [run, code, input, index] of cases) {
        const error = thrown(run);
        expect(error).toBeInstanceOf(prod.CodecError);
        expect(error).toMatchObject({ name: 'CodecError', code, input, index, message: code });
      }
    });
  });
});

describe('faults are the fragment’s own', () => {
  it('reads past a lone surrogate in the page and reports one in the fragment at its index in the URL', () => {
    expect(toPrettyUrl('/\uD800?_escaped_fragment_=a%20')).toBe('/\uD800#!a ');
    expect(() => toPrettyUrl('/\uD800?_escaped_fragment_=a\uDC00')).toThrow(expect.objectContaining({ code: 'LONE_SURROGATE', index: 23 }));
    expect(() => toUglyUrl('/\uD800#!a\uDC00b')).toThrow(expect.objectContaining({ code: 'LONE_SURROGATE', index: 5 }));
    expect(toUglyUrl('/\uD800#!a%C3%A9')).toBe('/\uD800?_escaped_fragment_=a%25C3%25A9');
  });
});

describe('uglyState (the client’s reader)', () => {
  // Ugly-looking URLs, well-formed or not: a page, a query, the parameter anywhere, a fragment.
  const piece = fc.constantFrom(
    '/a',
    '?',
    '&',
    '#',
    '=',
    'x',
    '%',
    '%zz',
    '%C3',
    '%C3%A9',
    '\uDC00',
    '_escaped_fragment_',
    '_escaped_fragment_=',
  );
  const url = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

  it('reads what readUglyUrl reads, and is null exactly where readUglyUrl throws', () => {
    fc.assert(
      fc.property(url, (u) => {
        let expected: UglyState | null;
        try {
          expected = readUglyUrl(u);
        } catch (error) {
          expect(error).toBeInstanceOf(CodecError);
          expected = null;
        }
        expect(uglyState(u)).toEqual(expected);
      }),
      { numRuns: 3000, seed: 17 },
    );
  });

  it.each([
    ['/a?_escaped_fragment_=%2Fb%C3%A9', { page: '/a', fragment: '/bé' }],
    ['/a?&_escaped_fragment_=', { page: '/a', fragment: '' }],
    ['/a?_escaped_fragment_=%zz', null],
    ['/a?_escaped_fragment_=x&b', null],
    ['/a?b', null],
  ])('reads %s as %j', (u, state) => {
    expect(uglyState(u)).toEqual(state);
  });
});
