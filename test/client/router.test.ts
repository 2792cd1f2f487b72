import { afterEach, describe, expect, it, vi } from 'vitest';
import { toUrl } from '../../src/index.js';
import { deferred, modes, setup, type Setup, type SetupOptions } from './fixture.js';

// The shared navigation sequences: the same steps and the same expected values in both modes.
// Where a URL is checked it is computed with toUrl for the router's mode (`t.urlOf`).
describe.each(modes)('createRouter in %s mode', (mode) => {
  let t: Setup;
  const open = async (options?: SetupOptions) => {
    t = setup(mode, options);
    await t.router.start();
    return t;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  it('starts on the base URL, renders the home route and adds no history entry', async () => {
    await open();
    expect(t.router.mode).toBe(mode);
    expect(t.router.current).toMatchObject({ location: '/', params: {}, notFound: false, state: undefined });
    expect(t.address()).toBe(t.urlOf('/'));
    expect(t.window.history.length).toBe(1);
    expect(t.document.title).toBe('Home');
    expect(t.outlet()).toBe('<h1>Home</h1>');
  });

  it('says in a development build that an outlet selector matches no element when start() runs, and still routes', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await open({ outlet: '#app' });
    expect(t.router.current?.location).toBe('/');
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      'crawlable-router: the outlet "#app" matches no element when start() runs; no view is drawn',
    ]);
    warn.mockClear();
    await t.router.navigate('/books/1');
    expect(warn).not.toHaveBeenCalled();
  });

  it('pushes one entry per navigation and commits URL, current, title and outlet', async () => {
    await open();
    expect(await t.router.navigate('/books/42?tab=reviews')).toBe(true);
    expect(t.router.current).toMatchObject({
      location: '/books/42?tab=reviews',
      params: { id: '42' },
      query: { tab: 'reviews' },
      data: { id: '42' },
    });
    expect(t.address()).toBe(t.urlOf('/books/42?tab=reviews'));
    expect(t.window.history.length).toBe(2);
    expect(t.document.title).toBe('Book 42');
    expect(t.outlet()).toContain('<h1>42</h1>');
  });

  it('replaces the entry with { replace: true }, and for the location already shown', async () => {
    await open();
    await t.router.navigate('/books/1');
    await t.router.navigate('/books/2', { replace: true });
    expect(t.window.history.length).toBe(2);
    expect(t.address()).toBe(t.urlOf('/books/2'));
    await t.router.navigate('/books/2');
    expect(t.window.history.length).toBe(2);
    expect(t.loads).toEqual(['1', '2', '2']);
    t.router.back();
    await t.flush();
    expect(t.router.current?.location).toBe('/');
  });

  it('goes back, forward and by go(n) through the same pipeline', async () => {
    await open();
    const seen: string[] = [];
    t.router.subscribe((current) => seen.push(current.location));
    for (const id of ['1', '2', '3']) await t.router.navigate(`/books/${id}`);
    const steps: [() => void, string][] = [
      [() => t.router.back(), '/books/2'],
      [() => t.router.back(), '/books/1'],
      [() => t.router.forward(), '/books/2'],
      [() => t.router.go(-2), '/'],
      [() => t.router.go(3), '/books/3'],
    ];
    for (const [step, location] of steps) {
      step();
      await t.flush();
      expect(t.router.current?.location).toBe(location);
      expect(t.address()).toBe(t.urlOf(location));
    }
    expect(t.window.history.length).toBe(4);
    expect(seen).toEqual(['/books/1', '/books/2', '/books/3', '/books/2', '/books/1', '/books/2', '/', '/books/3']);
    expect(t.document.title).toBe('Book 3');
  });

  it.each([
    ['/q/café', '/q/caf%C3%A9', 'café'],
    ['/q/caf%C3%A9', '/q/caf%C3%A9', 'café'],
    ['/q/caf%c3%a9', '/q/caf%C3%A9', 'café'],
    ['/q/日本語', '/q/%E6%97%A5%E6%9C%AC%E8%AA%9E', '日本語'],
    ['/q/C++', '/q/C++', 'C++'],
    ['/q/100%25', '/q/100%25', '100%'],
    ['/q/%2525', '/q/%2525', '%25'],
    ['/q/a%2Fb', '/q/a%2Fb', 'a/b'],
    ['/q/a b', '/q/a%20b', 'a b'],
    ['/q/%zz', '/q/%25zz', '%zz'],
    ['/q/%E2%82', '/q/%E2%82', '%E2%82'],
    ['/q/"><img src=x onerror=alert(1)>', '/q/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E', '"><img src=x onerror=alert(1)>'],
    ['/q/%3C%2Fscript%3E', '/q/%3C%2Fscript%3E', '</script>'],
    ['/q/x%00y%0D%0A', '/q/x%00y%0D%0A', 'x\0y\r\n'],
  ])('navigates to %s as location %s with term %j', async (to, location, term) => {
    await open();
    expect(await t.router.navigate(to)).toBe(true);
    expect(t.router.current?.location).toBe(location);
    expect(t.router.current?.params['term']).toBe(term);
    expect(t.address()).toBe(t.urlOf(location));
    expect(t.document.querySelector('img')).toBeNull();
  });

  it('keeps + and %25 apart from spaces and escapes in the query', async () => {
    await open();
    await t.router.navigate('/q/x?a=C++&b=100%25&c=a+b&c=%2B');
    expect(t.router.current?.query).toEqual({ a: 'C++', b: '100%', c: ['a+b', '+'] });
  });

  it('routes a 10 kB location', async () => {
    await open();
    const term = 'é'.repeat(5000);
    await t.router.navigate(`/q/${term}`);
    expect(t.router.current?.params['term']).toBe(term);
    expect(t.address()).toBe(t.urlOf(`/q/${term}`));
  });

  it('keeps each entry’s state object across back and forward', async () => {
    await open();
    await t.router.navigate('/books/1', { state: { from: 'list', n: 1 } });
    await t.router.navigate('/books/2');
    await t.router.navigate('/books/3', { state: [3] });
    expect(t.router.current?.state).toEqual([3]);
    const steps: [number, unknown][] = [
      [-1, undefined],
      [-1, { from: 'list', n: 1 }],
      [2, [3]],
      [-2, { from: 'list', n: 1 }],
    ];
    for (const [delta, state] of steps) {
      t.router.go(delta);
      await t.flush();
      expect(t.router.current?.state).toEqual(state);
    }
  });

  it('runs guards before the URL changes; false cancels with URL, entry and current unchanged', async () => {
    await open();
    await t.router.navigate('/books/1');
    const during: string[] = [];
    t.router.beforeEach(async (to, from) => {
      during.push(`${from?.location} -> ${to.location} at ${t.address()}`);
      await Promise.resolve();
      return to.params['id'] !== '2';
    });
    expect(await t.router.navigate('/books/2')).toBe(false);
    expect(during).toEqual([`/books/1 -> /books/2 at ${t.urlOf('/books/1')}`]);
    expect(t.address()).toBe(t.urlOf('/books/1'));
    expect(t.router.current?.location).toBe('/books/1');
    expect(t.window.history.length).toBe(2);
    expect(t.loads).toEqual(['1']);
    expect(await t.router.navigate('/books/3')).toBe(true);
  });

  it('redirects when a guard returns a location, with one entry for the redirected navigation', async () => {
    await open();
    const undo = t.router.beforeEach((to) => (to.location.startsWith('/books/secret') ? '/q/login?next=secret' : undefined));
    expect(await t.router.navigate('/books/secret')).toBe(true);
    expect(t.router.current?.location).toBe('/q/login?next=secret');
    expect(t.address()).toBe(t.urlOf('/q/login?next=secret'));
    expect(t.window.history.length).toBe(2);
    expect(t.loads).toEqual([]);
    undo();
    expect(await t.router.navigate('/books/secret')).toBe(true);
    expect(t.router.current?.location).toBe('/books/secret');
  });

  it('gives up on a redirect loop with an error and stays usable', async () => {
    await open();
    const undo = t.router.beforeEach((to) => (to.path === '/q/a' ? '/q/b' : to.path === '/q/b' ? '/q/a' : true));
    await expect(t.router.navigate('/q/a')).rejects.toThrow(/redirected more than 10 times/);
    expect(t.router.current?.location).toBe('/');
    undo();
    await t.router.settled();
    expect(await t.router.navigate('/q/a')).toBe(true);
  });

  it('restores the URL when a guard cancels a back or forward navigation', async () => {
    await open();
    for (const id of ['1', '2', '3']) await t.router.navigate(`/books/${id}`);
    t.router.go(-2);
    await t.flush();
    const undo = t.router.beforeEach(() => false);
    for (const step of [() => t.router.back(), () => t.router.forward(), () => t.router.go(2)]) {
      step();
      await t.flush();
      expect(t.router.current?.location).toBe('/books/1');
      expect(t.address()).toBe(t.urlOf('/books/1'));
    }
    undo();
    t.router.forward();
    await t.flush();
    expect(t.router.current?.location).toBe('/books/2');
    expect(t.window.history.length).toBe(4);
  });

  it('keeps every entry at its own position when the go() that puts a refused typed URL back is cancelled', async () => {
    await open();
    await t.router.navigate('/books/1');
    t.router.beforeEach((to) => to.location !== '/books/9');
    // The browser drops the traversal, as Chromium does when the page navigates again before it starts.
    const go = vi.spyOn(t.window.history, 'go').mockImplementation(() => {});
    const position = () => [(t.window.history.state as { idx?: number } | null)?.idx, t.window.history.length - 1];
    t.window.location.hash = '#!/books/9';
    await t.flush();
    expect(go.mock.calls).toEqual([[-1]]);
    // Still on the refused entry: a replace writes over it at its position, not at current's.
    await t.router.navigate('/books/2', { replace: true });
    expect(position()).toEqual([2, 2]);
    expect(t.address()).toBe(t.urlOf('/books/2'));
    // And a refused URL typed on it puts back to current's entry from there.
    t.window.location.hash = '#!/books/9';
    await t.flush();
    expect(go.mock.calls).toEqual([[-1], [-1]]);
    expect(position()).toEqual([3, 3]);
  });

  it('never reloads the page when a refused back lands on an entry whose position a page script overwrote', async () => {
    await open();
    // The page's own script stamps an entry with a position History.go() would read as 0, a reload.
    for (const idx of [Infinity, 2 ** 32, NaN]) {
      await t.router.navigate('/books/1');
      t.window.history.replaceState({ key: 'stamped', idx }, '', t.window.location.href);
      await t.router.navigate('/books/2');
      const undo = t.router.beforeEach(() => false);
      const go = vi.spyOn(t.window.history, 'go');
      t.router.back();
      await t.flush();
      // The refusal moves back by some delta (wrong: the position is the script's), never by go(0).
      expect(go.mock.calls.slice(1).map(([delta]) => (delta ?? 0) | 0)).not.toContain(0);
      expect(t.router.current?.location).toBe('/books/2');
      go.mockRestore();
      undo();
    }
  });

  it('replaces the entry a back navigation reached when a guard redirects it', async () => {
    await open();
    await t.router.navigate('/books/1');
    await t.router.navigate('/books/2');
    t.router.beforeEach((to) => (to.location === '/books/1' ? '/q/gone' : true));
    t.router.back();
    await t.flush();
    expect(t.router.current?.location).toBe('/q/gone');
    expect(t.address()).toBe(t.urlOf('/q/gone'));
    // happy-dom's replaceState drops the forward entries (browsers keep them): forward() is for the real-browser tests.
  });

  it('aborts the earlier of two racing loaders and renders only the later', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<string>>>();
    const signals = new Map<string, AbortSignal>();
    await open({
      routes: [
        {
          path: '/slow/:n',
          load: ({ params, signal }) => {
            const d = deferred<string>();
            pending.set(params['n'] as string, d);
            signals.set(params['n'] as string, signal);
            return d.promise;
          },
          render: ({ data }) => `<p>${String(data)}</p>`,
        },
      ],
    });
    const first = t.router.navigate('/slow/1');
    const second = t.router.navigate('/slow/2');
    expect(signals.get('1')?.aborted).toBe(true);
    expect(signals.get('2')?.aborted).toBe(false);
    pending.get('2')?.resolve('second');
    pending.get('1')?.resolve('first');
    expect(await first).toBe(false);
    expect(await second).toBe(true);
    await t.router.settled();
    expect(t.outlet()).toBe('<p>second</p>');
    expect(t.router.current?.data).toBe('second');
    expect(t.address()).toBe(t.urlOf('/slow/2'));
    expect(t.window.history.length).toBe(2);
  });

  it('never renders a stale result that arrives after a newer navigation committed', async () => {
    const slow = deferred<string>();
    await open({ routes: [{ path: '/slow', load: () => slow.promise, render: ({ data }) => String(data) }] });
    const first = t.router.navigate('/slow');
    expect(await t.router.navigate('/books/5')).toBe(true);
    slow.resolve('stale');
    expect(await first).toBe(false);
    expect(t.router.current?.location).toBe('/books/5');
    expect(t.outlet()).toContain('<h1>5</h1>');
  });

  it('renders the error view when load throws, and the next navigation works', async () => {
    await open({
      error: {
        title: ({ error }) => `Error: ${(error as Error).message}`,
        render: ({ location, error }) => `<p>${location}: ${(error as Error).message}</p>`,
      },
    });
    const seen: unknown[] = [];
    t.router.subscribe((current) => seen.push(current.error));
    expect(await t.router.navigate('/boom')).toBe(true);
    expect(t.router.current).toMatchObject({ location: '/boom', data: undefined });
    expect((t.router.current?.error as Error).message).toBe('no books today');
    expect(t.outlet()).toBe('<p>/boom: no books today</p>');
    expect(t.document.title).toBe('Error: no books today');
    expect(t.address()).toBe(t.urlOf('/boom'));
    expect(t.document.documentElement.dataset['routerState']).toBe('settled');
    await t.router.navigate('/books/1');
    expect(t.router.current?.error).toBeUndefined();
    expect(seen).toEqual([expect.any(Error), undefined]);
  });

  it('refuses a render or title that returns a promise, as the server does, and shows no "[object Promise]"', async () => {
    const late = () => Promise.resolve('<p>late</p>') as unknown as string;
    await open({
      routes: [
        { path: '/late', render: late },
        { path: '/late-title', title: late },
      ],
    });
    await expect(t.router.navigate('/late')).rejects.toThrow(
      new TypeError('render of "/late" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
    expect(t.outlet()).toBe('<h1>Home</h1>');
    await expect(t.router.navigate('/late-title')).rejects.toThrow(/^title of "\/late-title" returned a promise/);
    expect(t.document.title).toBe('Home');
  });

  it('refuses a head hook that returns a promise, as the server does, rather than leave the head without its tags', async () => {
    // Before, `head: async () => …` silently gave the state no tags at all.
    const late = async () => ({ meta: [{ name: 'description', content: 'late' }] });
    await open({ routes: [{ path: '/late-head', head: late as never }] });
    await expect(t.router.navigate('/late-head')).rejects.toThrow(
      new TypeError('head of "/late-head" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
  });

  it("shows the shell's title for a route without one, as its snapshot does, not the last state's", async () => {
    t = setup(mode);
    t.document.title = 'Shop';
    await t.router.start();
    await t.router.navigate('/books/1');
    expect(t.document.title).toBe('Book 1');
    await t.router.navigate('/files/a/b');
    expect(t.document.title).toBe('Shop');
  });

  it('without an error view, leaves the outlet and title and tells subscribers', async () => {
    await open();
    const seen: unknown[] = [];
    t.router.subscribe((current) => seen.push(current.error));
    expect(await t.router.navigate('/boom')).toBe(true);
    expect(t.outlet()).toBe('<h1>Home</h1>');
    expect(t.document.title).toBe('Home');
    expect(seen).toEqual([expect.objectContaining({ message: 'no books today' })]);
    await expect(t.router.settled()).resolves.toBeUndefined();
  });

  it.each([['/nope'], ['/books'], ['/books/1/2'], ['/Books/1']])('renders the notFound route for %s', async (to) => {
    await open();
    expect(await t.router.navigate(to)).toBe(true);
    expect(t.router.current).toMatchObject({ location: to, notFound: true });
    expect(t.document.title).toBe('Not found');
    expect(t.outlet()).toBe(`<h1>Not found: ${to}</h1>`);
  });

  it('commits an unmatched location as notFound with an empty route when the table has none', async () => {
    await open({ notFound: null });
    expect(await t.router.navigate('/nope?x=1#top')).toBe(true);
    expect(t.router.current).toMatchObject({
      location: '/nope?x=1#top',
      route: {},
      notFound: true,
      query: { x: '1' },
      hash: 'top',
      path: '/nope',
    });
    expect(t.outlet()).toBe('<h1>Home</h1>');
  });

  it('changes only the anchor without guards, loaders or a new render', async () => {
    await open();
    await t.router.navigate('/books/1');
    const guard = vi.fn(() => true);
    t.router.beforeEach(guard);
    t.document.querySelector('h1')?.setAttribute('data-kept', '');
    expect(await t.router.navigate('/books/1#reviews')).toBe(true);
    expect(t.router.current).toMatchObject({ location: '/books/1#reviews', hash: 'reviews', data: { id: '1' } });
    expect(t.address()).toBe(t.urlOf('/books/1#reviews'));
    expect(t.document.querySelector('h1[data-kept]')).not.toBeNull();
    expect(guard).not.toHaveBeenCalled();
    expect(t.loads).toEqual(['1']);
  });

  it('changes only the anchor of a state landed on with tracking tags: no guard, no reload', async () => {
    // The address bar keeps `utm_source`; `current.location` does not. The two name one state.
    await open({ url: toUrl('/books/1?utm_source=x', { base: '/app/', mode }) });
    const guard = vi.fn(() => true);
    t.router.beforeEach(guard);
    t.document.querySelector('h1')?.setAttribute('data-kept', '');
    t.window.location.hash = mode === 'history' ? '#reviews' : '#!/books/1?utm_source=x#reviews';
    await t.flush();
    expect(await t.router.navigate('/books/1?fbclid=y#top')).toBe(true);
    expect(t.router.current).toMatchObject({ location: '/books/1#top', hash: 'top' });
    expect(t.document.querySelector('h1[data-kept]')).not.toBeNull();
    expect(guard).not.toHaveBeenCalled();
    expect(t.loads).toEqual(['1']);
  });

  it('takes a popstate on the entry landed on with tracking tags for that entry: no reload, no new position', async () => {
    await open({ url: toUrl('/books/1?utm_source=x', { base: '/app/', mode }) });
    const { key } = t.window.history.state as { key: string };
    const commits = vi.fn();
    t.router.subscribe(commits);
    // What a script of the page (or an old browser at load) fires; the URL is the one shown.
    for (let i = 0; i < 5; i++) {
      t.window.dispatchEvent(new t.window.PopStateEvent('popstate', { state: t.window.history.state }));
      await t.flush();
    }
    expect(commits).not.toHaveBeenCalled();
    expect(t.loads).toEqual(['1']);
    expect(t.window.history.state).toEqual({ key, idx: 0 });
    expect(t.address()).toBe(toUrl('/books/1?utm_source=x', { base: '/app/', mode }));
  });

  it('passes params, query, location and an AbortSignal to load', async () => {
    const load = vi.fn(() => 'data');
    await open({ routes: [{ path: '/l/:a', load }] });
    await t.router.navigate('/l/x%20y?k=v');
    expect(load).toHaveBeenCalledWith({
      params: { a: 'x y' },
      query: { k: 'v' },
      location: '/l/x%20y?k=v',
      origin: 'https://example.com',
      signal: expect.any(AbortSignal),
    });
  });

  it('gives load and the views the state the server renders: no anchor, only the declared query keys', async () => {
    const seen: string[] = [];
    const hook = (name: string) => (c: { location: string }) => (seen.push(`${name} ${c.location}`), name);
    const routes = [{ path: '/s', queryKeys: ['q'], load: hook('load'), title: hook('title'), render: hook('render') }];
    await open({ url: toUrl('/s?q=1&utm=x#top', { base: '/app/', mode }), routes });
    expect(t.router.current?.location).toBe('/s?q=1&utm=x#top');
    expect(seen).toEqual(['load /s?q=1', 'render /s?q=1', 'title /s?q=1']);
    expect(t.table.stateOf('/s?q=1&utm=x#top')).toBe('/s?q=1');
  });

  it("gives every hook the state's canonical spelling and the window's origin, beforeLoad first", async () => {
    const seen: string[] = [];
    const hook = (name: string) => async (c: { location: string; origin: string }) => void seen.push(`${name} ${c.origin} ${c.location}`);
    const sync = (name: string) => (c: { location: string; origin: string }) => (seen.push(`${name} ${c.origin} ${c.location}`), name);
    const routes = [
      { path: '/:company/:slug', beforeLoad: hook('beforeLoad'), load: hook('load'), title: sync('title'), render: sync('render') },
    ];
    await open({ url: toUrl('/acme/c++-&-rust-100%25?x=1', { base: '/app/', mode }), routes });
    const at = 'https://example.com /acme/c%2B%2B-%26-rust-100%25?x=1';
    expect(seen).toEqual([`beforeLoad ${at}`, `load ${at}`, `render ${at}`, `title ${at}`]);
    expect(t.router.current?.location).toBe('/acme/c++-&-rust-100%25?x=1');
  });

  it('writes hrefs for links in its mode', async () => {
    await open();
    expect(t.router.href('/books/42?x=1#top')).toBe(toUrl('/books/42?x=1#top', { base: t.base, mode }));
    expect(t.router.href('books/日本')).toBe(t.urlOf('/books/%E6%97%A5%E6%9C%AC'));
  });
});
