import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';
import { deferred, modes, setup, type Setup } from './fixture.js';

// The router's lifecycle through its public entry: start, settled, destroy, options and `auto`.
describe.each(modes)('the router lifecycle in %s mode', (mode) => {
  let t: Setup;
  afterEach(async () => {
    vi.restoreAllMocks();
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  /**
   * Every add/removeEventListener call on the window and the document, as [target, type, listener].
   * The document's are spied on its prototype, where the router reads them (a page's named elements
   * shadow the document's own), and only its calls are counted.
   */
  function trackListeners() {
    const spies = (['window', 'document'] as const).map((name) => {
      const target = name === 'window' ? t.window : (Object.getPrototypeOf(t.document) as Setup['document']);
      return [name, vi.spyOn(target, 'addEventListener'), vi.spyOn(target, 'removeEventListener')] as const;
    });
    const calls = (which: 1 | 2) =>
      spies.flatMap(([name, ...spy]) =>
        spy[which - 1]!.mock.calls.filter((_, i) => spy[which - 1]!.mock.contexts[i] === (name === 'window' ? t.window : t.document)).map(
          ([type, fn]) => [name, type, fn],
        ),
      );
    return {
      get added() {
        return calls(1);
      },
      get removed() {
        return calls(2);
      },
    };
  }

  it('adds no listener and writes no URL before start(), and nothing at all on a second start()', async () => {
    t = setup(mode);
    const track = trackListeners();
    const before = t.window.location.href;
    const router = createRouter({ routes: t.table, mode, window: t.window });
    expect(track.added).toEqual([]);
    expect(t.window.location.href).toBe(before);
    expect(t.document.documentElement.hasAttribute('data-router-state')).toBe(false);
    await expect(router.settled()).resolves.toBeUndefined();
    expect(await t.router.start()).toBe(true);
    expect(track.added.map(([target, type]) => `${target} ${type}`).sort()).toEqual([
      'document click',
      'window hashchange',
      'window popstate',
    ]);
    expect(await t.router.start()).toBe(true);
    expect(track.added).toHaveLength(3);
  });

  it('removes every listener it added on destroy(), and events then do nothing', async () => {
    t = setup(mode);
    const track = trackListeners();
    await t.router.start();
    await t.router.navigate('/books/1');
    t.router.destroy();
    expect(track.added).toHaveLength(3);
    expect(track.removed).toEqual(track.added);
    expect(t.window.history.scrollRestoration).toBe('auto');
    expect(t.document.documentElement.hasAttribute('data-router-state')).toBe(false);
    t.window.location.hash = '!/books/2';
    t.document.getElementById('after')!.innerHTML = '<a href="/app/books/3">x</a>';
    t.document.querySelector('#after a')!.dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    t.window.history.back();
    await t.window.happyDOM.waitUntilComplete();
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('resolves what is in flight false on destroy() and aborts its loader', async () => {
    let signal: AbortSignal | undefined;
    t = setup(mode, { routes: [{ path: '/slow', load: (c) => ((signal = c.signal), new Promise(() => undefined)) }] });
    await t.router.start();
    const navigation = t.router.navigate('/slow');
    const idle = t.router.settled();
    t.router.destroy();
    expect(await navigation).toBe(false);
    await expect(idle).resolves.toBeUndefined();
    expect(signal?.aborted).toBe(true);
    expect(t.router.current?.location).toBe('/');
  });

  it('keeps data-router-state busy while a loader runs and announces each settle on window', async () => {
    const slow = deferred<string>();
    t = setup(mode, { routes: [{ path: '/slow', load: () => slow.promise }] });
    const events: unknown[] = [];
    t.window.addEventListener('crawlable-router:settled', (event) => events.push((event as unknown as CustomEvent).detail));
    await t.router.start();
    expect(t.document.documentElement.dataset['routerState']).toBe('settled');
    expect(events).toEqual([{ location: '/', status: 200, redirect: undefined }]);
    const navigation = t.router.navigate('/slow?x=1');
    let idle = false;
    void t.router.settled().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([t.document.documentElement.dataset['routerState'], idle]).toEqual(['busy', false]);
    slow.resolve('done');
    expect(await navigation).toBe(true);
    await t.router.settled();
    expect([t.document.documentElement.dataset['routerState'], idle]).toEqual(['settled', true]);
    expect(events).toEqual([
      { location: '/', status: 200, redirect: undefined },
      { location: '/slow?x=1', status: 200, redirect: undefined },
    ]);
  });

  it('settles once a guard cancels, and resolves a navigation held by a hung guard false once a newer one starts', async () => {
    t = setup(mode);
    await t.router.start();
    const hang = t.router.beforeEach((to) => (to.path === '/q/hang' ? new Promise(() => undefined) : to.path !== '/q/no'));
    expect(await t.router.navigate('/q/no')).toBe(false);
    await t.router.settled();
    const hung = t.router.navigate('/q/hang');
    const idle = t.router.settled();
    expect(t.document.documentElement.dataset['routerState']).toBe('busy');
    hang();
    expect(await t.router.navigate('/books/1')).toBe(true);
    expect(await hung).toBe(false);
    await idle;
    expect(t.document.documentElement.dataset['routerState']).toBe('settled');
  });

  it('undoes a guard and a subscriber through the functions they return', async () => {
    t = setup(mode);
    await t.router.start();
    const listener = vi.fn();
    const unsubscribe = t.router.subscribe(listener);
    const unguard = t.router.beforeEach(() => false);
    expect(await t.router.navigate('/books/1')).toBe(false);
    unguard();
    expect(await t.router.navigate('/books/1')).toBe(true);
    unsubscribe();
    await t.router.navigate('/books/2');
    expect(listener.mock.calls.map(([current]) => current.location)).toEqual(['/books/1']);
  });

  it('calls every subscriber after the commit even when one throws, then rejects with its error', async () => {
    t = setup(mode);
    await t.router.start();
    const later = vi.fn();
    t.router.subscribe(() => {
      throw new Error('subscriber bug');
    });
    t.router.subscribe(later);
    await expect(t.router.navigate('/books/1')).rejects.toThrow('subscriber bug');
    expect(later).toHaveBeenCalledTimes(1);
    expect(t.router.current?.location).toBe('/books/1');
    expect(t.document.documentElement.dataset['routerState']).toBe('settled');
  });

  it('rejects when a guard throws, and puts a back navigation’s URL back, its error handed to onError', async () => {
    let reported: (error: unknown) => void = () => {};
    const onError = (error: unknown) => reported(error);
    t = setup(mode, { onError });
    await t.router.start();
    await t.router.navigate('/books/1');
    t.router.beforeEach(() => {
      throw new Error('guard bug');
    });
    await expect(t.router.navigate('/books/2')).rejects.toThrow('guard bug');
    expect(t.address()).toBe(t.urlOf('/books/1'));
    const error = new Promise((resolve) => (reported = resolve));
    t.router.back(); // nobody awaits the pop: its guard's error goes to onError
    expect(await error).toMatchObject({ message: 'guard bug' });
    expect(t.address()).toBe(t.urlOf('/books/1'));
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('reads the outlet selector at start() and renders nowhere without one', async () => {
    t = setup(mode, { outlet: '#late' });
    t.document.body.innerHTML = '<div id="late"></div>';
    await t.router.start();
    expect(t.document.getElementById('late')?.innerHTML).toBe('<h1>Home</h1>');
    t.router.destroy();
    t = setup(mode, { outlet: null });
    await t.router.start();
    expect(t.outlet()).toBe('');
    expect(t.document.title).toBe('Home');
  });

  it('takes the base from the route table, or from its own option', async () => {
    for (const base of ['/', '/app/', '/a/b c/']) {
      t = setup(mode, { base, url: base === '/a/b c/' ? '/a/b%20c/' : base });
      await t.router.start();
      await t.router.navigate('/books/1');
      expect(t.address()).toBe(t.urlOf('/books/1'));
      expect(t.router.href('/')).toBe(t.urlOf('/'));
      t.router.destroy();
      await t.window.happyDOM.close();
    }
    t = setup(mode);
  });
});

describe('createRouter options', () => {
  let window: Window;
  afterEach(async () => {
    vi.restoreAllMocks();
    await window.happyDOM.close();
  });
  const routes = createRoutes([{ path: '/' }, { path: '/books/:id' }], { base: '/app/' });
  const open = (url: string, pushState = true) => {
    window = new Window({ url });
    if (!pushState) Object.defineProperty(window.history, 'pushState', { value: undefined });
    return window;
  };

  it('needs a window where there is no global one, and names the memory history for Node', () => {
    window = new Window();
    expect(() => createRouter({ routes })).toThrow(
      new TypeError('createRouter: no window; pass { window }, or { history } such as createMemoryHistory() in Node'),
    );
  });

  it('listens with the window’s own AbortController: a test DOM of another realm (jsdom in Node) refuses a signal it did not make', async () => {
    const win = open('https://example.com/app/books/1');
    // jsdom's rule, on happy-dom: addEventListener takes only a signal made by its own window's AbortController.
    const Own = (window as unknown as { AbortController: typeof AbortController }).AbortController;
    const made = new WeakSet<AbortSignal>();
    class RealmAbortController extends Own {
      constructor() {
        super();
        made.add(this.signal);
      }
    }
    Object.defineProperty(window, 'AbortController', { value: RealmAbortController });
    for (const target of [window, window.document] as unknown as EventTarget[]) {
      const add = target.addEventListener.bind(target);
      target.addEventListener = (
        type: string,
        listener: EventListenerOrEventListenerObject | null,
        options?: AddEventListenerOptions | boolean,
      ) => {
        const signal = typeof options === 'object' ? options.signal : undefined;
        if (signal && !made.has(signal))
          throw new TypeError("parameter 3 dictionary has member 'signal' that is not of type 'AbortSignal'");
        add(type, listener, options);
      };
    }
    const router = createRouter({ routes, window: win, mode: 'history' });
    await expect(router.start()).resolves.toBe(true);
    expect(router.current?.location).toBe('/books/1');
    // Its own signal still removes what start() added: a pop after destroy() routes nothing.
    router.destroy();
    win.history.pushState(null, '', '/app/books/2');
    window.dispatchEvent(new window.PopStateEvent('popstate', { state: null }));
    await router.settled();
    expect(router.current?.location).toBe('/books/1');
  });

  it('chooses #! in auto mode where pushState is there but refuses another path (file://, a sandboxed frame), the state in this page’s fragment', async () => {
    const win = open('https://example.com/app/index.html?v=1');
    // What Chromium does on a file:// page: a URL with another path is refused, a new fragment is not.
    const page = () => win.location.href.split('#')[0];
    for (const method of ['pushState', 'replaceState'] as const) {
      const real = win.history[method].bind(win.history);
      vi.spyOn(win.history, method).mockImplementation((state, title, url) => {
        if (url != null && String(url).split('#')[0] !== page())
          throw new Error('SecurityError: cannot be created in a document with origin null');
        real(state, title, url);
      });
    }
    const assign = vi.spyOn(win.location, 'assign');
    const router = createRouter({ routes, window: win });
    expect(router.mode).toBe('hashbang');
    expect(router.href('/books/1')).toBe('https://example.com/app/index.html?v=1#!/books/1');
    expect(await router.start()).toBe(true);
    expect([win.location.href, router.current?.location]).toEqual(['https://example.com/app/index.html?v=1#!/', '/']);
    expect(await router.navigate('/books/2', { state: 2 })).toBe(true);
    expect([win.location.href, win.history.length, (win.history.state as { state: unknown }).state]).toEqual([
      'https://example.com/app/index.html?v=1#!/books/2',
      2,
      2,
    ]);
    expect(assign).not.toHaveBeenCalled();
    router.destroy();
  });

  it('uses pushState in auto mode where it works, and #! where it does not', () => {
    expect(createRouter({ routes, window: open('https://example.com/app/') }).mode).toBe('history');
    void window.happyDOM.close();
    expect(createRouter({ routes, mode: 'auto', window: open('https://example.com/app/', false) }).mode).toBe('hashbang');
  });

  it('moves a browser without pushState from a clean URL to the #! URL with location.replace, then routes by hashchange', async () => {
    const win = open('https://example.com/app/books/42?x=1', false);
    const replace = vi.spyOn(win.location, 'replace');
    const router = createRouter({ routes, window: win });
    expect(await router.start()).toBe(true);
    expect(replace.mock.calls).toEqual([['/app/#!/books/42?x=1']]);
    await window.happyDOM.waitUntilComplete();
    expect(win.history.length).toBe(1);
    expect(router.current?.location).toBe('/books/42?x=1');
    await router.navigate('/books/43', { state: { kept: false } });
    expect([win.location.hash, win.history.length]).toEqual(['#!/books/43', 2]);
    router.back();
    await window.happyDOM.waitUntilComplete();
    await router.settled();
    expect(router.current?.location).toBe('/books/42?x=1');
    router.forward();
    await window.happyDOM.waitUntilComplete();
    await router.settled();
    // Without the History API no entry carries a state object.
    expect(router.current).toMatchObject({ location: '/books/43', state: undefined });
    router.destroy();
  });
});
