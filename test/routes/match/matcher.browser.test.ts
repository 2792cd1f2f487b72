import { describe, expect, it } from 'vitest';
import { compileRoute, type CompiledRoute } from '../../../src/routes/pattern/compile.js';
import { createMatcher as createIndexMatcher } from '../../../src/routes/match/matcher.js';
import { createMatcher } from '../../../src/routes/match/matcher.browser.js';

/** The route and params a matcher finds first for a path, as a route table reads them. */
const firstOf = (create: typeof createMatcher, compiled: CompiledRoute[], sensitive = true) =>
  create(compiled, sensitive, (id, params) => ({ id, params: { ...params } }));

describe("the browser's matcher", () => {
  it('takes the first pattern in declaration order that matches, with its params decoded once and a wildcard split', () => {
    const compiled = ['/books/new', '/books/:id', '/files/*path', '/docs{/:lang}', '/:any/edit'].map((path) =>
      compileRoute({ path }, true),
    );
    const first = firstOf(createMatcher, compiled);
    expect(first('/books/new', null)).toEqual({ id: 0, params: {} });
    expect(first('/books/caf%C3%A9%2525', null)).toEqual({ id: 1, params: { id: 'café%25' } });
    expect(first('/files/a/b%20c', null)).toEqual({ id: 2, params: { path: ['a', 'b c'] } });
    expect(first('/docs', null)).toEqual({ id: 3, params: {} });
    expect(first('/docs/en', null)).toEqual({ id: 3, params: { lang: 'en' } });
    expect(first('/books/edit', null)).toEqual({ id: 1, params: { id: 'edit' } });
    expect(first('/x/edit', null)).toEqual({ id: 4, params: { any: 'x' } });
    expect(first('/nothing/here', null)).toBeNull();
  });

  it('gives a param named like a member of Object.prototype the text of the URL, and nothing inherited', () => {
    const params = createMatcher([compileRoute({ path: '/:__proto__/:constructor' }, true)], true, (_, p) => p)('/a/b', null);
    expect(params && Object.getPrototypeOf(Object.getPrototypeOf(params))).toBeNull();
    expect(Object.entries(params ?? {})).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
    expect(params?.toString).toBeUndefined();
  });

  it('finds what the segment index finds on a table of a thousand routes, case-sensitive or not', () => {
    const patterns = Array.from(
      { length: 1000 },
      (_, i) =>
        [`/s${i}/items/:id`, `/u/:user/p${i}/:post`, `/static/${i}/page`, `/docs${i}{/:lang}/*slug`, `/shop/:s/p${i}.:ext`][
          i % 5
        ] as string,
    );
    const paths = [
      '/s0/items/7',
      '/S0/items/7',
      '/u/ann/p1/9',
      '/static/2/page/',
      '/docs3/a/b',
      '/docs3/en/a%2Fb',
      '/shop/x/p4.json',
      '/s995/items/x',
      '/u/ann/p996/%F0%9F%98%80',
      '/static/997/page',
      '/docs998/x',
      '/shop/y/p999.tar.gz',
      '/static/1000/page',
      '/',
      '/s5/items',
    ];
    for (const sensitive of [true, false]) {
      const compiled = patterns.map((path) => compileRoute({ path }, sensitive));
      const scan = firstOf(createMatcher, compiled, sensitive);
      const index = firstOf(createIndexMatcher, compiled, sensitive);
      const found = paths.map((p) => scan(p, null));
      expect(found).toEqual(paths.map((p) => index(p, null)));
      expect(found.filter(Boolean).length).toBeGreaterThan(10);
    }
  });
});
