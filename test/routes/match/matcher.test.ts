import fc from 'fast-check';
import { match as ptrMatch, TokenData } from 'path-to-regexp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizeLocation } from '../../../src/url/location.js';
import { compileRoute } from '../../../src/routes/pattern/compile.js';
import { percentDecode } from '../../../src/url/percent.js';
import { createIndex } from '../../../src/routes/match/matcher.js';
import { createRoutes } from '../../../src/routes/table.js';
import { ptrTokens } from '../pattern/ptr-tokens.js';

/** The index over `paths` as createRoutes builds it. */
const indexOver = (paths: string[], sensitive = true) =>
  createIndex(
    paths.map((path) => compileRoute({ path }, sensitive).tokens),
    sensitive,
  );

/** Its candidates: the ids a walk of a path finds, in declaration order. */
const indexOf = (paths: string[], sensitive = true) => {
  const { collect, found } = indexOver(paths, sensitive);
  return (path: string) => found.slice(0, collect(path));
};

afterEach(() => vi.restoreAllMocks());

describe('candidates', () => {
  it('gives every pattern a path may match, static and param edges alike, in declaration order', () => {
    const candidates = indexOf(['/a/:x', '/:y/b', '/a/b', '/a/c', '/b/:x']);
    expect(candidates('/a/b')).toEqual([0, 1, 2]);
    expect(candidates('/a/c')).toEqual([0, 3]);
    expect(candidates('/b/b')).toEqual([1, 4]);
    expect(candidates('/c/d')).toEqual([]);
  });

  it('reads a trailing slash as the end of the path, as every pattern does', () => {
    const candidates = indexOf(['/books', '/books/:id']);
    expect(candidates('/books/')).toEqual([0]);
    expect(candidates('/books/42/')).toEqual([1]);
    expect(candidates('/books/42/x')).toEqual([]);
  });

  it('leaves a pattern the index cannot read whole to its regexp, at the node where it stops', () => {
    // A group in the middle, a wildcard, text after a param and a pattern ending in `/` stop the index.
    const candidates = indexOf(['/docs{/:lang}/x', '/files/*path', '/raw/:id.json', '/dir/']);
    expect(candidates('/docs')).toEqual([0]);
    expect(candidates('/docs/en/extra')).toEqual([0]);
    expect(candidates('/files/a/b')).toEqual([1]);
    expect(candidates('/raw/7.json')).toEqual([2]);
    expect(candidates('/dir')).toEqual([3]);
    expect(candidates('/elsewhere')).toEqual([]);
  });

  it("reads a group that opens with a slash but is followed by text of the same segment as that segment's text", () => {
    // Before, `/feed{/:lang}.xml` was filed under the whole segment `feed`: `/feed.xml`, which its
    // regexp matches and its href({}) writes, matched no route.
    const candidates = indexOf(['/feed{/:lang}.xml', '/a{/*w}b', '/c{/:x}{/:y}', '/d{/:x}{-:y}', '/e{/:x}/f']);
    expect(candidates('/feed.xml')).toEqual([0]);
    expect(candidates('/feed/en.xml')).toEqual([0]);
    expect(candidates('/ab')).toEqual([1]);
    expect(candidates('/a/x/yb')).toEqual([1]);
    expect(candidates('/c')).toEqual([2]);
    expect(candidates('/d-1')).toEqual([3]);
    expect(candidates('/e/f')).toEqual([4]);
    const table = createRoutes([{ path: '/feed{/:lang}.xml', name: 'feed' }]);
    expect(table.href('feed', {})).toBe('/feed.xml');
    expect(table.match('/feed.xml')?.route.name).toBe('feed');
  });

  it('finds a segment that starts with known text by that text, and only there', () => {
    const candidates = indexOf(['/v:major.:minor', '/shop/p:id']);
    expect(candidates('/v1.2')).toEqual([0]);
    expect(candidates('/w1.2')).toEqual([]);
    expect(candidates('/shop/p42')).toEqual([1]);
    expect(candidates('/shop/q42')).toEqual([]);
  });

  it('looks a long segment up by prefixes no longer than the longest known one', () => {
    const candidates = indexOf(['/v:major.:minor', '/ab:x']);
    const get = vi.spyOn(Map.prototype, 'get');
    candidates('/' + 'v'.repeat(65_536));
    // Two prefix lengths (`v`, `ab`) and the static lookup: not 65,536 lookups.
    expect(get.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('compares static text without case when the table is not case-sensitive', () => {
    expect(indexOf(['/Books/:id'], false)('/bOOKS/1')).toEqual([0]);
    expect(indexOf(['/Books/:id'], true)('/books/1')).toEqual([]);
  });
});

describe('patterns read exactly', () => {
  const exactOf = (paths: string[]) => indexOver(paths).exact;

  it('reads whole-segment params, a last optional group of segments and a last wildcard, and nothing else', () => {
    const exact = exactOf([
      '/a/:x/b/:y',
      '/docs{/:lang}',
      '/e/:id{/edit/:tab}',
      '/files/*path',
      '/',
      '/dir/',
      '/r/:id.json',
      '/d{/:x}/e',
      '/w/*a/b',
      '/o{-:x}',
      '/n{/:x{/:y}}',
      '/g{/*w}',
    ]);
    expect(exact.map((r) => r && { ...r })).toEqual([
      { names: ['x', 'y'], at: [1, 3], rest: false },
      { names: ['lang'], at: [1], rest: false },
      { names: ['id', 'tab'], at: [1, 3], rest: false },
      { names: ['path'], at: [1], rest: true },
      null,
      null,
      null,
      null,
      null,
      null,
      { names: ['x', 'y'], at: [1, 2], rest: false },
      null,
    ]);
  });

  it('matches such a pattern with no regexp, with the params its regexp would read', () => {
    const table = createRoutes([{ path: '/e/:id{/edit/:tab}' }, { path: '/files/*path' }, { path: '/a/:x' }]);
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    const found = ['/e/7', '/e/7/edit/t', '/files/a%20b/c', '/a/%41'].map((p) => table.match(p)?.params);
    // The route regexps, not the test of a canonical path.
    expect(exec.mock.contexts.filter((re) => /^\^\(\?:\\\/[efa]/.test((re as RegExp).source))).toEqual([]);
    expect(found.map((p) => p && { ...p })).toEqual([{ id: '7' }, { id: '7', tab: 't' }, { path: ['a b', 'c'] }, { x: 'A' }]);
    expect(table.match('/files')).toBeNull();
    expect(table.match('/e/7/edit')).toBeNull();
    // A wildcard in a last group is its regexp's to read: the path may end before it.
    const g = createRoutes([{ path: '/g{/*w}' }]);
    expect(['/g', '/g/', '/g/a/b', '/h'].map((p) => g.match(p)?.params).map((p) => p && { ...p })).toEqual([
      {},
      {},
      { w: ['a', 'b'] },
      undefined,
    ]);
  });
  it('reads a case-insensitive table as its regexps do: letters in any case, escapes as text, decoded as they came', () => {
    // The index, not the regexp's `i` flag, now decides such a match: `%C3%A9` (é) and `%C3%89` (É)
    // are different text, `%2F` is text in a segment, and a param keeps the path's case.
    const patterns = ['/Café/:id{/Édit{/:tab}}', '/A%2Fb/*rest', '/:x/Z', '/v/:a/*b'];
    const table = createRoutes(
      patterns.map((path) => ({ path })),
      { sensitive: false },
    );
    const scans = patterns.map((path) =>
      ptrMatch(new TokenData(ptrTokens(compileRoute({ path }, false).tokens)), { sensitive: false, decode: (raw) => percentDecode(raw) }),
    );
    const paths = [
      '/CAFÉ/1',
      '/caf%c3%a9/Ab',
      '/CAF%C3%A9/1/%C3%89DIT',
      '/café/1/%c3%a9dit',
      '/Caf%C3%A9/1/%C3%89dit/T/',
      '/a%2fB/x/Y/',
      '/A%2Fb',
      '/a/b/x/y',
      '/Q/z/',
      '/V/1/%2F/z',
    ];
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    const found = paths.map((p) => {
      const m = table.match(p);
      return m && { path: m.route.path, params: { ...m.params } };
    });
    // No route regexp ran (canonical spelling's own regexps may).
    const routeSources = new Set(patterns.map((path) => compileRoute({ path }, false).regexp.source));
    expect(exec.mock.contexts.filter((re) => routeSources.has((re as RegExp).source))).toEqual([]);
    exec.mockRestore();
    // What a first-match scan with path-to-regexp's own match() reads from the canonical path.
    const expected = paths.map((p) => {
      for (let i = 0; i < scans.length; i++) {
        const scan = (scans[i] as (typeof scans)[number])(normalizeLocation(p));
        if (scan) return { path: patterns[i], params: { ...scan.params } };
      }
      return null;
    });
    expect(found).toEqual(expected);
    expect(found.map((f) => f?.path ?? null)).toEqual([
      null,
      '/Café/:id{/Édit{/:tab}}',
      '/Café/:id{/Édit{/:tab}}',
      null,
      '/Café/:id{/Édit{/:tab}}',
      '/A%2Fb/*rest',
      null,
      null,
      '/:x/Z',
      '/v/:a/*b',
    ]);
  });
});

describe('a table of a thousand routes', () => {
  const routes = Array.from({ length: 1000 }, (_, i) => {
    const kind = i % 5;
    return kind === 0
      ? { path: `/section${i}/items/:id` }
      : kind === 1
        ? { path: `/users/:user/posts${i}/:post` }
        : kind === 2
          ? { path: `/static/${i}/page` }
          : kind === 3
            ? { path: `/docs${i}{/:lang}/*slug` }
            : { path: `/shop/:shop/p${i}.:ext` };
  });
  const big = createRoutes(routes);
  const linear = routes.map((r) => ptrMatch(r.path, { sensitive: true, decode: false }));

  it('matches exactly as a first-match scan over path-to-regexp does', () => {
    const path = fc.oneof(
      fc.nat({ max: 999 }).map((i) => `/section${i}/items/x${i}`),
      fc.nat({ max: 999 }).map((i) => `/users/u/posts${i}/p`),
      fc.nat({ max: 999 }).map((i) => `/static/${i}/page`),
      fc.nat({ max: 999 }).map((i) => `/docs${i}/en/a/b`),
      fc.nat({ max: 999 }).map((i) => `/shop/s/p${i}.json`),
      fc.array(fc.constantFrom('users', 'u', 'posts3', 'static', '7', 'page', 'x'), { maxLength: 5 }).map((s) => '/' + s.join('/')),
    );
    fc.assert(
      fc.property(path, (p) => {
        const expected = linear.findIndex((m) => m(p) !== false);
        const got = big.match(p);
        return expected < 0 ? got === null : got?.route === routes[expected];
      }),
      { numRuns: 3000, seed: 13 },
    );
  });

  it('tests a handful of patterns per match, not a thousand', () => {
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    big.match('/users/u/posts996/p');
    big.match('/static/502/page');
    big.match('/docs500/en/a/b');
    big.match('/shop/s/p504.json');
    big.match('/nowhere/at/all');
    const routeTests = exec.mock.contexts.filter((re) => (re as RegExp).source.startsWith('^(?:'));
    expect(routeTests.length).toBeLessThanOrEqual(5 * 2);
  });
});
