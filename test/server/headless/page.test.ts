import fc from 'fast-check';
import { Window } from 'happy-dom';
import { isValue } from 'happy-dom/lib/PropertySymbol.js';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { pageOutcome, serializePage, useIsValueKey, watchWindow } from '../../../src/server/headless/page.js';
import type { RenderJob } from '../../../src/server/render/render.js';

// As the page process does once it has loaded happy-dom (child.ts).
useIsValueKey(isValue);

let windows: Window[] = [];
afterEach(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
  windows = [];
});

function page(html: string) {
  const window = new Window({ url: 'https://example.com/app/books/1' });
  windows.push(window);
  window.document.write(html);
  return window;
}

const job = (overrides: Partial<RenderJob> = {}): RenderJob => ({
  location: '/books/1',
  url: 'https://example.com/app/books/1',
  canonical: "https://example.com/app/books/1?a=1&b='%22%3E",
  match: null,
  notFound: false,
  settings: { origin: 'https://example.com', base: '/app/', mode: 'history' },
  signal: new AbortController().signal,
  ...overrides,
});

describe('serializePage', () => {
  it('writes the doctype, drops meta fragment tags and the shell’s canonical links, adds the state canonical link escaped and marked as its', () => {
    const source =
      '<!DOCTYPE html><html><head><meta name="Fragment" content="!"><link rel="Canonical stylesheet" href="https://wrong.example/"><title>T</title></head>' +
      '<body><a href="/app/?_escaped_fragment_=/books/2">n</a><a href="?_escaped_fragment_=/x">r</a><a href="/plain">p</a><area href="/app/books/3?_escaped_fragment_="></body></html>';
    const window = page(source);
    // A location is canonical (no raw `"` or `<`), but whatever it holds is written escaped.
    const html = serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ location: '/books/1?a=1&b="<' }), source);
    expect(html.startsWith('<!DOCTYPE html>\n<html>')).toBe(true);
    expect(html).not.toMatch(/fragment|wrong\.example/i);
    expect(html).toContain(
      `<link rel="canonical" href="https://example.com/app/books/1?a=1&amp;b='%22%3E" data-router-head="/books/1?a=1&amp;b=&quot;&lt;">`,
    );
    const links: string[] = [];
    const canonical: string[] = [];
    type Node = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[] };
    const walk = (n: Node) => {
      const href = n.attrs?.find((a) => a.name === 'href')?.value;
      if (n.tagName === 'link') canonical.push(href ?? '');
      else if (href !== undefined) links.push(href);
      (n.childNodes ?? []).forEach(walk);
    };
    walk(parse(html) as unknown as Node);
    expect(canonical).toEqual(["https://example.com/app/books/1?a=1&b='%22%3E"]);
    expect(links).toEqual(['/app/books/2', '/app/x', '/plain', '/app/books/3']);
  });

  it('takes the settled attributes off <html>, after pageOutcome has read them: they are the router’s word to the renderer', () => {
    const window = page(
      '<!DOCTYPE html><html lang="en" data-router-state="settled" data-router-status="301" data-router-redirect="/books/2" data-theme="dark"><head></head><body></body></html>',
    );
    const win = window as unknown as Parameters<typeof serializePage>[0];
    expect(pageOutcome(win, job())).toEqual({ status: 301, redirect: '/books/2' });
    const html = serializePage(win, job({ notFound: true }), '');
    expect(html).toBe(
      `<!DOCTYPE html>\n<html lang="en" data-theme="dark"><head><meta name="robots" content="noindex" data-router-head="/books/1"></head><body></body></html>\n`,
    );
  });

  it('keeps a canonical link the page’s scripts wrote (a route’s head, as the hooks renderer does) and adds none of its own; a 404 keeps none', () => {
    const source = '<!DOCTYPE html><html><head><link rel="canonical" href="https://example.com/app/"></head><body></body></html>';
    const own = (notFound: boolean) => {
      const window = page(source);
      const link = window.document.createElement('link');
      link.setAttribute('rel', 'canonical');
      link.setAttribute('href', 'https://example.com/app/books');
      window.document.head.appendChild(link);
      return serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ notFound }), source);
    };
    expect(own(false)).toBe(
      '<!DOCTYPE html>\n<html><head><link rel="canonical" href="https://example.com/app/books"></head><body></body></html>\n',
    );
    expect(own(true)).toBe(
      `<!DOCTYPE html>\n<html><head><meta name="robots" content="noindex" data-router-head="/books/1"></head><body></body></html>\n`,
    );
    // The shell's own link, left in place by a route with no canonical of its own, is replaced.
    const window = page(source);
    expect(serializePage(window as unknown as Parameters<typeof serializePage>[0], job(), source)).toContain(
      `<head><link rel="canonical" href="https://example.com/app/books/1?a=1&amp;b='%22%3E" data-router-head="/books/1"></head>`,
    );
  });

  it("names the shell's title on <title> when the page's scripts gave the state another, escaped; not when they left it", () => {
    const source = '<!DOCTYPE html><html><head><title>  Shop &amp; "Co" </title></head><body></body></html>';
    const serialize = (title?: string) => {
      const window = page(source);
      if (title !== undefined) window.document.title = title;
      return serializePage(window as unknown as Parameters<typeof serializePage>[0], job(), source);
    };
    expect(serialize('Item <1>')).toContain('<title data-router-title="Shop &amp; &quot;Co&quot;">Item &lt;1&gt;</title>');
    expect(serialize()).not.toContain('data-router-title');
    expect(serialize('Shop & "Co"')).not.toContain('data-router-title');
    // A title the page's scripts made where the shell had none: the shell's is ''.
    const window = page('<!DOCTYPE html><html><head></head><body></body></html>');
    window.document.title = 'Item';
    expect(serializePage(window as unknown as Parameters<typeof serializePage>[0], job(), '<html></html>')).toContain(
      '<title data-router-title="">Item</title>',
    );
  });

  it('writes the is value of a customized built-in made by createElement, once and escaped', () => {
    const window = page('<!DOCTYPE html><html><head></head><body></body></html>');
    const made = window.document.createElement('button', { is: 'x-"b"' });
    const named = window.document.createElement('button', { is: 'x-c' });
    named.setAttribute('is', 'x-own');
    window.document.body.append(made, named);
    expect(serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ notFound: true }), '')).toContain(
      '<body><button is="x-&quot;b&quot;"></button><button is="x-own"></button></body>',
    );
  });

  it('adds no canonical link to a notFound state but a robots noindex, and writes no doctype the page lacks', () => {
    const window = page('<html><head></head><body>x</body></html>');
    const doctype = window.document.doctype;
    if (doctype) window.document.removeChild(doctype);
    const html = serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ notFound: true }), '');
    expect(html).toBe(`<html><head><meta name="robots" content="noindex" data-router-head="/books/1"></head><body>x</body></html>\n`);
  });

  // As the hooks renderer writes them: Google reads an hreflang alternate only fully qualified, and og:url is absolute.
  it('writes the canonical and alternate links and og:url the page’s scripts wrote absolute; links a browser fetches as they are', () => {
    const head =
      '<link rel="canonical" href="/app/books/1/"><link rel="alternate" hreflang="fr" href="fr/1"><link rel="alternate" hreflang="de" href="#!/de/books/1">' +
      '<link rel="alternate" hreflang="es" href="https://es.example.com/1"><meta property="og:url" content="/app/books/1/"><link rel="preload" href="/app/cover.png">' +
      '<meta property="OG:IMAGE" content="/app/covers/1.png"><meta name="twitter:image" content="big.png">';
    const html = serializePage(
      page(`<html><head>${head}</head><body></body></html>`) as unknown as Parameters<typeof serializePage>[0],
      job(),
      '',
    );
    expect(html).toContain(
      '<link rel="canonical" href="https://example.com/app/books/1/"><link rel="alternate" hreflang="fr" href="https://example.com/app/books/fr/1">' +
        '<link rel="alternate" hreflang="de" href="https://example.com/app/de/books/1"><link rel="alternate" hreflang="es" href="https://es.example.com/1">' +
        '<meta property="og:url" content="https://example.com/app/books/1/"><link rel="preload" href="/app/cover.png">' +
        '<meta property="OG:IMAGE" content="https://example.com/app/covers/1.png"><meta name="twitter:image" content="https://example.com/app/books/big.png">',
    );
  });
});

