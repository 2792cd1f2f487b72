import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_KEY,
  headKey,
  isCanonicalLink,
  isFragmentMeta,
  jsonLdText,
  mergeHead,
  stateHead,
  type Head,
  type MetaTag,
} from '../../src/contract/head.js';
import { fuzz } from '../fuzz/runs.js';

const attrs = (map: Record<string, string>) => (name: string) => map[name];

describe('headKey', () => {
  it.each([
    ['meta', { name: 'Description ', content: 'x' }, 'meta name description'],
    ['meta', { property: 'og:Title', content: 'x' }, 'meta property og:title'],
    ['meta', { name: 'a', property: 'b' }, 'meta name a'],
    ['meta', { charset: 'utf-8' }, null],
    ['link', { rel: 'Alternate', hreflang: 'DE', href: '/de' }, 'link alternate de'],
    ['link', { rel: 'canonical', href: '/' }, 'link canonical '],
    ['link', { href: '/' }, null],
    ['script', { type: 'application/ld+json' }, 'json-ld'],
    ['script', { src: '/app.js' }, null],
    ['title', {}, null],
  ] as const)('keys <%s %o> as %s', (tag, map, key) => {
    expect(headKey(tag, attrs(map))).toBe(key);
  });

  it('gives the canonical link the server writes the key the client looks for (CANONICAL_KEY)', () => {
    expect(headKey('link', attrs({ rel: 'canonical', href: 'https://example.com/books/7' }))).toBe(CANONICAL_KEY);
  });
});

