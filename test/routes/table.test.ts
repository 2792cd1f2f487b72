import fc from 'fast-check';
import { match as ptrMatch } from 'path-to-regexp';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Params } from '../../src/routes/params.js';
import { RouteError } from '../../src/routes/error.js';
import { route, type AnyRoute, type RouteTable } from '../../src/routes/types.js';
import { createRoutes } from '../../src/routes/table.js';

const table = createRoutes(
  [
    { path: '/', name: 'home' },
    { path: '/books', name: 'books' },
    { path: '/books/:id', name: 'book' },
    { path: '/books/:id/reviews{/:page}', name: 'reviews' },
    { path: '/authors/:slug', name: 'author' },
    { path: '/files/*path', name: 'files' },
    { path: '/q/:term', name: 'search' },
    { path: '/café/:x', name: 'cafe' },
    { path: '/v:major.:minor', name: 'version' },
    { path: '/books/new' },
  ],
  { notFound: { title: 'Not found', render: () => '<h1>Not found</h1>' } },
);

const plain = (m: ReturnType<typeof table.match>) => m && { path: m.route.path, params: { ...m.params }, query: { ...m.query } };

describe('match', () => {
  it.each([
    ['/', '/', {}, {}],
    ['/books', '/books', {}, {}],
    ['/books/', '/books', {}, {}],
    ['/books/42', '/books/:id', { id: '42' }, {}],
    ['/books/42?tab=reviews&tab=x&y', '/books/:id', { id: '42' }, { tab: ['reviews', 'x'], y: '' }],
    ['/books/new', '/books/:id', { id: 'new' }, {}],
    ['/books/42/reviews', '/books/:id/reviews{/:page}', { id: '42' }, {}],
    ['/books/42/reviews/3', '/books/:id/reviews{/:page}', { id: '42', page: '3' }, {}],
    ['/files/a/b%20c/d', '/files/*path', { path: ['a', 'b c', 'd'] }, {}],
    ['/files/x', '/files/*path', { path: ['x'] }, {}],
    ['/q/caf%C3%A9', '/q/:term', { term: 'café' }, {}],
    ['/q/café', '/q/:term', { term: 'café' }, {}],
    ['/q/%E6%97%A5%E6%9C%AC', '/q/:term', { term: '日本' }, {}],
    ['/q/%25', '/q/:term', { term: '%' }, {}],
    ['/q/%2525', '/q/:term', { term: '%25' }, {}],
    ['/q/C++', '/q/:term', { term: 'C++' }, {}],
    ['/q/C%2B%2B', '/q/:term', { term: 'C++' }, {}],
    ['/q/a%2Fb', '/q/:term', { term: 'a/b' }, {}],
    ['/q/%zz', '/q/:term', { term: '%zz' }, {}],
    ['/q/50%', '/q/:term', { term: '50%' }, {}],
    ['/q/%C3', '/q/:term', { term: '%C3' }, {}],
    ['/q/%E6%97x%C3%A9', '/q/:term', { term: '%E6%97xé' }, {}],
    ['/q/x?q=C++&r=a%20b&s=%zz&t=%26', '/q/:term', { term: 'x' }, { q: 'C++', r: 'a b', s: '%zz', t: '&' }],
    ['/café/1', '/café/:x', { x: '1' }, {}],
    ['/caf%C3%A9/1', '/café/:x', { x: '1' }, {}],
    ['/v1.2', '/v:major.:minor', { major: '1', minor: '2' }, {}],
  ])('matches %s to %s', (location, path, params, query) => {
    expect(plain(table.match(location))).toEqual({ path, params, query });
  });

  it.each(['/nope', '/books/42/x', '/Books', '/files', '/q', '/q/a/b'])('returns null for %s', (location) => {
    expect(table.match(location)).toBeNull();
  });

  it('gives the canonical location, path and anchor', () => {
    expect(table.match('/q/café?x=a b#sec 2')).toMatchObject({
      location: '/q/caf%C3%A9?x=a%20b#sec%202',
      path: '/q/caf%C3%A9',
      hash: 'sec 2',
      notFound: false,
    });
  });

  it('reads a `?` after the anchor as part of the anchor', () => {
    expect(table.match('/books/1#a?b')).toMatchObject({ params: { id: '1' }, query: {}, hash: 'a?b', path: '/books/1' });
  });

  it('keeps query keys such as __proto__ as data', () => {
    const m = table.match('/books?__proto__=x&constructor=y');
    expect(m?.query['__proto__']).toBe('x');
    expect(m?.query['constructor']).toBe('y');
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it("keeps a param named like a member of Object.prototype as the URL's text, and never reads one from the prototype", () => {
    // Before, a wildcard named __proto__ set the params object's prototype to the URL's parts, a param
    // named __proto__ was lost, and href() read `constructor` or `toString` from Object.prototype:
    // BAD_PARAM for an optional group left out, or for a required param that was missing.
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const t = createRoutes([
        { path: `/list{/:${name}}`, name: 'list' },
        { path: `/one/:${name}`, name: 'one' },
        { path: `/all/*${name}`, name: 'all' },
      ]);
      expect(t.href('list', {}), name).toBe('/list');
      expect(() => t.href('one', {}), name).toThrow(expect.objectContaining({ code: 'MISSING_PARAM' }));
      const one = t.match('/one/x');
      expect(Object.entries(one?.params ?? {}), name).toEqual([[name, 'x']]);
      expect(t.href('one', one?.params), name).toBe('/one/x');
      const all = t.match('/all/a/b');
      expect(name in (t.match('/list')?.params ?? {}), name).toBe(false);
      expect(Object.getPrototypeOf(Object.getPrototypeOf(all?.params)), name).toBeNull();
      expect(Object.entries(all?.params ?? {}), name).toEqual([[name, ['a', 'b']]]);
      expect(t.href('all', all?.params), name).toBe('/all/a/b');
      expect(t.canonical(t.match('/list')!), name).toBe('/list');
    }
  });

  it('falls back to the notFound route, or the fallback given, in resolve', () => {
    expect(table.resolve('/nope?x=1')).toMatchObject({
      route: { title: 'Not found' },
      notFound: true,
      params: {},
      query: { x: '1' },
      location: '/nope?x=1',
    });
    expect(createRoutes([{ path: '/' }]).resolve('/nope')).toBeNull();
    const fallback = { title: 'Other' };
    expect(table.resolve('/nope#a', fallback)).toMatchObject({ route: fallback, notFound: true, hash: 'a', location: '/nope#a' });
    expect(createRoutes([{ path: '/' }]).resolve('/nope', fallback)).toMatchObject({ route: fallback, notFound: true });
  });

  it('lets the first declared route win', () => {
    const t = createRoutes([{ path: '/a/:x' }, { path: '/a/b' }, { path: '/*rest' }]);
    expect(t.match('/a/b')?.route.path).toBe('/a/:x');
    expect(t.match('/a/b/c')?.route.path).toBe('/*rest');
  });

  it('matches case-insensitively when asked', () => {
    const t = createRoutes([{ path: '/Books/:id' }], { sensitive: false });
    expect(t.match('/books/1')?.params).toEqual({ id: '1' });
    expect(createRoutes([{ path: '/Books/:id' }]).match('/books/1')).toBeNull();
  });
});

describe('href', () => {
  it.each([
    ['home', {}, undefined, '/'],
    ['book', { id: '42' }, undefined, '/books/42'],
    ['book', { id: 'a b/c+é%' }, undefined, '/books/a%20b%2Fc%2B%C3%A9%25'],
    ['reviews', { id: '1' }, undefined, '/books/1/reviews'],
    ['reviews', { id: '1', page: '2' }, undefined, '/books/1/reviews/2'],
    ['files', { path: ['a', 'b c'] }, undefined, '/files/a/b%20c'],
    [
      'books',
      {},
      { q: 'Les Misérables', tag: ['C++', '日本'], skip: undefined, n: 2 },
      '/books?q=Les%20Mis%C3%A9rables&tag=C%2B%2B&tag=%E6%97%A5%E6%9C%AC&n=2',
    ],
    ['cafe', { x: '1' }, undefined, '/caf%C3%A9/1'],
  ] as const)('builds %s %o %o as %s', (name, params, query, location) => {
    expect(table.href(name, params as Params, query)).toBe(location);
  });

  it.each([
    [() => table.href('nope'), 'UNKNOWN_ROUTE', 'no route is named "nope"'],
    [() => table.href('book'), 'MISSING_PARAM', 'missing param id for route "book" (/books/:id)'],
    [() => table.href('book', { id: '' }), 'BAD_PARAM', 'a param of route "book" (/books/:id) cannot be "": it is not a path segment'],
    [
      () => table.href('book', { id: '..' }),
      'BAD_PARAM',
      'the params of route "book" (/books/:id) make "/books/..": a ".." segment is not a path segment, URLs remove it',
    ],
    [
      () => table.href('book', { id: '.' }),
      'BAD_PARAM',
      'the params of route "book" (/books/:id) make "/books/.": a "." segment is not a path segment, URLs remove it',
    ],
    [() => table.href('book', { id: 'a\uD800' }), 'BAD_PARAM', 'a param of route "book" (/books/:id) has a lone surrogate at index 1'],
    [() => table.href('files', { path: [] }), 'BAD_PARAM', 'Expected "path" to be a non-empty array for route "files" (/files/*path)'],
    [
      () => table.href('files', { path: 'a' as never }),
      'BAD_PARAM',
      'Expected "path" to be a non-empty array for route "files" (/files/*path)',
    ],
    [
      () => table.href('files', { path: ['a', 3] as never }),
      'BAD_PARAM',
      'Expected "path/1" to be a string for route "files" (/files/*path)',
    ],
    [() => table.href('book', { id: 42 as never }), 'BAD_PARAM', 'Expected "id" to be a string for route "book" (/books/:id)'],
    [() => table.href('books', {}, { ['\uDC00']: 'x' }), 'BAD_PARAM', 'query key "\\udc00" has a lone surrogate'],
    [() => table.href('books', {}, { q: ['x', 'a\uD800'] }), 'BAD_PARAM', 'a value of query key "q" has a lone surrogate'],
    [
      () => table.href('version', { major: '1', minor: '3.' }),
      'BAD_PARAM',
      'the params of route "version" (/v:major.:minor) make "/v1.3.", which it does not match: a value holds the text that separates two params',
    ],
  ])('throws a typed error: %#', (call, code, message) => {
    expect(call).toThrow(RouteError);
    expect(call).toThrow(expect.objectContaining({ code, message, name: 'RouteError' }));
  });

  it('names every required param that is missing, in pattern order, and never one inside an optional group', () => {
    const t = createRoutes([{ path: '/a/:x/*rest{/:opt}/:y', name: 'deep' }]);
    const missing = (params: Params): [string, string] | null => {
      try {
        t.href('deep', params);
      } catch (error) {
        if (error instanceof RouteError) return [error.code, error.message];
        throw error;
      }
      return null;
    };
    expect(missing({})).toEqual(['MISSING_PARAM', 'missing param x, rest, y for route "deep" (/a/:x/*rest{/:opt}/:y)']);
    // A null value is as absent as an undefined one.
    expect(missing({ x: '1', rest: ['r'], y: null as unknown as string })).toEqual([
      'MISSING_PARAM',
      'missing param y for route "deep" (/a/:x/*rest{/:opt}/:y)',
    ]);
    expect(missing({ x: '1', rest: ['r'], y: '2' })).toBeNull();
    expect(t.href('deep', { x: '1', rest: ['r', 's'], opt: 'o', y: '2' })).toBe('/a/1/r/s/o/2');
    // A value of the wrong type is a bad param, not a missing one.
    expect(missing({ x: '1', rest: 'r', y: '2' })?.[0]).toBe('BAD_PARAM');
  });

  it('writes a . inside a segment but refuses a param that makes a . or .. segment, in any place', () => {
    const dots = createRoutes([
      { path: '/:a~:b/', name: 'pair' },
      { path: '/.:x', name: 'dotted' },
      { path: '/files/*path', name: 'files' },
    ]);
    // Found by the long fuzz run: `~.` read back from `/a~~./` is `a~` and `.`, both fine in a segment.
    expect(dots.href('pair', { a: 'a', b: '~.' })).toBe('/a~~./');
    expect(dots.match('/a~~./')?.params).toEqual({ a: 'a~', b: '.' });
    expect(dots.href('pair', { a: 'a~', b: '.' })).toBe('/a~~./');
    expect(() => dots.href('dotted', { x: '.' })).toThrow(
      expect.objectContaining({ code: 'BAD_PARAM', message: expect.stringContaining('a ".." segment is not a path segment') }),
    );
    // A wildcard may end with an empty segment (a trailing slash, as match reads it), never hold one elsewhere.
    expect(dots.href('files', { path: ['a', ''] })).toBe('/files/a/');
    expect(dots.match('/files/a/')?.params).toEqual({ path: ['a', ''] });
    for (const path of [[''], ['', 'a'], ['a', '', 'b']])
      expect(() => dots.href('files', { path })).toThrow(
        expect.objectContaining({
          code: 'BAD_PARAM',
          message: 'a param of route "files" (/files/*path) cannot be "": it is not a path segment',
        }),
      );
    expect(() => dots.href('files', { path: ['a', '..', 'b'] })).toThrow(
      expect.objectContaining({ code: 'BAD_PARAM', message: expect.stringContaining('make "/files/a/../b"') }),
    );
    // Nor an empty segment made any other way: before, `/*p/x` with ['a', ''] wrote `/a//x`, and
    // `/{/a}` wrote `//a`, a URL of the host `a`; a location reads both collapsed, their routes not.
    const empty = createRoutes([
      { path: '/*p/x', name: 'inner' },
      { path: '/{/a}', name: 'host' },
    ]);
    for (const [name, params, path] of [
      ['inner', { p: ['a', ''] }, '/a//x'],
      ['host', {}, '//a'],
    ] as [string, Params, string][])
      expect(() => empty.href(name, params)).toThrow(
        expect.objectContaining({ code: 'BAD_PARAM', message: expect.stringContaining(`make "${path}": a "" segment`) }),
      );
  });

  it('round-trips with match for every param value', () => {
    const value = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(value, fc.array(value, { minLength: 1, maxLength: 3 }), value, (id, path, q) => {
        const book = table.match(table.href('book', { id }, { q }));
        const files = table.match(table.href('files', { path }));
        return book?.params['id'] === id && book.query['q'] === q && JSON.stringify(files?.params['path']) === JSON.stringify(path);
      }),
      { numRuns: 1500, seed: 9 },
    );
  });
});

