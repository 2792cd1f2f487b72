import * as parse5 from 'parse5';
import { describe, expect, it, vi } from 'vitest';
import { SnapshotError } from '../../../src/server/errors.js';
import { mergeHead } from '../../../src/contract/head.js';
import { DEFAULT_SHELL, parseShell } from '../../../src/server/html/shell.js';

// parse5 wrapped in spies, to count parses.
vi.mock('parse5', async (original) => {
  const actual = await original<typeof import('parse5')>();
  return { ...actual, parse: vi.fn(actual.parse), parseFragment: vi.fn(actual.parseFragment) };
});
const parse = parse5.parse;

const links = { origin: 'https://example.com', base: '/', mode: 'hashbang' as const, page: 'https://example.com/' };
const shellOf = (html: string, outlet = '#app') => parseShell(html, { outlet, links });
const META = '<meta name="fragment" content="!">';
const count = (text: string, part: string) => text.split(part).length - 1;

/** Reads a document back with a real parser: title text, head child names, outlet inner HTML. */
function read(html: string) {
  const doc = parse(html);
  const all: { tagName: string; attrs: { name: string; value: string }[]; childNodes: unknown[]; parentNode: unknown }[] = [];
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of node.childNodes ?? []) {
      if ((child as { tagName?: string }).tagName) all.push(child as (typeof all)[number]);
      walk(child as { childNodes?: unknown[] });
    }
  };
  walk(doc);
  const head = all.find((e) => e.tagName === 'head');
  const title = all.find((e) => e.tagName === 'title');
  return {
    title: title ? (title.childNodes as { value: string }[]).map((n) => n.value).join('') : null,
    head: all
      .filter((e) => e.parentNode === head)
      .map((e) => e.tagName + (e.attrs.length ? `[${e.attrs.map((a) => `${a.name}=${a.value}`).join(' ')}]` : '')),
  };
}