describe('mergeHead', () => {
  it('keeps one tag per key, a later layer replacing an earlier one in place, and keeps keyless tags', () => {
    const tags = mergeHead([
      {
        meta: [{ name: 'description', content: 'default' }, { property: 'og:site_name', content: 'Shop' }, { content: 'no key' }],
        link: [{ rel: 'alternate', hreflang: 'de', href: '/de' }],
      },
      undefined,
      {
        meta: [{ name: 'DESCRIPTION', content: 'state' }, { content: 'no key either' }],
        link: [{ rel: 'alternate', hreflang: 'fr', href: '/fr' }],
        jsonLd: { a: 1 },
      },
    ]);
    expect(tags.map((t) => [t.tag, t.attrs])).toEqual([
      [
        'meta',
        [
          ['name', 'DESCRIPTION'],
          ['content', 'state'],
        ],
      ],
      [
        'meta',
        [
          ['property', 'og:site_name'],
          ['content', 'Shop'],
        ],
      ],
      ['meta', [['content', 'no key']]],
      [
        'link',
        [
          ['rel', 'alternate'],
          ['href', '/de'],
          ['hreflang', 'de'],
        ],
      ],
      ['meta', [['content', 'no key either']]],
      [
        'link',
        [
          ['rel', 'alternate'],
          ['href', '/fr'],
          ['hreflang', 'fr'],
        ],
      ],
      ['script', [['type', 'application/ld+json']]],
    ]);
    expect(tags.at(-1)?.json).toEqual({ a: 1 });
  });

  it('writes every tag one layer gives a key (Open Graph arrays), and a later layer replaces them all in place', () => {
    const alternates = ['ar_EG', 'de_DE', 'fr_FR'].map((content) => ({ property: 'og:locale:alternate', content }));
    const shown = (layers: Parameters<typeof mergeHead>[0]) => mergeHead(layers).map((t) => t.attrs.map(([, v]) => v).join(' '));
    expect(shown([{ meta: [{ property: 'og:locale', content: 'ja_JP' }, ...alternates, { name: 'description', content: 'd' }] }])).toEqual([
      'og:locale ja_JP',
      'og:locale:alternate ar_EG',
      'og:locale:alternate de_DE',
      'og:locale:alternate fr_FR',
      'description d',
    ]);
    expect(
      shown([
        { meta: [...alternates, { name: 'description', content: 'd' }] },
        {
          meta: [
            { property: 'og:locale:alternate', content: 'en_US' },
            { property: 'og:locale:alternate', content: 'ja_JP' },
          ],
        },
      ]),
    ).toEqual(['og:locale:alternate en_US', 'og:locale:alternate ja_JP', 'description d']);
    // content: null in a later layer takes them all away.
    expect(shown([{ meta: alternates }, { meta: [{ property: 'og:locale:alternate', content: null }] }])).toEqual([]);
  });

  it('lets a later layer replace the JSON-LD', () => {
    expect(mergeHead([{ jsonLd: { a: 1 } }, { jsonLd: { b: 2 } }]).map((t) => t.json)).toEqual([{ b: 2 }]);
  });

  it('takes a meta tag of earlier layers away for content: null (or none), writing no meta tag without content', () => {
    const defaults = {
      meta: [
        { name: 'description', content: 'd' },
        { property: 'og:image', content: '/i.png' },
      ],
    };
    const tags = mergeHead([defaults, { meta: [{ name: 'Description', content: null }] }]);
    expect(tags.map((t) => t.key)).toEqual(['meta property og:image']);
    // From JavaScript, tags whose content is missing: the same.
    const missing = mergeHead([defaults, { meta: [{ property: 'og:image' } as MetaTag, { name: 'robots' } as MetaTag] }]);
    expect(missing.map((t) => t.key)).toEqual(['meta name description']);
    // A later layer sets the key again.
    expect(
      mergeHead([defaults, { meta: [{ name: 'description', content: null }] }, { meta: [{ name: 'description', content: 'e' }] }]).length,
    ).toBe(2);
    expect(mergeHead([{ meta: [{ name: 'x', content: null }] }])).toEqual([]);
  });

  it('keeps every keyless tag when a keyed one was taken away before it', () => {
    // Keyless tags were numbered by the map's size, which shrinks when a tag is taken away: the
    // second keyless meta took the first one's key and replaced it.
    const tags = mergeHead([
      { meta: [{ name: 'x', content: '1' }, { content: 'a' } as MetaTag] },
      { meta: [{ name: 'x', content: null }, { content: 'b' } as MetaTag] },
    ]);
    expect(tags.map((t) => t.attrs)).toEqual([[['content', 'a']], [['content', 'b']]]);
  });

  it('takes the JSON-LD of earlier layers away for jsonLd: null, writing no tag of null', () => {
    const tags = mergeHead([{ jsonLd: { a: 1 }, meta: [{ name: 'description', content: 'd' }] }, { jsonLd: null }]);
    expect(tags.map((t) => t.tag)).toEqual(['meta']);
    expect(mergeHead([{ jsonLd: null }])).toEqual([]);
    expect(mergeHead([{ jsonLd: null }, { jsonLd: { b: 2 } }]).map((t) => t.json)).toEqual([{ b: 2 }]);
  });

  it('refuses in development a JSON-LD given as text, and a meta or link that is no list', () => {
    // A string was written as a JSON string ("{\"@type\":…}"), which no search engine reads as data.
    expect(() => mergeHead([{ jsonLd: '{"@type":"Product"}' }])).toThrow(
      "head's jsonLd is the structured data itself (an object or an array), written with JSON.stringify: a string would be a JSON string, not data; JSON.parse it first",
    );
    expect(() => mergeHead([{ meta: { name: 'description', content: 'd' } as unknown as MetaTag[] }])).toThrow(
      "head's meta must be a list of tags ([{ … }]), got an object",
    );
    expect(() => mergeHead([{ link: 'https://example.com/' as unknown as [] }])).toThrow(
      "head's link must be a list of tags ([{ … }]), got a string",
    );
  });
});

describe('jsonLdText', () => {
  it('parses back to the value and holds no character that could end the script or a line', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 200 }), (value, text) => {
        for (const v of [value, { text }, [text, '</script><!--', '\u2028\u2029']]) {
          const out = jsonLdText(v);
          expect(out).not.toMatch(/[<>&\u2028\u2029]/);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
      fuzz(1101, 50),
    );
  });
});

describe('the scheme meta tag and the canonical link, recognised as HTML reads them', () => {
  const attrs = (values: Record<string, string>) => (name: string) => values[name];
  it.each([
    ['meta', { name: 'fragment', content: '!' }, true],
    ['meta', { name: ' Fragment ', content: '!' }, true],
    ['meta', { name: 'description', content: '!' }, false],
    ['link', { name: 'fragment' }, false],
  ])('isFragmentMeta(<%s %j>) is %s', (tag, values, expected) => {
    expect(isFragmentMeta(tag, attrs(values))).toBe(expected);
  });

  it.each([
    ['link', { rel: 'canonical', href: '/' }, true],
    ['link', { rel: 'Alternate\tCANONICAL', href: '/' }, true],
    ['link', { rel: 'canonicalish', href: '/' }, false],
    ['meta', { rel: 'canonical' }, false],
  ])('isCanonicalLink(<%s %j>) is %s', (tag, values, expected) => {
    expect(isCanonicalLink(tag, attrs(values))).toBe(expected);
  });
});

