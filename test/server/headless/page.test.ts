import { Window } from 'happy-dom';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { pageOutcome, serializePage, watchWindow } from '../../../src/server/headless/page.js';
import type { RenderJob } from '../../../src/server/render/render.js';

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
  it('writes the doctype, drops meta fragment tags and foreign canonical links, adds the state canonical link escaped', () => {
    const window = page(
      '<!DOCTYPE html><html><head><meta name="Fragment" content="!"><link rel="Canonical stylesheet" href="https://wrong.example/"><title>T</title></head>' +
        '<body><a href="/app/?_escaped_fragment_=/books/2">n</a><a href="?_escaped_fragment_=/x">r</a><a href="/plain">p</a><area href="/app/books/3?_escaped_fragment_="></body></html>',
    );
    const html = serializePage(window as unknown as Parameters<typeof serializePage>[0], job());
    expect(html.startsWith('<!DOCTYPE html>\n<html>')).toBe(true);
    expect(html).not.toMatch(/fragment|wrong\.example/i);
    expect(html).toContain(`<link rel="canonical" href="https://example.com/app/books/1?a=1&amp;b='%22%3E">`);
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
    const html = serializePage(win, job({ notFound: true }));
    expect(html).toBe('<!DOCTYPE html>\n<html lang="en" data-theme="dark"><head></head><body></body></html>\n');
  });

  it('adds no canonical link to a notFound state, and writes no doctype the page lacks', () => {
    const window = page('<html><head></head><body>x</body></html>');
    const doctype = window.document.doctype;
    if (doctype) window.document.removeChild(doctype);
    const html = serializePage(window as unknown as Parameters<typeof serializePage>[0], job({ notFound: true }));
    expect(html).toBe('<html><head></head><body>x</body></html>\n');
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