describe('parseShell', () => {
  const shells = [
    [
      'a full shell',
      '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Books</title></head><body><nav>nav</nav><div id="app"><p>Loading</p></div><script src="/app.js"></script></body></html>',
    ],
    ['a shell with no head tags', '<!doctype html><title>Books</title><div id=app><p>Loading</p></div>'],
    ['a shell with an empty implied head', '<!doctype html><div id=app><p>Loading</p></div>'],
    ['a shell with no doctype and no html tag', '<div id="app"><p>Loading</p></div>'],
    [
      'a shell in upper case',
      '<!DOCTYPE HTML><HTML><HEAD><TITLE>Books</TITLE></HEAD><BODY><DIV ID="app"><P>Loading</P></DIV></BODY></HTML>',
    ],
  ] as const;

  it.each(shells)('puts the meta fragment tag into the head of %s, once', (_, html) => {
    const { page } = shellOf(html);
    expect(count(page, META)).toBe(1);
    expect(read(page).head).toContain('meta[name=fragment content=!]');
  });

  it.each(shells)('fills title, head and outlet of %s', (_, html) => {
    const snap = shellOf(html).snapshot({
      title: 'A & "B" </title><img onerror=x>',
      head: '<link rel="canonical" href="https://example.com/#!/x">',
      outlet: '<h1>Book</h1>',
    });
    const back = read(snap);
    expect(back.title).toBe('A & "B" </title><img onerror=x>');
    expect(back.head).toContain('link[rel=canonical href=https://example.com/#!/x]');
    expect(snap).toContain('<h1>Book</h1>');
    expect(snap).not.toContain('Loading');
    expect(snap).not.toContain('<img onerror');
    expect(snap).not.toContain(META);
  });

  it('keeps the shell title and outlet when a state gives none', () => {
    const snap = shellOf(shells[0][1]).snapshot({});
    expect(read(snap).title).toBe('Books');
    expect(snap).toContain('<div id="app"><p>Loading</p></div>');
  });

  it("names the shell's title on <title> when a state's replaces it, as document.title reads it, escaped", () => {
    const shell = shellOf(
      '<!doctype html><html><head><title lang=en>\n  Shop &amp;\t"Co" </title></head><body><div id=app></div></body></html>',
    );
    expect(shell.snapshot({ title: 'Item' })).toContain('<title lang=en data-router-title="Shop &amp; &quot;Co&quot;">Item</title>');
    expect(shell.snapshot({})).toContain('<title lang=en>\n  Shop &amp;\t"Co" </title>');
  });

  it('adds no <title> to a shell without one unless the state has a title', () => {
    const html = '<!doctype html><html><head></head><body><div id=app></div></body></html>';
    expect(shellOf(html).snapshot({})).toBe('<!doctype html><html><head></head><body><div id=app></div></body></html>');
    expect(shellOf(html).snapshot({ title: 'T' })).toBe(
      '<!doctype html><html><head><title data-router-title="">T</title></head><body><div id=app></div></body></html>',
    );
  });

  it('keeps one meta fragment tag in the page when the shell has several, and none in snapshots', () => {
    const html = `<html><head>${META}<META NAME="Fragment" CONTENT="!"></head><body><main></main></body></html>`;
    const shell = shellOf(html, 'main');
    expect(shell.page).toBe(`<html><head>${META}</head><body><main></main></body></html>`);
    expect(shell.snapshot({ outlet: 'x' })).toBe('<html><head></head><body><main>x</main></body></html>');
  });

  it('moves a meta fragment tag found only in the body into the head', () => {
    const html = `<html><head><title>t</title></head><body>${META}<main></main></body></html>`;
    expect(shellOf(html, 'main').page).toBe(`<html><head><title>t</title>${META}</head><body><main></main></body></html>`);
  });

  it('replaces the shell canonical link with the state one', () => {
    const html = '<html><head><link rel="Canonical" href="https://example.com/"></head><body><main></main></body></html>';
    const snap = shellOf(html, 'main').snapshot({ head: '<link rel="canonical" href="https://example.com/#!/a">' });
    expect(snap).toBe('<html><head><link rel="canonical" href="https://example.com/#!/a"></head><body><main></main></body></html>');
  });

  it("leaves the app's own #! links as written in the page browsers get, and writes them clean in snapshots", () => {
    // A hashbang app under cleanUrls 'bots': crawlers are told clean URLs (links mode 'history'), but
    // the browser's router follows its #! links by hashchange, in the same document.
    const html =
      '<html><head></head><body><nav><a href="#!/books/1">b</a> <a href="/#!/x">x</a> <a href="/?_escaped_fragment_=/y">y</a></nav><main></main></body></html>';
    const shell = parseShell(html, { outlet: 'main', links: { ...links, mode: 'history' } });
    expect(shell.page).toContain('<a href="#!/books/1">b</a> <a href="/#!/x">x</a> <a href="/y">y</a>');
    expect(shell.snapshot({})).toContain('<a href="/books/1">b</a> <a href="/x">x</a> <a href="/y">y</a>');
  });

  it('rewrites ugly links in the shell to pretty ones, in the page and in snapshots', () => {
    const html =
      '<html><head></head><body><nav><a href="/?_escaped_fragment_=/books/1">b</a></nav><main><a href="?_escaped_fragment_=/x">x</a></main></body></html>';
    const shell = shellOf(html, 'main');
    expect(shell.page).toContain('<a href="/#!/books/1">b</a>');
    expect(shell.page).toContain('<a href="/#!/x">x</a>');
    expect(shell.snapshot({})).toContain('<a href="/#!/books/1">b</a>');
    expect(shell.snapshot({})).toContain('<a href="/#!/x">x</a>');
    expect(shell.snapshot({ outlet: 'new' })).toContain('<main>new</main>');
  });

  it('finds the outlet by a compound selector and ignores look-alikes in comments and scripts', () => {
    const html =
      '<html><body><!-- <main id="app"></main> --><script>"<main class=o></main>"</script><section class="x o">old</section></body></html>';
    expect(shellOf(html, 'section.o').snapshot({ outlet: 'new' })).toBe(html.replace('old', 'new'));
  });

  it('is the default shell with an #app outlet', () => {
    expect(shellOf(DEFAULT_SHELL).snapshot({ outlet: '<p>x</p>' })).toContain('<div id="app"><p>x</p></div>');
  });

  it.each([
    ['no outlet', '<html><body><div id="other"></div></body></html>', '#app', /no element matches the outlet selector "#app"/],
    ['an outlet in the head', '<html><head><template id="app"></template></head><body></body></html>', '#app', /must be inside <body>/],
    ['a script outlet', '<html><body><script id="app"></script></body></html>', '#app', /<script> cannot be an outlet/],
    ['a textarea outlet', '<html><body><textarea id="app"></textarea></body></html>', '#app', /<textarea> cannot be an outlet/],
    ['a void outlet', '<html><body><img id="app"></body></html>', '#app', /has no end tag/],
    ['an unclosed outlet', '<html><body><div id="app"><p>x', '#app', /has no end tag/],
  ])('refuses a shell with %s', (_, html, outlet, message) => {
    expect(() => shellOf(html, outlet)).toThrow(message);
    expect(() => shellOf(html, outlet)).toThrow(SnapshotError);
  });

  it.each([
    ['<title>  Books &amp;\n more </title>', 'Books & more'],
    ['<title></title>', ''],
    ['', ''],
    ['<title>First</title><title>Second</title>', 'First'],
  ])("gives the shell's title as document.title reads it: %s", (title, text) => {
    expect(shellOf(`<html><head>${title}</head><body><div id="app"></div></body></html>`).title).toBe(text);
  });

  it('refuses a shell that is not a string', () => {
    expect(() => parseShell(42 as unknown as string, { outlet: '#app', links })).toThrow(/shell must be a string/);
  });

  it('parses the shell once, and each snapshot is string assembly with no parse', () => {
    vi.mocked(parse5.parse).mockClear();
    vi.mocked(parse5.parseFragment).mockClear();
    const shell = shellOf(shells[0][1]);
    expect(parse5.parse).toHaveBeenCalledTimes(1);
    const snaps = Array.from({ length: 1000 }, (_, i) => shell.snapshot({ title: `Book ${i}`, head: '', outlet: `<h1>${i}</h1>` }));
    expect(parse5.parse).toHaveBeenCalledTimes(1);
    expect(parse5.parseFragment).not.toHaveBeenCalled();
    expect(snaps[7]).toContain('<title data-router-title="Books">Book 7</title>');
    expect(snaps[7]).toContain('<div id="app"><h1>7</h1></div>');
  });

  it('leaves out a shell head tag whose key a state sets, keeps the others with their links made pretty', () => {
    const html =
      '<html><head><meta name="description" content="shell"><link rel="alternate" hreflang="de" href="/?_escaped_fragment_=/de"><link rel="alternate" hreflang="fr" href="/?_escaped_fragment_=/fr"><script type="application/ld+json">{}</script></head><body><div id="app"></div></body></html>';
    const shell = shellOf(html);
    const tags = mergeHead([
      { meta: [{ name: 'description', content: 'state' }], link: [{ rel: 'alternate', hreflang: 'de', href: '/de' }] },
    ]);
    const snap = shell.snapshot({ tags });
    expect(count(snap, 'name="description"')).toBe(1);
    expect(snap).toContain('<meta name="description" content="state">');
    expect(snap).toContain('<link rel="alternate" hreflang="fr" href="/#!/fr">');
    expect(snap).not.toContain('/#!/de');
    expect(snap).toContain('<script type="application/ld+json">{}</script>');
    expect(shell.snapshot({})).toContain('<meta name="description" content="shell"><link rel="alternate" hreflang="de" href="/#!/de">');
  });
});
