import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, toUglyUrl } from '../../src/url/codec.js';
import { isCanonicalPath, normalizeLocation, toLocation, toUrl } from '../../src/url/location.js';
import { createRoutes } from '../../src/routes/table.js';
import { fuzz } from './runs.js';

// test/url/location.test.ts proves one location for the three forms over a small alphabet. These extend
// it to states of any Unicode (controls, markup, backslashes, escapes-as-text), each part encoded
// as a browser, a crawler or a hand-written link might, under bases that need escaping themselves,
// and to any string at all given to toLocation.

const HOSTILE = [
  '"><img src=x onerror=alert(1)>',
  '\r\n',
  '\\',
  '%',
  '%2F',
  '%25',
  '%zz',
  '+',
  '&',
  '=',
  '#',
  '?',
  '/',
  ' ',
  '\0',
  '\u2028',
  'é',
  '😀',
  '..',
  '.',
];
const part = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...HOSTILE, 'a', 'Z'), maxLength: 5 }),
);

/** How one piece of the state is written into a URL. */
type Encoder = (text: string) => string;
const encoders: Record<string, Encoder> = {
  // What toUrl and hand-written links write.
  component: encodeURIComponent,
  // What a browser shows: non-ASCII raw, reserved ASCII escaped.
  browser: (text) => text.replace(/[^\u0080-\uFFFF]+/g, (ascii) => encodeURIComponent(ascii)),
  // Lower-case hex, as some crawlers and servers write it.
  lower: (text) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
};

const state = fc.record({
  segments: fc.array(
    part.filter((s) => s !== '' && s !== '.' && s !== '..'),
    { maxLength: 4 },
  ),
  query: fc.array(
    fc.tuple(
      part.filter((k) => k !== '' && k !== '_escaped_fragment_'),
      part,
    ),
    { maxLength: 3 },
  ),
  anchor: fc.option(
    part.filter((a) => a !== ''),
    { nil: undefined },
  ),
  base: fc.constantFrom('/', '/app/', '/a b/', '/日本/', '/%7Eu/'),
  encoder: fc.constantFrom(...Object.keys(encoders)),
  origin: fc.constantFrom('https://example.com', 'http://h:8080', '//cdn.test'),
});

describe('toLocation over the three forms', () => {
  it('reads one location from every form of a state of any Unicode, however it was encoded', () => {
    fc.assert(
      fc.property(state, (s) => {
        const enc = encoders[s.encoder] as Encoder;
        const path = '/' + s.segments.map(enc).join('/');
        const query = s.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
        const raw = path + (query ? '?' + query : '');
        const anchor = s.anchor === undefined ? '' : '#' + enc(s.anchor);
        // The state as the app names it, and its canonical forms.
        const expected = normalizeLocation(raw + anchor);
        const clean = toUrl(expected, { base: s.base });
        const pretty = toUrl(expected, { base: s.base, mode: 'hashbang' });
        // The same state written by hand in the pretty form, encoded as chosen.
        const written = toUrl('/', { base: s.base }) + '#!' + raw + anchor;
        const forms = [clean, pretty, toUglyUrl(pretty), written, toUglyUrl(written), s.origin + clean, s.origin + toUglyUrl(pretty)];
        // The meta-tag form: the clean URL with an empty escaped fragment (a plain anchor never reaches a crawler).
        if (anchor === '') forms.push(toUglyUrl(clean), s.origin + toUglyUrl(clean));
        for (const url of forms) expect({ url, location: toLocation(url, { base: s.base }) }).toEqual({ url, location: expected });
      }),
      fuzz(401, 1500),
    );
  });

  it('turns any string into null, a CodecError, or a canonical location that survives both modes', () => {
    const junk = fc.string({
      unit: fc.constantFrom(
        ...HOSTILE,
        '#!',
        '?_escaped_fragment_=',
        '&_escaped_fragment_=',
        '//evil.test',
        'https://x.test',
        '\uD800',
        'a',
        '/',
      ),
      maxLength: 12,
    });
    const anyUrl = fc.tuple(
      fc.constantFrom('', '/', '/app/', 'https://example.com/app/', '//cdn.test/'),
      fc.oneof(junk, fc.string({ unit: 'binary', maxLength: 30 })),
    );
    fc.assert(
      fc.property(anyUrl, fc.constantFrom('/', '/app/'), ([head, tail], base) => {
        let location: string | null;
        try {
          location = toLocation(head + tail, { base });
        } catch (error) {
          expect(error).toBeInstanceOf(CodecError);
          return;
        }
        if (location === null) return;
        expect(location.startsWith('/')).toBe(true);
        expect(normalizeLocation(location)).toBe(location);
        // Nothing a page or a header could misread: printable ASCII only, no quote, angle bracket or backslash.
        expect(location).toMatch(/^[!#-;=?-[\]-~]*$/);
        // A state whose own query names the scheme's parameter has no clean URL of its own.
        fc.pre(!/[?&]_escaped_fragment_(?:[=&#]|$)/.test(location.split('#', 1)[0] as string));
        for (const mode of ['history', 'hashbang'] as const) expect(toLocation(toUrl(location, { base, mode }), { base })).toBe(location);
      }),
      fuzz(402, 3000),
    );
  });
});

describe('the fast path of a location that is a canonical path alone', () => {
  // Paths of the characters the canonical spelling treats apart: dots, slashes, escapes, reserved.
  const path = fc.string({
    unit: fc.constantFrom('/', '//', 'a', 'Z', '.', '..', '%41', '%2f', '%', 'é', '?', '#', ':', '@', '~', '+', ' '),
    maxLength: 8,
  });

  it('accepts only a text normalizeLocation leaves as it is', () => {
    fc.assert(
      fc.property(path, (text) => {
        if (isCanonicalPath(text)) expect(normalizeLocation(text)).toBe(text);
      }),
      fuzz(403, 3000),
    );
  });

  it('matches as the slow path does: a path and the same path with an empty query give the same match', () => {
    const table = createRoutes([{ path: '/' }, { path: '/a' }, { path: '/a/:id' }, { path: '/:x/a{/:y}' }, { path: '/Z/*rest' }]);
    fc.assert(
      fc.property(
        fc.oneof(
          path,
          path.map((p) => '/' + p),
        ),
        (text) => {
          // `?` alone is an empty query: normalizeLocation drops it, and the fast path never sees it.
          fc.pre(!/[?#]/.test(text));
          expect(table.match(text)).toEqual(table.match(text + '?'));
        },
      ),
      fuzz(404, 3000),
    );
  });
});
