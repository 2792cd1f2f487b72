import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUglyUrl } from '../../../src/url/codec.js';
import { applyEdits, prettyHref, rewriteLinks } from '../../../src/server/html/links.js';
import { costRatio } from '../../cost.js';

const ctx = (mode: 'history' | 'hashbang', base = '/') => ({
  origin: 'https://example.com',
  base,
  mode,
  page: `https://example.com${base}`,
});

describe('prettyHref', () => {
  it.each([
    // [href, base, hashbang result, history result]
    ['/?_escaped_fragment_=/books/1', '/', '/#!/books/1', '/books/1'],
    ['?_escaped_fragment_=/books/1', '/', '/#!/books/1', '/books/1'],
    ['/books/1?_escaped_fragment_=', '/', '/#!/books/1', '/books/1'],
    ['/books/1?tab=x&_escaped_fragment_=', '/', '/#!/books/1?tab=x', '/books/1?tab=x'],
    ['/?_escaped_fragment_=key1=value1%26key2=value2', '/', '/#!key1=value1&key2=value2', '/?key1=value1&key2=value2'],
    ['/?_escaped_fragment_=/q/caf%25C3%25A9', '/', '/#!/q/caf%C3%A9', '/q/caf%C3%A9'],
    ['/?_escaped_fragment_=/q/C%2B%2B', '/', '/#!/q/C++', '/q/C++'],
    ['https://example.com/?_escaped_fragment_=/a', '/', 'https://example.com/#!/a', 'https://example.com/a'],
    ['//example.com/?_escaped_fragment_=/a', '/', 'https://example.com/#!/a', 'https://example.com/a'],
    ['  /?_escaped_fragment_=/a\n', '/', '/#!/a', '/a'],
    ['/app/?_escaped_fragment_=/books/1', '/app/', '/app/#!/books/1', '/app/books/1'],
    ['/app/books/1?_escaped_fragment_=', '/app/', '/app/#!/books/1', '/app/books/1'],
    ['/other/?_escaped_fragment_=/x', '/app/', '/other/#!/x', '/other/#!/x'],
    ['https://other.example/?_escaped_fragment_=/x%20y', '/', 'https://other.example/#!/x y', 'https://other.example/#!/x y'],
  ])('rewrites %s (base %s) to %s / %s', (href, base, hashbang, history) => {
    expect(prettyHref(href, ctx('hashbang', base))).toBe(hashbang);
    expect(prettyHref(href, ctx('history', base))).toBe(history);
  });

  it.each([
    // [href, base, hashbang result, history result]
    ['#!/books/2', '/', '/#!/books/2', '/books/2'],
    ['#!/books/2#reviews', '/shop/', '/shop/#!/books/2#reviews', '/shop/books/2#reviews'],
    ['#!key=v&b', '/shop/', '/shop/#!key=v&b', '/shop/?key=v&b'],
    [' #!', '/shop/', '/shop/#!/', '/shop/'],
  ])('writes the relative #! link %s (base %s) from the base: %s / %s', (href, base, hashbang, history) => {
    expect(prettyHref(href, ctx('hashbang', base))).toBe(hashbang);
    expect(prettyHref(href, ctx('history', base))).toBe(history);
  });

  it.each([
    // [href, base, history result]: an old #! link of the app, as a site that moved to clean URLs keeps in its content
    ['/#!/books/1', '/', '/books/1'],
    ['/#!/books/1?sort=new#reviews', '/', '/books/1?sort=new#reviews'],
    ['/#!', '/', '/'],
    ['/#!/q/caf%C3%A9', '/', '/q/caf%C3%A9'],
    ['/#!/q/café', '/', '/q/caf%C3%A9'],
    ['https://example.com/#!/books/1', '/', 'https://example.com/books/1'],
    ['//example.com/#!/books/1', '/', 'https://example.com/books/1'],
    ['/shop/#!/books/1', '/shop/', '/shop/books/1'],
    ['/shop/books/1#!/books/2', '/shop/', '/shop/books/2'],
    // as the client router reads it (a lone % is a % of the state), and moves a browser there
    ['/shop/#!/q/%zz', '/shop/', '/shop/q/%25zz'],
  ])('writes the pretty link %s (base %s) of the app as its clean URL in history mode: %s', (href, base, history) => {
    expect(prettyHref(href, ctx('history', base))).toBe(history);
    expect(prettyHref(href, ctx('hashbang', base))).toBeNull();
  });

  it.each([
    ['https://other.example/#!/x', 'another site'],
    ['/other/#!/x', 'a page outside base'],
    ['/.//evil.example/#!/x', 'a path that reads as a host'],
  ])('leaves the pretty link %s alone in history mode (%s)', (href) => {
    expect(prettyHref(href, ctx('history', '/shop/'))).toBeNull();
  });

  it('writes a relative #! link so that a crawler at an ugly URL reads the state it names', () => {
    // Against the ugly URL the crawler fetched, the link as the app wrote it names no state.
    const at = 'https://example.com/shop/?_escaped_fragment_=/books/1';
    expect(new URL('#!/books/2', at).href).toBe(at + '#!/books/2');
    const href = prettyHref('#!/books/2', ctx('hashbang', '/shop/')) as string;
    expect(toUglyUrl(new URL(href, at).href)).toBe('https://example.com/shop/?_escaped_fragment_=/books/2');
  });

  it.each([
    ['/books/1', 'a clean link'],
    ['#books', 'an anchor'],
    ['/#!/books/1', 'a pretty link'],
    ['/?x=_escaped_fragment_', 'a link with the name only as a value'],
    ['/?_escaped_fragment_=%zz', 'a malformed escape'],
    ['/?_escaped_fragment_=%C3%28', 'invalid UTF-8'],
    ['/?_escaped_fragment_=a&_escaped_fragment_=b', 'a repeated parameter'],
    ['/?_escaped_fragment_=a&x=1', 'a parameter that is not last'],
    ['http://[bad/?_escaped_fragment_=a', 'an unparsable URL'],
    ['mailto:x@example.com?_escaped_fragment_=%zz', 'a mailto link that does not decode'],
  ])('leaves %s alone (%s)', (href) => {
    expect(prettyHref(href, ctx('hashbang'))).toBeNull();
  });
});