describe('createRoutes', () => {
  const HINT = ' (path-to-regexp 8 patterns: an optional part is {/:id}, a wildcard *name, and no regexp groups)';
  it.each([
    [[{ path: '/a/:' }], 'bad pattern "/a/:": Missing parameter name at index 4: /a/:'],
    [[{ path: '/a{' }], 'bad pattern "/a{": Unexpected end at index 3, expected }: /a{'],
    // Patterns of Express 4 and path-to-regexp 6 name the syntax of version 8.
    [[{ path: '/a(b)' }], `bad pattern "/a(b)": Unexpected ( at index 2: /a(b)${HINT}`],
    [[{ path: '/books/:id?' }], `bad pattern "/books/:id?": Unexpected ? at index 10: /books/:id?${HINT}`],
    [[{ path: '/files/*' }], `bad pattern "/files/*": Missing parameter name at index 8: /files/*${HINT}`],
    [[{ path: '/n/:id(\\d+)' }], `bad pattern "/n/:id(\\\\d+)": Unexpected ( at index 6: /n/:id(\\d+)${HINT}`],
    [[{ path: 'a' }], 'a route path must be a string starting with "/", got "a"'],
    // path-to-regexp 8 takes a leading optional group; here the group goes after the first `/`.
    [
      [{ path: '{/:lang}/about' }],
      'a route path must be a string starting with "/", got "{/:lang}/about" (an optional first segment is written "/{:lang/}about")',
    ],
    [
      [{ path: '{/:lang}' }],
      'a route path must be a string starting with "/", got "{/:lang}" (an optional first segment is written "/{:lang}")',
    ],
    // Routes that could never work as written: one value for two params, a segment no URL keeps.
    [[{ path: '/:id/:id' }], 'bad pattern "/:id/:id": the param "id" is named twice'],
    [[{ path: '/*p/x/:p' }], 'bad pattern "/*p/x/:p": the param "p" is named twice'],
    [[{ path: '/a//b' }], 'bad pattern "/a//b": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '//a' }], 'bad pattern "//a": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '/a/./b' }], 'bad pattern "/a/./b": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '/a/..' }], 'bad pattern "/a/..": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '/a/:id/.' }], 'bad pattern "/a/:id/.": a "//", "." or ".." segment, which no URL keeps'],
    // Written as escapes or escaped, they are still such segments.
    [[{ path: '/%2E%2E/x' }], 'bad pattern "/%2E%2E/x": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '/a/%2e' }], 'bad pattern "/a/%2e": a "//", "." or ".." segment, which no URL keeps'],
    [[{ path: '/a/\\./b' }], 'bad pattern "/a/\\\\./b": a "//", "." or ".." segment, which no URL keeps'],
  ])('refuses a bad pattern: %j', (routes, message) => {
    expect(() => createRoutes(routes as { path: string }[])).toThrow(expect.objectContaining({ code: 'BAD_PATTERN', message }));
  });

  it('suggests for a leading optional group a pattern that matches what path-to-regexp 8 matches with it', () => {
    const paths = ['/', '/about', '/fr/about', '/fr', '/fr/', '/about/', '/fr/x/about', '/%E6%97%A5/about'];
    for (const [group, suggested] of [
      ['{/:lang}/about', '/{:lang/}about'],
      ['{/:lang}', '/{:lang}'],
    ] as const) {
      const routes = createRoutes([{ path: suggested }]);
      const theirs = ptrMatch(group, { decode: decodeURIComponent });
      for (const path of paths) {
        const ours = routes.match(path);
        const their = theirs(path);
        expect(ours && { ...ours.params }, `${group} at ${path}`).toEqual(their ? { ...their.params } : null);
      }
    }
  });

  it('refuses a pattern past the engine’s limits with a RouteError, not a RangeError', () => {
    // Groups nested 20,000 deep overflowed the stack of the parser.
    const deep = '/' + '{'.repeat(20_000) + 'a' + '}'.repeat(20_000);
    expect(() => createRoutes([{ path: deep }])).toThrow(
      expect.objectContaining({
        name: 'RouteError',
        code: 'BAD_PATTERN',
        message: expect.stringContaining('too large to compile (RangeError'),
      }),
    );
  });

  it('takes a trailing slash, dots inside a segment and a group after a slash as patterns that can match', () => {
    const t = createRoutes([{ path: '/dir/' }, { path: '/a/.:ext' }, { path: '/v/..x' }, { path: '/docs/{:lang}' }, { path: '/' }]);
    expect(['/dir/', '/a/.json', '/v/..x', '/docs/en', '/'].map((p) => t.match(p)?.route.path)).toEqual([
      '/dir/',
      '/a/.:ext',
      '/v/..x',
      '/docs/{:lang}',
      '/',
    ]);
  });

  it('refuses two routes with one name', () => {
    expect(() =>
      createRoutes([
        { path: '/a', name: 'x' },
        { path: '/b', name: 'x' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'DUPLICATE_NAME', message: 'two routes are named "x": /a and /b' }));
  });

  it('normalizes its base', () => {
    expect(createRoutes([], { base: '/app' }).base).toBe('/app/');
    expect(createRoutes([]).base).toBe('/');
  });
});

describe('locations', () => {
  it('yields static paths and every entries() expansion, sync, async and promised, once each', async () => {
    const t = createRoutes([
      { path: '/' },
      { path: '/books/:id', entries: () => [{ id: '1' }, { id: 'Les Misérables' }, { id: '1' }] },
      {
        path: '/authors/:slug',
        async *entries() {
          yield { slug: 'hugo' };
          yield { slug: 'dumas' };
        },
      },
      { path: '/tags/:tag', entries: async () => [{ tag: 'C++' }] },
      { path: '/list{/:page}' },
      { path: '/users/:id' },
      { path: '/files/*path' },
    ]);
    const out: string[] = [];
    for await (const location of t.locations()) out.push(location);
    expect(out).toEqual(['/', '/books/1', '/books/Les%20Mis%C3%A9rables', '/authors/hugo', '/authors/dumas', '/tags/C%2B%2B', '/list']);
  });

  it('skips an entries() record that names no location (slug "..") and tells onError, the rest still coming', async () => {
    const broken = {
      path: '/broken/:x',
      entries: () => {
        throw new Error('database down');
      },
    };
    const t = createRoutes([
      { path: '/books/:slug', entries: () => [{ slug: 'a' }, { slug: '..' }, { slug: '' }, {} as { slug: string }, { slug: 'b' }] },
      broken,
      {
        path: '/tags/:tag',
        entries: async function* () {
          yield { tag: 'x' };
          throw new Error('cursor lost');
        },
      },
      { path: '/about' },
    ]);
    const faults: { path: string; params: unknown; message: string }[] = [];
    const out: string[] = [];
    for await (const location of t.locations({
      onError: (f) => faults.push({ path: f.route.path as string, params: f.params, message: (f.error as Error).message }),
    }))
      out.push(location);
    expect(out).toEqual(['/books/a', '/books/b', '/tags/x', '/about']);
    expect(faults).toEqual([
      { path: '/books/:slug', params: { slug: '..' }, message: expect.stringContaining('a ".." segment is not a path segment') },
      { path: '/books/:slug', params: { slug: '' }, message: expect.stringContaining('cannot be ""') },
      { path: '/books/:slug', params: {}, message: expect.stringContaining('missing param') },
      { path: '/broken/:x', params: undefined, message: 'database down' },
      { path: '/tags/:tag', params: undefined, message: 'cursor lost' },
    ]);
    const quiet: string[] = [];
    for await (const location of t.locations()) quiet.push(location);
    expect(quiet).toEqual(out);
  });
});

describe('queryKeys: which query keys make a distinct state', () => {
  const t = createRoutes([{ path: '/search', queryKeys: ['q', 'page'] }, { path: '/books/:id' }, { path: '/all', queryKeys: undefined }], {
    queryKeys: ['tab'],
    notFound: { queryKeys: [] },
  });

  it.each([
    ['/search?utm_source=x&q=C%2B%2B&page=2&q=b#top', '/search?q=C%2B%2B&q=b&page=2', { q: ['C++', 'b'], page: '2' }],
    ['/search?%71=1&_=99', '/search?q=1', { q: '1' }],
    ['/books/1?tab=reviews&fbclid=abc', '/books/1?tab=reviews', { tab: 'reviews' }],
    ['/books/1?fbclid=abc', '/books/1', {}],
    ['/all?a=1&tab=2', '/all?tab=2', { tab: '2' }],
  ])('reads %s as the state %s', (location, state, query) => {
    expect(t.stateOf(location)).toBe(state);
    expect({ ...t.match(location)?.query }).toEqual(query);
    expect(t.stateOf(state)).toBe(state);
  });

  it('names one state and one canonical location for its declared keys in any order (eleventh review)', () => {
    // Before, each order was a state of its own: a render and a cache entry each, and a canonical
    // link naming itself, so one page had as many canonical URLs as its keys have orders.
    const orders = ['/search?page=2&q=a&q=b', '/search?q=a&page=2&q=b', '/search?q=a&q=b&page=2&utm=1'];
    for (const location of orders) {
      expect(t.stateOf(location)).toBe('/search?q=a&q=b&page=2');
      const found = t.match(location);
      expect(found && t.canonical(found)).toBe('/search?q=a&q=b&page=2');
    }
  });

  it('drops every key for the notFound route when it declares none, and keeps them all by default', () => {
    expect(t.stateOf('/nowhere?tab=1&x=2')).toBe('/nowhere');
    expect(createRoutes([{ path: '/a' }]).stateOf('/a?x=1&y=2#h')).toBe('/a?x=1&y=2');
  });

  it('refuses in development a queryKeys that is one string: "page" kept every key it holds ("p", "age")', () => {
    const loose = (keys: unknown) => keys as string[];
    expect(() => createRoutes([{ path: '/s' }], { queryKeys: loose('page') })).toThrow(
      'queryKeys must be a list of query keys, such as ["page"]; got "page"',
    );
    expect(() => createRoutes([{ path: '/s', queryKeys: loose('q') }])).toThrow(
      'queryKeys of route /s must be a list of query keys, such as ["page"]; got "q"',
    );
    expect(() => createRoutes([{ path: '/s' }], { notFound: { queryKeys: loose('q') } })).toThrow(
      'queryKeys of the notFound route must be',
    );
  });

  it('refuses in development a queryKeys that declares a tracking tag, whose states were one silently', () => {
    // `/report?utm_campaign=a` and `?utm_campaign=b` were one state, one cache entry, an empty query.
    expect(() => createRoutes([{ path: '/report', queryKeys: ['page', 'utm_campaign'] }])).toThrow(
      'queryKeys of route /report declares "utm_campaign", a tracking tag: tracking tags are never part of a state',
    );
    expect(() => createRoutes([{ path: '/s' }], { queryKeys: ['gclid'] })).toThrow('queryKeys declares "gclid", a tracking tag');
    expect(() => createRoutes([{ path: '/s' }], { notFound: { queryKeys: ['_ga'] } })).toThrow(
      'queryKeys of the notFound route declares "_ga"',
    );
    expect(createRoutes([{ path: '/s', queryKeys: ['UTM_source', 'utm'] }]).stateOf('/s?utm=1&UTM_source=2')).toBe('/s?UTM_source=2&utm=1');
  });
});

describe('tracking tags: never a state, with or without queryKeys', () => {
  const loose = createRoutes([{ path: '/books/:id' }, { path: '/search', queryKeys: ['q'] }]);
  const tags = 'utm_source=twitter&utm_medium=social&gclid=1&fbclid=abc&msclkid=2&dclid=3&mc_cid=4&mc_eid=5&_ga=6&_gl=7&yclid=8&igshid=9';

  it.each([
    ['/books/1?' + tags, '/books/1'],
    ['/books/1?utm_source=x&fbclid=y', '/books/1'],
    ['/books/1?tab=reviews&' + tags + '&x=1', '/books/1?tab=reviews&x=1'],
    ['/books/1?%75tm_campaign=spring&tab=1', '/books/1?tab=1'],
    ['/search?' + tags + '&q=a', '/search?q=a'],
  ])('reads %s as the state %s, its match and canonical location alike', (location, state) => {
    expect(loose.stateOf(location)).toBe(state);
    const found = loose.match(location + '#top');
    expect(found?.location).toBe(state + '#top');
    expect(found && loose.canonical(found)).toBe(state);
    expect(Object.keys(found?.query ?? {}).filter((key) => /utm|clid|_g|mc_|igshid/.test(key))).toEqual([]);
  });

  it('keeps keys that only look like tags: UTM_SOURCE, gclid2, utm without its underscore', () => {
    expect(loose.stateOf('/books/1?UTM_SOURCE=a&gclid2=b&utm=c&x_utm_source=d')).toBe(
      '/books/1?UTM_SOURCE=a&gclid2=b&utm=c&x_utm_source=d',
    );
  });
});

describe('types', () => {
  it('infers params from the path literal', () => {
    createRoutes([
      {
        path: '/books/:id/reviews{/:page}',
        render: ({ params }) => {
          expectTypeOf(params).toEqualTypeOf<{ id: string; page?: string }>();
          // @ts-expect-error: a typo in a param name is a compile error
          return params.idd;
        },
      },
      { path: '/files/*path', load: ({ params }) => expectTypeOf(params.path).toEqualTypeOf<string[]>() },
    ]);
    const r = route({
      path: '/authors/:slug',
      load: async ({ params }) => ({ name: params.slug }),
      render: ({ data }) => {
        expectTypeOf(data).toEqualTypeOf<{ name: string }>();
        return data.name;
      },
    });
    expect(createRoutes([r]).match('/authors/hugo')?.route).toBe(r);
  });
});

describe('canonical locations and redirect routes', () => {
  const table = createRoutes(
    [
      { path: '/recipes/:slug', name: 'recipe' },
      { path: '/files/*path' },
      { path: '/old/:slug', redirect: '/recipes/:slug' },
      { path: '/legacy', redirect: ({ query }) => `/recipes/${String(query['id'])}` },
    ],
    { notFound: { title: 'Missing' } },
  );
  const loadOf = (location: string, from: RouteTable<AnyRoute> = table) => {
    const m = from.match(location);
    try {
      m?.route.load?.({ params: m.params, query: m.query, location: m.location, origin: '', signal: new AbortController().signal });
    } catch (thrown) {
      return thrown;
    }
    return null;
  };

  it.each([
    ['/recipes/mac+cheese', '/recipes/mac%2Bcheese'],
    ['/recipes/mac%2Bcheese', '/recipes/mac%2Bcheese'],
    ['/recipes/mac%2bcheese', '/recipes/mac%2Bcheese'],
    ['/recipes/caf%C3%A9?b=1+1&a', '/recipes/caf%C3%A9?b=1%2B1&a='],
    ['/recipes/x?q=%7e', '/recipes/x?q=~'],
    ['/files/a/b%2Fc', '/files/a/b%2Fc'],
  ])('names one canonical location for %s: %s', (location, canonical) => {
    const m = table.match(location);
    expect(m && table.canonical(m)).toBe(canonical);
  });

  it('has no canonical location for the notFound route', () => {
    const m = table.resolve('/nowhere');
    expect(m && table.canonical(m)).toBeNull();
  });

  it('makes a redirect route load by throwing a 301 to its target, params by name and the query kept', () => {
    expect(loadOf('/old/mac+cheese?x=1')).toMatchObject({ kind: 'redirect', status: 301, to: '/recipes/mac%2Bcheese?x=1' });
    expect(loadOf('/legacy?id=7')).toMatchObject({ kind: 'redirect', status: 301, to: '/recipes/7' });
  });

  it('refuses a redirect pattern that needs a param its path does not capture', () => {
    expect(() => createRoutes([{ path: '/old', redirect: '/recipes/:slug' }])).toThrow(
      expect.objectContaining({
        code: 'BAD_REDIRECT',
        message: 'the redirect of route /old to "/recipes/:slug" needs params its path does not capture: slug',
      }),
    );
  });

  it.each([
    ['/f/:id', '/g/*id'],
    ['/f/*id', '/g/:id'],
    ['/x{/:lang}/p', '/y/:lang/p'],
  ])('refuses in development a redirect from %s to %s, which cannot write its params on every request', (path, redirect) => {
    expect(() => createRoutes([{ path, redirect }])).toThrow(
      expect.objectContaining({ code: 'BAD_REDIRECT', message: expect.stringContaining('cannot always write its params') }),
    );
  });

  it.each([
    ['/B', '/b', false],
    ['/B/:id{/:page}', '/b/:id{/:page}', false],
    ['/a', '/a', true],
    ['/*p', '/new/*p', true],
  ])(
    'refuses in development a redirect from %s to %s, which its own route matches again (case-sensitive: %s)',
    (path, redirect, sensitive) => {
      expect(() => createRoutes([{ path, redirect }], { sensitive })).toThrow(
        expect.objectContaining({ code: 'BAD_REDIRECT', message: expect.stringContaining('leads back to the route itself') }),
      );
    },
  );

  it('lets be a redirect whose target an earlier route takes, or a target in another case where case counts', () => {
    const moved = createRoutes([{ path: '/new/*p' }, { path: '/B', redirect: '/b' }, { path: '/*p', redirect: '/new/*p' }]);
    expect(loadOf('/old/x', moved)).toMatchObject({ kind: 'redirect', to: '/new/old/x' });
    expect(loadOf('/B', moved)).toMatchObject({ kind: 'redirect', to: '/b' });
  });

  it.each([
    ['https://new.example/books/:id', 'a route path must be a string starting with "/"'],
    ['books/:id', 'a route path must be a string starting with "/"'],
    ['//new.example/books/:id', 'a "//", "." or ".." segment'],
  ])('names the redirect route and its target when the target %s is no path pattern', (redirect, cause) => {
    // Before, the error blamed "a route path" (`got "https://new.example/books/:id"`) and named no route.
    const error = (() => {
      try {
        createRoutes([{ path: '/old/:id', redirect }]);
      } catch (thrown) {
        return thrown as RouteError;
      }
    })();
    expect(error?.code).toBe('BAD_PATTERN');
    expect(error?.message).toContain(`the redirect of route /old/:id to ${JSON.stringify(redirect)} is no path pattern of this app: `);
    expect(error?.message).toContain(cause);
  });

  it('takes a redirect whose target has optional params the path may not have', () => {
    const table = createRoutes([
      { path: '/x/:lang/p', redirect: '/y{/:lang}/p' },
      { path: '/a{/:b}', redirect: '/c{/:b}' },
    ]);
    expect(table.routes).toHaveLength(2);
  });
});

describe('noindex routes and locations', () => {
  const t = createRoutes([
    { path: '/' },
    { path: '/drafts/:id', noindex: true, entries: () => [{ id: '1' }, { id: '2' }] },
    { path: '/search', noindex: true },
    { path: '/books/:id', entries: () => [{ id: '1' }, { id: 'drafts' }] },
    // Listed here, answered by the noindex route that matches it first.
    {
      path: '/:section/:id',
      entries: () => [
        { section: 'drafts', id: '3' },
        { section: 'news', id: '1' },
      ],
    },
  ]);

  it.each([
    [undefined, ['/', '/books/1', '/books/drafts', '/news/1']],
    [{}, ['/', '/books/1', '/books/drafts', '/news/1']],
    [{ noindex: false }, ['/', '/books/1', '/books/drafts', '/news/1']],
    [{ noindex: true }, ['/', '/drafts/1', '/drafts/2', '/search', '/books/1', '/books/drafts', '/drafts/3', '/news/1']],
  ])('with options %j lists %j: a state a noindex route matches only when asked for', async (options, expected) => {
    const out: string[] = [];
    for await (const location of t.locations(options)) out.push(location);
    expect(out).toEqual(expected);
  });
  it('leaves out the states of redirect routes, which answer 301, unless noindex: true asks for every state', async () => {
    const table = createRoutes([
      { path: '/' },
      { path: '/shop', redirect: '/' },
      { path: '/p/:id', redirect: '/products/:id', entries: () => [{ id: '1' }] },
      { path: '/products/:id', entries: () => [{ id: '1' }] },
    ]);
    const listed = async (options?: { noindex: boolean }) => {
      const out: string[] = [];
      for await (const location of table.locations(options)) out.push(location);
      return out;
    };
    expect(await listed()).toEqual(['/', '/products/1']);
    expect(await listed({ noindex: true })).toEqual(['/', '/shop', '/p/1', '/products/1']);
  });
});