describe('serializePage: text a page holds safely stays text', () => {
  // What an app puts in its DOM through textContent or setAttribute (safe in a browser), from the URL a
  // crawler chose. Written as happy-dom writes it, each of these became markup in the snapshot.
  type P5 = {
    nodeName: string;
    tagName?: string;
    attrs?: { name: string; value: string }[];
    childNodes?: P5[];
    content?: P5;
    value?: string;
  };

  /** The snapshot of a page whose app wrote `text` in each place, as an app does with what it read from its URL. */
  function write(text: string): string {
    const window = page('<!DOCTYPE html><html><head></head><body><main id="app"></main></body></html>');
    const d = window.document;
    const ld = d.createElement('script');
    ld.setAttribute('type', 'application/ld+json');
    ld.textContent = JSON.stringify({ name: text });
    const style = d.createElement('style');
    style.textContent = `p::after { content: ${JSON.stringify(text)} }`;
    const title = d.createElement('title');
    title.textContent = text;
    d.head.append(ld, style, title);
    const noscript = d.createElement('noscript');
    const pixel = d.createElement('img');
    pixel.setAttribute('alt', text);
    noscript.append(pixel);
    const svg = d.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const svgStyle = d.createElementNS('http://www.w3.org/2000/svg', 'style');
    svgStyle.textContent = text;
    const plainScript = d.createElement('script');
    plainScript.setAttribute('type', 'text/plain');
    plainScript.textContent = text;
    svg.append(svgStyle, plainScript);
    const app = d.getElementById('app');
    app?.append(d.createComment(text), noscript, svg);
    return serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ notFound: true }), '');
  }

  /** What a parser (running scripts or not) reads in a snapshot: its elements' names, JSON-LD texts and img alts. */
  function read(html: string, scriptingEnabled: boolean) {
    const found = { tags: [] as string[], ld: [] as unknown[], alt: [] as string[] };
    const walk = (n: P5) => {
      if (n.tagName) found.tags.push(n.tagName);
      if (n.tagName === 'script' && n.attrs?.some((a) => a.value === 'application/ld+json'))
        found.ld.push(JSON.parse((n.childNodes ?? []).map((c) => c.value ?? '').join('')));
      if (n.tagName === 'img') found.alt.push(n.attrs?.find((a) => a.name === 'alt')?.value ?? '');
      (n.content?.childNodes ?? n.childNodes ?? []).forEach(walk);
    };
    walk(parse(html, { scriptingEnabled }) as unknown as P5);
    return found;
  }

  const EVIL = '</script></style></noscript></title>--><img src=x onerror=alert(1)><!--';

  it("writes a script's </script>, a comment's -->, </noscript> in a value and text under SVG so that no element is added", () => {
    const html = write(EVIL);
    for (const scripting of [true, false]) {
      const found = read(html, scripting);
      expect(found.tags).toEqual(read(write('plain'), scripting).tags);
      // The only img is the noscript's own, an element only where scripts do not run.
      expect(found.alt).toEqual(scripting ? [] : [EVIL]);
      expect(found.ld).toEqual([{ name: EVIL }]);
    }
  });

  it('adds no element and keeps the JSON-LD and the values, for any text (property)', () => {
    const plain = [read(write('plain'), false).tags, read(write('plain'), true).tags];
    const piece = fc.constantFrom(
      '</script>',
      '</STYLE ',
      '</noscript>',
      '</title>',
      '-->',
      '--!>',
      '>',
      '->',
      '<!--',
      '<img src=x onerror=a()>',
      '&amp;',
      '\u00a0',
      '"',
      '<\\/',
      '?>',
      '<svg>',
      '</svg>',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        const html = write(text);
        for (const scripting of [false, true]) {
          const found = read(html, scripting);
          expect(found.tags).toEqual(plain[scripting ? 1 : 0]);
          expect(found.ld).toEqual([{ name: text }]);
          expect(found.alt).toEqual(scripting ? [] : [text]);
        }
      }),
      { numRuns: 200, seed: 2026 },
    );
  });
});

