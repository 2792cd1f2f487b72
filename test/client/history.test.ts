import { createMemoryHistory, type MemoryHistory } from 'history';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter, type Router } from '../../src/client/index.js';
import { createRoutes, redirect, type AnyRoute } from '../../src/index.js';
import { inProduction } from '../production.js';

// The router on the `history` package's memory history, in plain Node: no window, no document, no
// happy-dom in this file. What an app's routing logic (guards, loaders, redirects) needs is all here.

/** A promise the test resolves by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const notFound: AnyRoute = { title: 'Not found', render: ({ location }) => `<h1>no ${location}</h1>` };
const loads: string[] = [];
const signals: AbortSignal[] = [];
let gate: Promise<unknown> | undefined; // a loader waits for it when set
const table = createRoutes(
  [
    { path: '/', name: 'home', title: 'Home', render: () => '<h1>Home</h1>' },
    {
      path: '/books/:id',
      title: ({ params }) => `Book ${params.id}`,
      load: async ({ params, signal }) => {
        loads.push(String(params.id));
        signals.push(signal);
        if (gate) await gate;
        return { id: params.id };
      },
      render: ({ data }) => `<h1>${(data as { id: string }).id}</h1>`,
    },
    { path: '/admin', render: () => 'admin' },
  ],
  { base: '/app/', notFound },
);

let history: MemoryHistory;
let router: Router;
function open(url = '/app/', options: Partial<Parameters<typeof createRouter>[0]> = {}) {
  history = createMemoryHistory({ initialEntries: [url] });
  router = createRouter({ routes: table, history, ...options });
  return router;
}
/** The instance's URL. */
const address = () => history.location.pathname + history.location.search + history.location.hash;

afterEach(() => {
  router?.destroy();
  loads.length = 0;
  signals.length = 0;
  gate = undefined;
});

