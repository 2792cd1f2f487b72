import { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';

// The router on a real jsdom window, passed as it is (no cast): jsdom's own classes, of another
// realm than Node's, which refuse Node's AbortSignal and Event (the router uses the window's own).

const routes = createRoutes(
  [
    { path: '/', title: 'Home', render: () => '<p>home</p>' },
    {
      path: '/books/:id',
      title: ({ params }) => `Book ${params.id}`,
      head: ({ params }) => ({ meta: [{ name: 'description', content: `About book ${params.id}` }] }),
      render: ({ params }) => `<h1>Book ${params.id}</h1><h2 id="more">more</h2>`,
    },
  ],
  { base: '/app/' },
);

const SHELL =
  '<!DOCTYPE html><html><head><title>shell</title></head><body><a href="/app/books/2">2</a><main id="outlet"></main></body></html>';

let dom: JSDOM | undefined;
afterEach(() => {
  dom?.window.close();
  dom = undefined;
});

const open = (url: string) => (dom = new JSDOM(SHELL, { url })).window;

/** Resolves at the window's next event of `type`, or rejects after a second. */
const next = (window: JSDOM['window'], type: string) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event`)), 1000);
    window.addEventListener(type, () => (clearTimeout(timer), resolve()), { once: true });
  });

describe('the router on a jsdom window', () => {
  it('starts, renders, routes a link click, goes back on popstate, announces each settled state, and stops listening on destroy', async () => {
    const window = open('https://example.com/app/books/1');
    const router = createRouter({ routes, window, outlet: '#outlet' });
    const settled: unknown[] = [];
    window.addEventListener('crawlable-router:settled', (event) =>
      settled.push((event as CustomEvent<{ location: string }>).detail.location),
    );
    const doc = window.document;
    const outlet = () => doc.getElementById('outlet')?.innerHTML;
    const description = () => doc.head.querySelector('meta[name="description"]')?.getAttribute('content');

    expect(router.mode).toBe('history');
    expect(await router.start()).toBe(true);
    expect([outlet(), doc.title, description()]).toEqual(['<h1>Book 1</h1><h2 id="more">more</h2>', 'Book 1', 'About book 1']);
    expect([doc.documentElement.getAttribute('data-router-state'), doc.documentElement.getAttribute('data-router-status')]).toEqual([
      'settled',
      '200',
    ]);

    const link = doc.querySelector('a') as HTMLAnchorElement;
    const click = new window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await router.settled();
    expect([window.location.href, window.history.length, outlet(), doc.title, description()]).toEqual([
      'https://example.com/app/books/2',
      2,
      '<h1>Book 2</h1><h2 id="more">more</h2>',
      'Book 2',
      'About book 2',
    ]);

    const popped = next(window, 'popstate');
    router.back();
    await popped;
    await router.settled();
    expect([window.location.href, router.current?.location, outlet()]).toEqual([
      'https://example.com/app/books/1',
      '/books/1',
      '<h1>Book 1</h1><h2 id="more">more</h2>',
    ]);
    expect(settled).toEqual(['/books/1', '/books/2', '/books/1']);

    router.destroy();
    expect(doc.documentElement.hasAttribute('data-router-state')).toBe(false);
    window.history.pushState(null, '', '/app/');
    window.dispatchEvent(new window.PopStateEvent('popstate', { state: null }));
    link.dispatchEvent(new window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await router.settled();
    expect(router.current?.location).toBe('/books/1');
  });

  it('writes #! URLs in hashbang mode and routes a hashchange, and a location with an anchor whose element is there', async () => {
    const window = open('https://example.com/app/');
    const router = createRouter({ routes, window, mode: 'hashbang', outlet: '#outlet' });
    expect(await router.start()).toBe(true);
    expect([window.location.href, router.current?.location]).toEqual(['https://example.com/app/#!/', '/']);
    expect(await router.navigate('/books/3#more')).toBe(true);
    expect([window.location.href, window.document.title]).toEqual(['https://example.com/app/#!/books/3#more', 'Book 3']);
    const changed = next(window, 'hashchange');
    window.location.hash = '#!/books/4';
    await changed;
    await router.settled();
    expect([router.current?.location, window.document.getElementById('outlet')?.textContent]).toEqual(['/books/4', 'Book 4more']);
    router.destroy();
  });
});
