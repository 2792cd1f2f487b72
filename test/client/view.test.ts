import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createView } from '../../src/client/view.js';
import type { RouterDocument } from '../../src/client/dom.js';
import { createRoutes } from '../../src/index.js';

// What a committed state shows: the view's render in the outlet, its title and its head tags, over
// a page that may be the server's rendering of the first state.

const routes = createRoutes([{ path: '/' }], {
  head: { meta: [{ name: 'description', content: 'The site' }], link: [{ rel: 'canonical', href: 'https://example.com/' }] },
});
const context = (location: string, data?: unknown) => ({ params: {}, query: {}, location, origin: '', data, error: undefined });
/** The match of a state at `location`, as the router hands it to the view. */
const at = (location: string, notFound = false) => ({ route: {}, params: {}, query: {}, location, path: location, hash: '', notFound });

let windows: Window[] = [];
afterEach(async () => {
  for (const w of windows) await w.happyDOM.close();
  windows = [];
});

/** A page with `head` and `body` HTML; the document as the router types it. */
function page(head: string, body: string) {
  const window = new Window({ url: 'https://example.com/' });
  windows.push(window);
  window.document.write(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);
  return window.document as unknown as RouterDocument & Document;
}

describe('createView', () => {
  it('draws a view into the outlet found by its selector, with its title and its head over the defaults', () => {
    const doc = page('<title>Shell</title>', '<main id="app"></main>');
    const view = createView(routes, doc);
    expect(view.start('#app')).toBeNull();
    view.draw(
      {
        title: ({ location }) => `At ${location}`,
        render: ({ data }) => `<h1>${String(data)}</h1>`,
        head: () => ({ meta: [{ name: 'description', content: 'Book one' }] }),
      },
      at('/books/1'),
      context('/books/1', 'one'),
      false,
    );
    expect(doc.querySelector('#app')?.innerHTML).toBe('<h1>one</h1>');
    expect(doc.title).toBe('At /books/1');
    expect(doc.querySelector('meta[name=description]')?.getAttribute('content')).toBe('Book one');
    expect(doc.querySelector('link[rel=canonical]')?.getAttribute('data-router-head')).toBe('/books/1');
  });

  it('keeps the outlet the server drew for the first state drawn, and only for that one', () => {
    const doc = page(
      '<title data-router-title="Shell">Book 1</title><script type="application/json" id="crawlable-router-data">{"location":"/books/1","status":200,"data":"one"}</script>',
      '<main id="app" data-router-rendered="/books/1"><h1>server</h1></main>',
    );
    const view = createView(routes, doc);
    expect(view.start('#app')).toEqual({ location: '/books/1', status: 200, data: 'one' });
    const hooks = { render: () => '<h1>client</h1>' };
    view.draw(hooks, at('/books/1'), context('/books/1'), false);
    expect(doc.querySelector('#app')?.innerHTML).toBe('<h1>server</h1>');
    // A route without a title shows the shell's, as the server's page named it.
    expect(doc.title).toBe('Shell');
    view.draw(hooks, at('/books/1'), context('/books/1'), false);
    expect(doc.querySelector('#app')?.innerHTML).toBe('<h1>client</h1>');
  });

  it("keeps only an outlet marked drawn for the state's location, and reads the shell's title from the title's mark", () => {
    const doc = page('<title data-router-title="Shop">Item 1</title>', '<main data-router-rendered="/x"></main><div></div>');
    const hooks = { render: () => 'client' };
    for (const [outlet, location, shown] of [
      ['main', '/x', 'server'],
      ['main', '/y', 'client'],
      ['div', '/x', 'client'],
    ] as const) {
      const el = doc.querySelector(outlet) as Element;
      el.innerHTML = 'server';
      const view = createView(routes, doc);
      view.start(el as never);
      view.draw(hooks, at(location), context(location), false);
      expect([outlet, location, el.innerHTML]).toEqual([outlet, location, shown]);
      expect(doc.title).toBe('Shop');
    }
    doc.head.innerHTML = '<title>Shop</title>';
    const view = createView(routes, doc);
    view.start(null);
    doc.title = 'Elsewhere';
    view.draw({}, at('/x'), context('/x'), false);
    expect(doc.title).toBe('Shop');
  });

  it('gives a state not found or failed no canonical link, and an error view without a title leaves the title alone', () => {
    const doc = page('<title>Shell</title>', '<main id="app"></main>');
    const view = createView(routes, doc);
    view.start(doc.querySelector('#app') as never);
    view.draw({ title: 'Before' }, at('/a'), context('/a'), false);
    view.draw({ render: () => 'Failed' }, at('/b'), context('/b'), true);
    expect(doc.title).toBe('Before');
    expect(doc.querySelector('link[rel=canonical]')).toBeNull();
    expect(doc.querySelector('meta[name=description]')?.getAttribute('content')).toBe('The site');
    expect(doc.querySelector('#app')?.innerHTML).toBe('Failed');
  });

  it('draws nothing without a document, and says so in development when the outlet selector cannot be read', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const view = createView(routes, undefined);
      expect(view.start('#app')).toBeNull();
      expect(() => view.draw({ title: 'T', render: () => 'x' }, at('/'), context('/'), false)).not.toThrow();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('the outlet "#app" matches no element: the router has no window'));
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses in development a render that returns a promise, naming the state', () => {
    const doc = page('', '<main id="app"></main>');
    const view = createView(routes, doc);
    view.start('#app');
    expect(() => view.draw({ render: () => Promise.resolve('x') as never }, at('/late?tab=1'), context('/late?tab=1'), false)).toThrow(
      /^render of "\/late\?tab=1" returned a promise/,
    );
  });
});