describe('prettyHref against links that leave the origin (security, second round)', () => {
  const page = (base: string) => `https://example.com${base}`;
  // What the browser would open for a written href, read from the page it is written on.
  const opens = (href: string, base: string) => new URL(href, page(base));

  it.each([
    ['/.//evil.example/x?_escaped_fragment_=/pwn', '/app/'],
    ['/%2e%2e//evil.example/x?_escaped_fragment_=/pwn', '/app/'],
    ['/app/..//evil.example/x?_escaped_fragment_=/pwn', '/app/'],
    ['/app/%2E%2E/%2e//evil.example/x?_escaped_fragment_=', '/app/'],
    ['/.//evil.example/x?_escaped_fragment_=/pwn', '/'],
  ])('never turns the same-origin link %s (base %s) into one off the origin', (href, base) => {
    for (const mode of ['history', 'hashbang'] as const) {
      const out = prettyHref(href, ctx(mode, base));
      expect(out).not.toBeNull();
      expect(out).not.toMatch(/^[\\/]{2}/);
      expect(opens(out as string, base).origin).toBe('https://example.com');
    }
  });

  it('writes a scheme-relative link to another site with its scheme, never starting with //', () => {
    expect(prettyHref('//other.example/?_escaped_fragment_=/x', ctx('hashbang'))).toBe('https://other.example/#!/x');
  });

  it('never writes an href that starts with // or /\\, and keeps every same-origin link on the origin (property)', () => {
    const piece = fc.constantFrom('/', '\\', '.', '..', '%2e', '%2E', '%2e%2e', '%2E.', 'app', 'x', '%2f', '%5c', ' ', '\t');
    const base = fc.constantFrom('/', '/app/', '/a/b/');
    const fragment = fc.constantFrom('', '/pwn', '/a?b=1', 'k=v');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.constantFrom('evil.example', '127.0.0.1', ''),
        fragment,
        base,
        fc.boolean(),
        (pieces, host, state, b, hashbang) => {
          const href = '/' + pieces.join('') + '/' + host + '/x?_escaped_fragment_=' + state;
          const out = prettyHref(href, ctx(hashbang ? 'hashbang' : 'history', b));
          if (out === null) return;
          expect(out).not.toMatch(/^[\t\n\f\r ]*[\\/]{2}/);
          if (opens(href, b).origin === 'https://example.com') expect(opens(out, b).origin).toBe('https://example.com');
        },
      ),
      { seed: 1313, numRuns: 3000 },
    );
  });
});

