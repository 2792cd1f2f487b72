import { Window } from 'happy-dom';
import { createBrowserHistory, createMemoryHistory, type BrowserHistory } from 'history';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';

// The router on the `history` package's createBrowserHistory({ window }) in a happy-dom window: it
// behaves as in history mode (address bar, links, title, outlet, settled signal), reading, writing and
// listening through the instance that the app shares.

const table = createRoutes(
  [
    { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
    { path: '/books/:id', title: ({ params }) => `Book ${params.id}`, render: ({ params }) => `<h1>${params.id}</h1>` },
    { path: '/admin', title: 'Admin', render: () => 'admin' },
  ],
  { base: '/app/' },
);

let window: Window;
let history: BrowserHistory;
let router: Router;
afterEach(async () => {
  router.destroy();
  await window.happyDOM.close();
});

function open(url = '/app/') {
  window = new Window({ url: 'https://example.com' + url });
  window.document.body.innerHTML = '<nav><a href="/app/books/3">three</a></nav><main id="outlet"></main>';
  history = createBrowserHistory({ window: window as unknown as globalThis.Window });
  router = createRouter({ routes: table, history, window, outlet: '#outlet' });
  return router;
}
const address = () => window.location.pathname + window.location.search + window.location.hash;
const outlet = () => window.document.getElementById('outlet')?.innerHTML;
/** Lets happy-dom fire the popstate it queued, then waits for the router. */
const flush = async () => {
  await window.happyDOM.waitUntilComplete();
  await router.settled();
};

describe('the router on createBrowserHistory({ window })', () => {
  it('starts as in history mode: outlet, title, data-router-state and the settled event', async () => {
    open('/app/books/1');
    const events: unknown[] = [];
    window.addEventListener('crawlable-router:settled', (event) => events.push((event as unknown as CustomEvent).detail.location));
    expect(router.mode).toBe('history');
    expect(await router.start()).toBe(true);
    expect([outlet(), window.document.title, window.document.documentElement.dataset['routerState']]).toEqual([
      '<h1>1</h1>',
      'Book 1',
      'settled',
    ]);
    expect(events).toEqual(['/books/1']);
  });

  it('writes through the instance: the address bar, a new entry, the state the app gave', async () => {
    await open().start();
    await router.navigate('/books/2', { state: { n: 2 } });
    expect([address(), window.history.length, history.location.state, outlet()]).toEqual(['/app/books/2', 2, { n: 2 }, '<h1>2</h1>']);
  });

  it('drives the page’s own window when none is given, the one createBrowserHistory() itself drives', async () => {
    window = new Window({ url: 'https://example.com/app/books/1' });
    window.document.body.innerHTML = '<main id="outlet"></main>';
    const global = globalThis as { window?: unknown };
    global.window = window;
    try {
      history = createBrowserHistory({ window: window as unknown as globalThis.Window });
      router = createRouter({ routes: table, history, outlet: '#outlet' });
      expect(await router.start()).toBe(true);
      expect([outlet(), window.document.title, window.document.documentElement.dataset['routerState']]).toEqual([
        '<h1>1</h1>',
        'Book 1',
        'settled',
      ]);
    } finally {
      delete global.window;
    }
  });

  it('leaves the page’s window alone with a memory history: a widget’s router draws only into its outlet element', async () => {
    window = new Window({ url: 'https://example.com/elsewhere' });
    window.document.title = 'Page';
    window.document.body.innerHTML = '<main id="outlet"></main>';
    const global = globalThis as { window?: unknown };
    global.window = window;
    try {
      const element = window.document.getElementById('outlet');
      router = createRouter({ routes: table, history: createMemoryHistory({ initialEntries: ['/app/books/2'] }), outlet: element });
      await router.start();
      expect([outlet(), window.document.title, window.location.pathname]).toEqual(['<h1>2</h1>', 'Page', '/elsewhere']);
    } finally {
      delete global.window;
    }
  });

  it('routes link clicks, and back/forward in the window, each entry with its state', async () => {
    await open().start();
    await router.navigate('/books/2', { state: 'two' });
    window.document.querySelector('a')?.click();
    await flush();
    expect([address(), window.history.length, outlet()]).toEqual(['/app/books/3', 3, '<h1>3</h1>']);
    window.history.back();
    await flush();
    expect([router.current?.location, router.current?.state, outlet(), window.document.title]).toEqual([
      '/books/2',
      'two',
      '<h1>2</h1>',
      'Book 2',
    ]);
    router.forward();
    await flush();
    expect(router.current?.location).toBe('/books/3');
  });

  it('puts the window back with go() when a guard cancels a back', async () => {
    await open().start();
    await router.navigate('/books/1');
    await router.navigate('/books/2');
    await router.navigate('/admin');
    const off = router.beforeEach((to) => to.location !== '/books/2');
    window.history.back();
    await flush();
    expect([router.current?.location, address(), outlet()]).toEqual(['/admin', '/app/admin', 'admin']);
    // Put back by traversal, not by writing over the entry the back reached: without the guard, back lands on it.
    off();
    router.back();
    await flush();
    expect([router.current?.location, address(), window.history.length]).toEqual(['/books/2', '/app/books/2', 4]);
  });

  it('never takes an entry another script pushed past the instance for the page’s first one: a refused back from it stays there', async () => {
    // createBrowserHistory names every entry it did not write (the page's first, one a widget
    // pushed with pushState) `default`: two such entries are not one.
    await open().start();
    await router.navigate('/books/1');
    await router.navigate('/books/2');
    window.history.pushState({ widget: 'open' }, '', '/app/books/3'); // not through the instance: no event
    window.history.back();
    await flush();
    window.history.forward();
    await flush();
    expect([router.current?.location, address()]).toEqual(['/books/3', '/app/books/3']);
    router.beforeEach((to) => to.location !== '/books/2');
    window.history.back();
    await flush();
    expect([router.current?.location, address(), outlet()]).toEqual(['/books/3', '/app/books/3', '<h1>3</h1>']);
  });

  it('routes what the app pushes on the shared instance, and stops on destroy()', async () => {
    await open().start();
    history.push('/app/books/8', { by: 'app' });
    await flush();
    expect([router.current?.location, router.current?.state, outlet()]).toEqual(['/books/8', { by: 'app' }, '<h1>8</h1>']);
    router.destroy();
    history.push('/app/books/9');
    window.document.querySelector('a')?.click();
    await window.happyDOM.waitUntilComplete();
    expect([router.current?.location, outlet()]).toEqual(['/books/8', '<h1>8</h1>']);
  });
});