describe('the router on createMemoryHistory, in Node', () => {
  it('needs no window and no document: starts, loads and commits the entry the instance is on', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    open('/app/books/1?tab=x');
    expect(router.mode).toBe('history');
    expect(await router.start()).toBe(true);
    expect(router.current).toMatchObject({ location: '/books/1?tab=x', params: { id: '1' }, query: { tab: 'x' }, data: { id: '1' } });
    expect(loads).toEqual(['1']);
    expect([address(), history.index]).toEqual(['/app/books/1?tab=x', 0]);
  });

  it("gives the hooks no origin ('') and no request: a memory history is on no page", async () => {
    const seen: unknown[] = [];
    const hook = ({ origin, request }: { origin: string; request?: Request | undefined }) => void seen.push([origin, request]);
    const routes = createRoutes([{ path: '/', beforeLoad: hook, load: hook, title: (c) => (hook(c), 'T') }]);
    router = createRouter({ routes, history: createMemoryHistory({ initialEntries: ['/'] }) });
    await router.start();
    expect(seen).toEqual([
      ['', undefined],
      ['', undefined],
      ['', undefined],
    ]);
  });

  it('pushes and replaces through the instance, with the state the app gave, unwrapped', async () => {
    await open().start();
    const seen: string[] = [];
    router.subscribe((current) => seen.push(current.location));
    expect(await router.navigate('/books/2', { state: { from: 'list' } })).toBe(true);
    expect([address(), history.index, history.action, history.location.state]).toEqual(['/app/books/2', 1, 'PUSH', { from: 'list' }]);
    expect(router.current?.state).toEqual({ from: 'list' });
    expect(await router.navigate('/books/3', { replace: true })).toBe(true);
    expect([address(), history.index, history.action]).toEqual(['/app/books/3', 1, 'REPLACE']);
    expect(router.href('/books/4')).toBe('/app/books/4');
    // The instance tells its listeners of the router's own writes too: those are not routed again.
    await router.settled();
    expect([seen, loads]).toEqual([
      ['/books/2', '/books/3'],
      ['2', '3'],
    ]);
  });

  it('goes back and forward, by the router or on the instance, with each entry’s state', async () => {
    await open().start();
    await router.navigate('/books/2', { state: 'two' });
    await router.navigate('/books/3', { state: 'three' });
    router.back();
    await router.settled();
    expect([router.current?.location, router.current?.state, history.index]).toEqual(['/books/2', 'two', 1]);
    history.back();
    await router.settled();
    expect([router.current?.location, history.index]).toEqual(['/', 0]);
    router.go(2);
    await router.settled();
    expect([router.current?.location, router.current?.state, history.index]).toEqual(['/books/3', 'three', 2]);
    history.go(-1);
    router.forward();
    await router.settled();
    expect([router.current?.location, history.index]).toEqual(['/books/3', 2]);
  });

  it('routes what others push and replace on the same instance, leaving their state as it is', async () => {
    await open().start();
    const seen: string[] = [];
    router.subscribe((current) => seen.push(current.location));
    history.push('/app/books/7', { by: 'someone else' });
    await router.settled();
    expect(router.current).toMatchObject({ location: '/books/7', state: { by: 'someone else' }, data: { id: '7' } });
    expect([history.index, history.location.state]).toEqual([1, { by: 'someone else' }]);
    history.replace('/app/books/8');
    await router.settled();
    expect([router.current?.location, history.index]).toEqual(['/books/8', 1]);
    expect(seen).toEqual(['/books/7', '/books/8']);
  });

  it('lets a guard cancel a navigation, a back on the instance (undone with go), and redirect', async () => {
    await open().start();
    await router.navigate('/books/1');
    const off = router.beforeEach((to) => to.location !== '/admin' && to.location !== '/');
    expect(await router.navigate('/admin')).toBe(false);
    expect([address(), history.index]).toEqual(['/app/books/1', 1]);
    history.back(); // to `/`, which the guard refuses: the instance is put back on /books/1
    await router.settled();
    expect([router.current?.location, address(), history.index]).toEqual(['/books/1', '/app/books/1', 1]);
    off();
    router.beforeEach((to) => (to.location === '/admin' ? '/books/9' : undefined));
    expect(await router.navigate('/admin')).toBe(true);
    // A redirected push is one entry, at the target.
    expect([router.current?.location, address(), history.index]).toEqual(['/books/9', '/app/books/9', 2]);
  });

  it('hands what a back/forward navigation threw to onError, never to an unhandled rejection', async () => {
    const errors: unknown[] = [];
    await open('/app/', { onError: (x) => errors.push(x) }).start();
    await router.navigate('/books/1');
    const boom = new Error('guard failed');
    router.beforeEach(() => {
      throw boom;
    });
    history.back(); // nobody awaits this navigation: its guard's error goes to onError
    await router.settled();
    expect(errors).toEqual([boom]);
    expect([router.current?.location, address()]).toEqual(['/books/1', '/app/books/1']);
  });

  it('logs what a back/forward navigation threw with console.error when there is no onError and no window', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await open().start();
      await router.navigate('/books/1');
      router.subscribe(() => {
        throw new Error('subscriber failed');
      });
      history.back();
      await router.settled();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(logged.mock.calls.map(([x]) => (x as Error).message)).toEqual(['subscriber failed']);
      expect(router.current?.location).toBe('/');
    } finally {
      logged.mockRestore();
    }
  });

  it('keeps only the latest of racing loaders: the older one is aborted and never commits', async () => {
    await open().start();
    const slow = deferred<void>();
    gate = slow.promise;
    const first = router.navigate('/books/1');
    await Promise.resolve();
    gate = undefined;
    const second = router.navigate('/books/2');
    expect(await second).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
    slow.resolve();
    expect(await first).toBe(false);
    await router.settled();
    expect([router.current?.location, address(), history.index]).toEqual(['/books/2', '/app/books/2', 1]);
  });

  it('commits the notFound route for a location no route matches, the URL kept', async () => {
    await open('/app/no/such/page').start();
    expect(router.current?.route).toBe(notFound);
    expect([router.current?.location, address()]).toEqual(['/no/such/page', '/app/no/such/page']);
    history.push('/app/nor/this');
    await router.settled();
    expect(router.current?.route).toBe(notFound);
  });

  it('renders into an injected outlet and resolves settled() with no document', async () => {
    const outlet = { innerHTML: '' } as unknown as Element;
    open('/app/books/5', { outlet });
    await router.start();
    expect(outlet.innerHTML).toBe('<h1>5</h1>');
    gate = new Promise((resolve) => setTimeout(resolve, 5));
    void router.navigate('/books/6');
    await router.settled();
    expect(outlet.innerHTML).toBe('<h1>6</h1>');
  });

  it('says in a development build, never in production, that an outlet selector finds nothing without a window', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await open('/app/books/5', { outlet: '#app' }).start();
      expect(router.current?.location).toBe('/books/5');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /outlet "#app" matches no element: the router has no window \(with a history instance, pass window too\)/,
      );
      warn.mockClear();
      await inProduction(async () => {
        const prod = await import('../../src/client/index.js');
        const quiet = prod.createRouter({ routes: table, history: createMemoryHistory({ initialEntries: ['/app/'] }), outlet: '#app' });
        await quiet.start();
        quiet.destroy();
      });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('writes #! URLs into the instance in hashbang mode, and moves an instance on a #! URL to the clean form without a new entry', async () => {
    await open('/app/', { mode: 'hashbang' }).start();
    await router.navigate('/books/2');
    expect([address(), router.mode]).toEqual(['/app/#!/books/2', 'hashbang']);
    await open('/app/#!/books/3').start();
    expect([router.current?.location, address(), history.index]).toEqual(['/books/3', '/app/books/3', 0]);
  });

  it('refuses, when created, a history option that is not an instance of the package (the window’s own history)', () => {
    // A classic script's top-level `var history = createBrowserHistory()` leaves `history` the
    // window's own (a read-only global), which has neither `location` nor `listen`.
    const windowHistory = { length: 1, state: null, pushState() {}, replaceState() {}, go() {} };
    const bad = { routes: table, history: windowHistory } as unknown as Parameters<typeof createRouter>[0];
    expect(() => createRouter(bad)).toThrow(TypeError);
    expect(() => createRouter(bad)).toThrow(/createBrowserHistory/);
  });

  it('routes the entry an app’s own listener writes while the router’s write is under way, whichever listened first', async () => {
    // An app that moves one URL to another in its own listener (a redirect of its own): the
    // instance ends on the app's entry, and the router must show that entry, not the one it wrote.
    for (const appFirst of [true, false]) {
      history = createMemoryHistory({ initialEntries: ['/app/'] });
      const moveOn = () => void (history.location.pathname === '/app/admin' && history.replace('/app/books/5'));
      if (appFirst) history.listen(moveOn);
      router = createRouter({ routes: table, history });
      await router.start();
      if (!appFirst) history.listen(moveOn);
      await router.navigate('/admin');
      await router.settled();
      expect([appFirst, router.current?.location, address(), history.index]).toEqual([appFirst, '/books/5', '/app/books/5', 1]);
      // Back goes to the entry before, as the instance holds it.
      router.back();
      await router.settled();
      expect([router.current?.location, address()]).toEqual(['/', '/app/']);
      router.destroy();
    }
  });

  it('commits nothing that a blocker of the instance (history.block) kept from being written, and routes it once the blocker lets it through', async () => {
    await open().start();
    let retry: (() => void) | undefined;
    const unblock = history.block((transition) => void (retry = transition.retry));
    // An "unsaved changes?" prompt the visitor has not answered: the instance stays on /, so does the
    // router (the state was loaded: a blocker speaks when the entry is written, after the load).
    expect(await router.navigate('/books/1')).toBe(false);
    expect([router.current?.location, address(), history.index, loads]).toEqual(['/', '/app/', 0, ['1']]);
    unblock();
    retry?.();
    await router.settled();
    expect([router.current?.location, address(), history.index, loads]).toEqual(['/books/1', '/app/books/1', 1, ['1', '1']]);
    // A blocker that lets the write through at once (the visitor said yes) is no refusal.
    const off = history.block((transition) => (off(), transition.retry()));
    expect(await router.navigate('/books/2')).toBe(true);
    expect([router.current?.location, address(), history.index]).toEqual(['/books/2', '/app/books/2', 2]);
    router.back();
    await router.settled();
    expect([router.current?.location, address(), history.index]).toEqual(['/books/1', '/app/books/1', 1]);
  });

  it('keeps no entry’s state alive once the instance has dropped that entry, however many navigations come after', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await open().start();
    let state: object | null = { big: 'x'.repeat(1000) };
    const kept = new WeakRef(state);
    await router.navigate('/books/0', { state });
    state = null;
    router.back();
    await router.settled();
    // Each push drops the entries ahead of it, the one holding the state first.
    for (let i = 1; i <= 1500; i++) await router.navigate(`/books/${i}`, { replace: i % 2 === 0 });
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    expect(kept.deref()).toBeUndefined();
  });

  it('stops listening to the instance on destroy()', async () => {
    await open().start();
    router.destroy();
    history.push('/app/books/1');
    await router.settled();
    expect([router.current?.location, loads]).toEqual(['/', []]);
  });

  it('is done after destroy(): navigate() and start() resolve false and write nothing', async () => {
    await open().start();
    router.destroy();
    expect(await router.navigate('/books/1')).toBe(false);
    expect(await router.start()).toBe(false);
    expect([address(), history.index, router.current?.location, loads]).toEqual(['/app/', 0, '/', []]);
  });

  it('moves no history after destroy(): back(), forward() and go() leave the instance where it is', async () => {
    await open().start();
    await router.navigate('/books/1');
    await router.navigate('/books/2');
    history.back();
    await router.settled();
    router.destroy();
    router.back();
    router.forward();
    router.go(-1);
    expect([address(), history.index]).toEqual(['/app/books/1', 1]);
  });

  it('commits nothing when a listener of the instance destroys the router during its write', async () => {
    await open().start();
    const seen: string[] = [];
    router.subscribe((current) => seen.push(current.location));
    const stop = history.listen(() => router.destroy());
    expect(await router.navigate('/books/1')).toBe(false);
    stop();
    expect([router.current?.location, seen]).toEqual(['/', []]);
  });

  it('starts nothing from a loader’s abort listener that navigates while destroy() runs', async () => {
    await open().start();
    const loaded = deferred<void>();
    gate = loaded.promise;
    void router.navigate('/books/1');
    await Promise.resolve();
    const late = deferred<unknown>();
    (signals[0] as AbortSignal).addEventListener('abort', () => void router.navigate('/books/2').then(late.resolve));
    router.destroy();
    loaded.resolve();
    gate = undefined;
    expect(await late.promise).toBe(false);
    await router.settled();
    expect([address(), history.index, router.current?.location, loads]).toEqual(['/app/', 0, '/', ['1']]);
  });
});