describe("prettyHref on the app's own #! links in history mode (security)", () => {
  const opens = (href: string, base: string) => new URL(href, `https://example.com${base}`);

  it('never writes an href that starts with // or /\\, and keeps every same-origin #! link on the origin (property)', () => {
    const piece = fc.constantFrom('/', '\\', '.', '..', '%2e', '%2E', '%2e%2e', 'app', 'x', '%2f', '%5c', ' ', '\t');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.constantFrom('evil.example', '127.0.0.1', ''),
        fc.constantFrom('', '/pwn', '//evil.example/x', '/\\evil.example', '/a?b=1#c', 'k=v'),
        fc.constantFrom('/', '/app/', '/a/b/'),
        (pieces, host, state, base) => {
          const href = '/' + pieces.join('') + '/' + host + '/x#!' + state;
          const out = prettyHref(href, ctx('history', base));
          if (out === null) return;
          expect(out).not.toMatch(/^[\t\n\f\r ]*[\\/]{2}/);
          expect(opens(out, base).origin).toBe('https://example.com');
        },
      ),
      { seed: 1414, numRuns: 3000 },
    );
  });
});

describe('rewriteLinks', () => {
  it.each([
    ['<a href="/?_escaped_fragment_=/b/1">x</a>', '<a href="/#!/b/1">x</a>'],
    ["<a class=x HREF='/?_escaped_fragment_=/b/1' id=y>x</a>", '<a class=x href="/#!/b/1" id=y>x</a>'],
    ['<a href=/?_escaped_fragment_=/b/1>x</a>', '<a href="/#!/b/1">x</a>'],
    ['<a href="/?a=1&amp;_escaped_fragment_=/b">x</a>', '<a href="/#!/b">x</a>'],
    [
      '<area href="/?_escaped_fragment_=/m"><link rel=next href="/?_escaped_fragment_=/p/2">',
      '<area href="/#!/m"><link rel=next href="/#!/p/2">',
    ],
    ['<template><a href="/?_escaped_fragment_=/t">t</a></template>', '<template><a href="/#!/t">t</a></template>'],
    ['<p>_escaped_fragment_ in text</p><a href="/x">x</a>', '<p>_escaped_fragment_ in text</p><a href="/x">x</a>'],
    [
      '<!-- <a href="/?_escaped_fragment_=/c"> --><script>"<a href=/?_escaped_fragment_=/s>"</script>',
      '<!-- <a href="/?_escaped_fragment_=/c"> --><script>"<a href=/?_escaped_fragment_=/s>"</script>',
    ],
    ['<img src="/?_escaped_fragment_=/i">', '<img src="/?_escaped_fragment_=/i">'],
    ['<nav><a href="#!/b/2">2</a><a href="#top">top</a></nav>', '<nav><a href="/#!/b/2">2</a><a href="#top">top</a></nav>'],
    ['<a href="/?_escaped_fragment_=/%22%3E%3Cimg%20onerror%3Dx%3E">h</a>', '<a href="/#!/%22%3E%3Cimg%20onerror=x%3E">h</a>'],
    ['<a href="/?_escaped_fragment_=/q?a=1%26b=%27">q</a>', '<a href="/#!/q?a=1&amp;b=&#39;">q</a>'],
  ])('rewrites %s', (html, expected) => {
    expect(rewriteLinks(html, ctx('hashbang'))).toBe(expected);
  });

  it('reads a page whose link holds a 64 kB run of whitespace in linear time', () => {
    // The whitespace HTML strips around a URL was found by `[…]+$`, which V8 retries at each
    // character of a run that does not end the href: 4 s for 64 kB, quadratic in the run.
    const page = (length: number) => {
      const run = ' \t\n'.repeat(length / 3);
      return {
        run,
        html: `<a href="#!/b/1">1</a><a href="https://u.example/${run}x">u</a><a href="${run}#!/b/2${run}">2</a>`,
      };
    };
    const { run, html } = page(65_538);
    expect(rewriteLinks(html, ctx('history'))).toBe(`<a href="/b/1">1</a><a href="https://u.example/${run}x">u</a><a href="/b/2">2</a>`);
    // A page 8 times longer costs 8 times as much, not 64 (the cost measured against the shorter one).
    const short = page(8_193).html;
    const ratio = costRatio(
      () => rewriteLinks(html, ctx('history')),
      () => rewriteLinks(short, ctx('history')),
      { baselineRepeat: 8 },
    );
    expect(ratio).toBeLessThan(24);
  });

  it('returns markup with no ugly link as it is, without parsing', () => {
    const html = '<div><a href="/x">'.repeat(1000);
    expect(rewriteLinks(html, ctx('history'))).toBe(html);
  });
});

describe('applyEdits', () => {
  it('applies edits given in any order', () => {
    expect(
      applyEdits('abcdef', [
        { start: 4, end: 5, text: 'E' },
        { start: 0, end: 1, text: 'A' },
        { start: 2, end: 2, text: '+' },
      ]),
    ).toBe('Ab+cdEf');
  });
});