describe('watchWindow', () => {
  it('records the load and settled events', async () => {
    const window = new Window({ url: 'https://example.com/' });
    windows.push(window);
    const signals = watchWindow(window as unknown as Parameters<typeof watchWindow>[0]);
    expect([signals.loaded, signals.settled]).toEqual([false, false]);
    window.dispatchEvent(new window.Event('load'));
    window.dispatchEvent(new window.CustomEvent('crawlable-router:settled', { detail: { location: '/' } }));
    await Promise.all([signals.load, signals.settle]);
    expect([signals.loaded, signals.settled]).toEqual([true, true]);
  });

  it("keeps the last settled signal's failure, and settles when its detail cannot be read", async () => {
    const window = new Window({ url: 'https://example.com/' });
    windows.push(window);
    const signals = watchWindow(window as unknown as Parameters<typeof watchWindow>[0]);
    const down = new Error('the API is down');
    window.dispatchEvent(new window.CustomEvent('crawlable-router:settled', { detail: { status: 500, error: down } }));
    expect([signals.settled, signals.failure]).toEqual([true, down]);
    window.dispatchEvent(new window.CustomEvent('crawlable-router:settled', { detail: { status: 200 } }));
    expect(signals.failure).toBeUndefined();
    // A page's own event whose detail throws when read: no cause, and still settled.
    const other = new Window({ url: 'https://example.com/' });
    windows.push(other);
    const heard = watchWindow(other as unknown as Parameters<typeof watchWindow>[0]);
    const hostile = new other.CustomEvent('crawlable-router:settled');
    Object.defineProperty(hostile, 'detail', {
      get() {
        throw new Error('no');
      },
    });
    other.dispatchEvent(hostile);
    await heard.settle;
    expect([heard.settled, heard.failure, heard.error]).toEqual([true, undefined, undefined]);
  });

  it("records a same-origin script that failed (its error event reaches only its element), not another origin's or an image's", () => {
    const window = new Window({ url: 'https://example.com/app/' });
    windows.push(window);
    const signals = watchWindow(window as unknown as Parameters<typeof watchWindow>[0]);
    const fail = (tag: string, src?: string) => {
      const element = window.document.createElement(tag);
      if (src !== undefined) element.setAttribute('src', src);
      window.document.body.appendChild(element);
      element.dispatchEvent(new window.Event('error'));
    };
    fail('img', '/missing.png');
    fail('script', 'https://analytics.example/x.js');
    expect(signals.error).toBeUndefined();
    fail('script', '/app/main.js');
    fail('script');
    expect(String(signals.error)).toBe('Error: its script https://example.com/app/main.js did not load or run');
    // An inline module script whose import fails: its element has no src.
    const inline = new Window({ url: 'https://example.com/app/' });
    windows.push(inline);
    const heard = watchWindow(inline as unknown as Parameters<typeof watchWindow>[0]);
    const element = inline.document.createElement('script');
    inline.document.body.appendChild(element);
    element.dispatchEvent(new inline.Event('error'));
    expect(String(heard.error)).toBe('Error: its script (inline) did not load or run');
  });
});