describe('stateHead: Open Graph derived where a state has any og: tag', () => {
  const canonical = { link: [{ rel: 'canonical', href: 'https://example.com/books/1' }] };
  const og = (view: Head, extra: Head | null | undefined, page = { url: 'https://example.com/fallback', title: 'Book 1' }) =>
    Object.fromEntries(
      stateHead({}, { head: () => view }, {}, extra, page)
        .filter((t) => / og:/.test(t.key))
        .map((t) => [t.attrs[0]?.[1], t.attrs[1]?.[1]]),
    );

  it.each<[string, Head, Head | null | undefined, Record<string, string>]>([
    ['nothing for a state with no og: tag', { meta: [{ name: 'description', content: 'd' }] }, canonical, {}],
    [
      "og:url from the canonical link, og:title from the title, og:type 'website'",
      { meta: [{ property: 'og:image', content: 'i.png' }] },
      canonical,
      { 'og:url': 'https://example.com/books/1', 'og:title': 'Book 1', 'og:type': 'website', 'og:image': 'i.png' },
    ],
    [
      'the URL given where no canonical link names one',
      { meta: [{ property: 'og:image', content: 'i.png' }] },
      undefined,
      { 'og:url': 'https://example.com/fallback', 'og:title': 'Book 1', 'og:type': 'website', 'og:image': 'i.png' },
    ],
    [
      'no og:url for a state not found or failed (no canonical URL)',
      { meta: [{ property: 'og:image', content: 'i.png' }] },
      null,
      { 'og:title': 'Book 1', 'og:type': 'website', 'og:image': 'i.png' },
    ],
    [
      "the state's own values, and none where it takes one away with content: null",
      {
        meta: [
          { property: 'og:type', content: 'book' },
          { property: 'og:title', content: 'Own' },
          { property: 'og:url', content: null },
        ],
      },
      canonical,
      { 'og:title': 'Own', 'og:type': 'book' },
    ],
    [
      'an og: tag written with name, as some sites do',
      { meta: [{ name: 'og:site_name', content: 'Shop' }] },
      canonical,
      {
        'og:url': 'https://example.com/books/1',
        'og:title': 'Book 1',
        'og:type': 'website',
        'og:site_name': 'Shop',
      },
    ],
  ])('derives %s', (_, view, extra, expected) => {
    expect(og(view, extra)).toEqual(expected);
  });

  it("takes a hook's canonical link over the server's, and writes no og:title for a page with no title", () => {
    const view = { meta: [{ property: 'og:image', content: 'i.png' }], link: [{ rel: 'canonical', href: 'https://example.com/own' }] };
    expect(og(view, canonical, { url: undefined, title: '' } as never)).toEqual({
      'og:url': 'https://example.com/own',
      'og:type': 'website',
      'og:image': 'i.png',
    });
  });
});

describe('stateHead: a state not found or failed is no page to index', () => {
  const robots = (view: Head, extra: Head | null | undefined) =>
    stateHead({ head: { meta: [{ name: 'robots', content: 'max-image-preview:large' }] } }, { head: () => view }, {}, extra, {})
      .filter((t) => t.key === 'meta name robots')
      .map((t) => t.attrs.find(([name]) => name === 'content')?.[1]);

  it("says noindex over the table's and the view's own robots meta", () => {
    expect(robots({ meta: [{ name: 'ROBOTS', content: 'index, follow' }] }, null)).toEqual(['noindex']);
    expect(robots({}, null)).toEqual(['noindex']);
  });

  it('leaves the robots meta of a state that is found as its layers say', () => {
    expect(robots({ meta: [{ name: 'robots', content: 'nofollow' }] }, undefined)).toEqual(['nofollow']);
    expect(robots({}, { link: [{ rel: 'canonical', href: 'https://example.com/' }] })).toEqual(['max-image-preview:large']);
  });
});