describe('the README’s ten-line test of an app’s access rule', () => {
  it('sends a visitor who is not logged in from /admin to /login', async () => {
    const loggedIn = (request: Request | undefined) => request?.headers.get('cookie')?.includes('user=') === true;
    const admin = {
      path: '/admin',
      beforeLoad: ({ request }: { request?: Request | undefined }) => {
        if (!loggedIn(request)) throw redirect('/login');
      },
    };
    const routes = createRoutes([{ path: '/' }, admin, { path: '/login' }], { base: '/app/' });
    const history = createMemoryHistory({ initialEntries: ['/app/'] });
    const router = createRouter({ routes, history });
    await router.start();
    expect(await router.navigate('/admin')).toBe(true);
    expect(history.location.pathname).toBe('/app/login');
    router.destroy();
  });
});

describe('a production build of the router, in Node', () => {
  it('keeps a short message for its errors: no window, not a history instance, and a redirect loop', async () => {
    await inProduction(async () => {
      const prod = await import('../../src/client/index.js');
      expect(() => prod.createRouter({ routes: table })).toThrow(new TypeError('no window'));
      const windowHistory = { length: 1, state: null, pushState() {}, go() {} } as unknown as MemoryHistory;
      expect(() => prod.createRouter({ routes: table, history: windowHistory })).toThrow(new TypeError('no history'));
      const looping = prod.createRouter({ routes: table, history: createMemoryHistory({ initialEntries: ['/app/'] }) });
      await looping.start();
      looping.beforeEach((to) => (to.path === '/admin' ? '/admin?again' : true));
      await expect(looping.navigate('/admin')).rejects.toThrow(new Error('redirect loop'));
      looping.destroy();
    });
  });
});