describe('serializePage of a noindex route’s state', () => {
  const html = (head: string) => `<!DOCTYPE html><html><head>${head}</head><body></body></html>`;
  const robots = (out: string) => [...out.matchAll(/<meta name="robots"[^>]*>/gi)].map((m) => m[0]);

  it.each([
    ['no robots meta', '', ['<meta name="robots" content="noindex" data-router-head="/books/1">']],
    [
      'the shell’s robots meta',
      '<meta name="robots" content="max-snippet:50">',
      ['<meta name="robots" content="noindex" data-router-head="/books/1">'],
    ],
    [
      'the state’s robots meta (the app’s router marked it)',
      '<meta name="robots" content="max-snippet:50"><meta name="robots" content="nofollow" data-router-head="/books/1">',
      ['<meta name="robots" content="max-snippet:50">', '<meta name="robots" content="nofollow, noindex" data-router-head="/books/1">'],
    ],
    [
      'a state’s robots meta that says none',
      '<meta name="robots" content="none" data-router-head="/books/1">',
      ['<meta name="robots" content="none" data-router-head="/books/1">'],
    ],
  ])('with %s says noindex as the hooks renderer does', (_, head, expected) => {
    const window = page(html(head));
    const out = serializePage(window as unknown as Parameters<typeof serializePage>[0], { ...job(), noindex: true }, html(''));
    expect(robots(out)).toEqual(expected);
  });

  it('leaves the robots meta of any other state as it is', () => {
    const head = '<meta name="robots" content="max-snippet:50">';
    const out = serializePage(page(html(head)) as unknown as Parameters<typeof serializePage>[0], job(), html(''));
    expect(robots(out)).toEqual([head]);
  });
});
