// @vitest-environment happy-dom
import { act, createElement as h, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router, type RouterMode } from '../../src/client/index.js';
import { Link, Outlet, RouterProvider, useCurrent, useRouter } from '../../src/react/index.js';
import { app, Failed } from './app.js';

// The browser's side of crawlable-router/react in happy-dom: the provider, `useCurrent` drawing
// again on each navigation, the outlet, and `Link`'s href in each mode, its clicks left to the router.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

/** A router on the page at `path` of an app with `base`, started, and `children` drawn with it into a new element. */
async function draw(children: ReactNode, { path = '/', base = '/', mode }: { path?: string; base?: string; mode?: RouterMode } = {}) {
  window.history.replaceState(null, '', path);
  const { routes, loads } = app(base);
  const router = createRouter({ routes, ...(mode ? { mode } : {}) });
  await router.start();
  const element = document.createElement('div');
  document.body.append(element);
  const root: Root = createRoot(element);
  await act(async () => root.render(h(RouterProvider, { router, routes }, children)));
  cleanup.push(() => (act(() => root.unmount()), router.destroy(), element.remove()));
  return { router, routes, loads, element };
}

/** Waits for the router's navigation and React's render after it. */
const settle = (router: Router) => act(() => router.settled());

describe('useCurrent', () => {
  it("draws again after each navigation, with the router's current state", async () => {
    const drawn: (string | null)[] = [];
    function Where(): ReactNode {
      const current = useCurrent();
      drawn.push(current && current.location);
      return h('p', null, current ? `${current.location} ${String((current.data as { title?: string } | undefined)?.title)}` : 'none');
    }
    const { router, element } = await draw(h(Where));
    expect(element.textContent).toBe('/ undefined');
    await act(() => router.navigate('/books/1'));
    expect(element.textContent).toBe('/books/1 Dune');
    await act(() => router.navigate('/books/2?tab=reviews'));
    expect(element.textContent).toBe('/books/2?tab=reviews Emma');
    await act(async () => router.back());
    await settle(router);
    expect(element.textContent).toBe('/books/1 Dune');
    // Once per state: no render for a navigation that has not committed, none twice for one commit.
    expect(drawn).toEqual(['/', '/books/1', '/books/2?tab=reviews', '/books/1']);
  });

  it('reads null before the first navigation commits', () => {
    window.history.replaceState(null, '', '/');
    const { routes } = app();
    const router = createRouter({ routes });
    cleanup.push(() => router.destroy());
    function Where(): ReactNode {
      return h('p', null, String(useCurrent()));
    }
    expect(renderToString(h(RouterProvider, { router, routes }, h(Where)))).toBe('<p>null</p>');
  });
});

describe('useRouter', () => {
  it('gives the router of the provider', async () => {
    let seen: Router | undefined;
    function Probe(): ReactNode {
      seen = useRouter();
      return null;
    }
    const { router } = await draw(h(Probe));
    expect(seen).toBe(router);
  });

  it('throws a clear error outside a provider, as Link, Outlet and useCurrent do', () => {
    function Probe(): ReactNode {
      useRouter();
      return null;
    }
    const said = /^crawlable-router\/react: no <RouterProvider> above this component$/;
    for (const element of [h(Probe), h(Outlet), h(Link, { to: 'home' }), h(() => (useCurrent(), null))])
      expect(() => renderToString(element)).toThrow(said);
  });
});

describe('Outlet', () => {
  it("draws the state's view with its data, params and canonical location, the notFound view, and nothing for a view-less state", async () => {
    const { router, element, loads } = await draw(h(Outlet), { path: '/books/1?utm_source=x&tab=reviews' });
    expect(loads).toEqual(['1']);
    expect(element.querySelector('h1')?.textContent).toBe('Dune');
    // The hooks' location: the route's href of the state, tracking tags dropped, as `render` gets it.
    expect(element.querySelector('#where')?.textContent).toBe('1 at /books/1?tab=reviews (history)');
    await act(() => router.navigate('/books/9'));
    expect(element.innerHTML).toBe('<h1>Nothing here</h1>');
    await act(() => router.navigate('/nowhere'));
    expect(element.innerHTML).toBe('<h1>Nothing here</h1>');
    await act(() => router.navigate('/'));
    expect(element.querySelector('h1')?.textContent).toBe('Books');
    await act(() => router.navigate('/moved'));
    expect([router.current?.location, element.querySelector('h1')?.textContent]).toEqual(['/books/2', 'Emma']);
  });

  it("draws the `error` view when a load throws, and nothing without one (the route's own view never gets undefined data)", async () => {
    const bare = await draw(h(Outlet), { path: '/broken' });
    expect(bare.element.innerHTML).toBe('');
    const shown = await draw(h(Outlet, { error: Failed }), { path: '/broken' });
    expect(shown.element.innerHTML).toBe('<p role="alert">Error: the database is down at /broken</p>');
  });
});

describe('Link', () => {
  it.each([
    ['history', '/', '/books/2?tab=reviews', '/'],
    ['hashbang', '/', '/#!/books/2?tab=reviews', '/#!/'],
    ['history', '/app/', '/app/books/2?tab=reviews', '/app/'],
    ['hashbang', '/app/', '/app/#!/books/2?tab=reviews', '/app/#!/'],
  ] as const)('writes the URL the router writes in %s mode (base %s)', async (mode, base, next, home) => {
    const { router, element } = await draw(h('nav', null, h(Outlet), h(Link, { to: 'home', id: 'home' }, 'Home')), {
      path: mode === 'history' ? `${base}books/1` : `${base}#!/books/1`,
      base,
      mode,
    });
    const link = element.querySelector('#next') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(next);
    expect(link.getAttribute('href')).toBe(router.href('/books/2?tab=reviews'));
    // Other props are the anchor's.
    expect(link.className).toBe('next');
    expect(element.querySelector('#home')?.getAttribute('href')).toBe(home);
  });

  it("leaves its clicks to the router's link handling: a click navigates, pushing one entry", async () => {
    const { router, element, loads } = await draw(h(Outlet), { path: '/books/1' });
    const length = window.history.length;
    await act(async () => void (element.querySelector('#next') as HTMLAnchorElement).click());
    await settle(router);
    expect([router.current?.location, window.location.pathname + window.location.search]).toEqual([
      '/books/2?tab=reviews',
      '/books/2?tab=reviews',
    ]);
    expect(loads).toEqual(['1', '2']);
    expect(window.history.length).toBe(length + 1);
    expect(element.querySelector('h1')?.textContent).toBe('Emma');
  });
});
