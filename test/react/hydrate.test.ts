// @vitest-environment happy-dom
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter, type Router, type RouterMode } from '../../src/client/index.js';
import { mount } from '../../src/react/index.js';
import { reactRenderer } from '../../src/react/server.js';
import { createSnapshotHandler, type CleanUrls } from '../../src/server/index.js';
import { app } from './app.js';

// A page reactRenderer rendered (`cleanUrls: 'all'`), opened in happy-dom, and `mount` on it: the
// router's first navigation takes the page's data (no second `load`) and React hydrates the
// outlet's markup (no node of it made again), after which the view is React's, live.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SHELL =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title></head><body><header>Books</header><main id="app"></main></body></html>';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
  vi.restoreAllMocks();
});

/** The page the server answers a browser at `path` with, in `cleanUrls` mode, written into the document. */
async function openPage(path: string, cleanUrls: CleanUrls) {
  const server = app();
  const handler = createSnapshotHandler({
    routes: server.routes,
    origin: window.location.origin,
    shell: SHELL,
    cleanUrls,
    renderer: reactRenderer({ routes: server.routes }),
    onError: () => {},
  });
  const response = (await handler.fetch(new Request(window.location.origin + path)))!;
  const html = await response.text();
  window.history.replaceState(null, '', path);
  const page = new DOMParser().parseFromString(html, 'text/html');
  document.head.replaceWith(document.importNode(page.head, true));
  document.body.replaceWith(document.importNode(page.body, true));
  return { html, status: response.status, serverLoads: server.loads };
}

/** Every node under `element`, in document order. */
const nodesOf = (element: Element) => {
  const walker = document.createTreeWalker(element);
  const nodes: Node[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  return nodes;
};

/** Mounts the client app on the page, counting the outlet's mutations from before `mount` until React has committed. */
async function mountApp(mode?: RouterMode) {
  const client = app();
  const router: Router = createRouter({ routes: client.routes, ...(mode ? { mode } : {}) });
  const outlet = document.getElementById('app') as HTMLElement;
  const before = nodesOf(outlet);
  const mutations: MutationRecord[] = [];
  const observer = new MutationObserver((records) => void mutations.push(...records));
  observer.observe(outlet, { childList: true, subtree: true, characterData: true, attributes: true });
  const errors = vi.spyOn(console, 'error');
  let root: Root | undefined;
  await act(async () => void (root = await mount(outlet, { router, routes: client.routes })));
  // MutationObserver's records come in a microtask after the mutations.
  await new Promise((resolve) => setTimeout(resolve, 0));
  mutations.push(...observer.takeRecords());
  observer.disconnect();
  cleanup.push(() => (act(() => root?.unmount()), router.destroy()));
  return { router, outlet, before, mutations, errors, loads: client.loads };
}

describe('mount on a page reactRenderer rendered', () => {
  it('hydrates the outlet: no second load, no node made again, no mismatch, and the view is live', async () => {
    const { serverLoads, html } = await openPage('/books/1', 'all');
    expect(serverLoads).toEqual(['1']);
    expect(html).toContain('data-router-rendered="/books/1"');
    const { router, outlet, before, mutations, errors, loads } = await mountApp();
    expect(loads).toEqual([]);
    expect(router.current?.data).toEqual({ id: '1', title: 'Dune' });
    expect(mutations).toEqual([]);
    const after = nodesOf(outlet);
    expect(after.length).toBe(before.length);
    expect(after.every((node, i) => node === before[i])).toBe(true);
    expect(errors).not.toHaveBeenCalled();
    expect(document.title).toBe('Dune');
    // React's now: its event handlers run on the server's nodes.
    const like = outlet.querySelector('#like') as HTMLButtonElement;
    await act(async () => void like.click());
    expect(like.textContent).toBe('Liked 1');
    expect(outlet.querySelector('#like')).toBe(before.find((node) => (node as Element).id === 'like'));
    // And the router's: a link click navigates and loads the next state, drawn by React.
    await act(async () => void (outlet.querySelector('#next') as HTMLAnchorElement).click());
    await act(() => router.settled());
    expect(loads).toEqual(['2']);
    expect(outlet.querySelector('h1')?.textContent).toBe('Emma');
    expect(document.title).toBe('Emma');
  });

  it('hydrates a 404 page with the notFound view, its status taken from the page', async () => {
    const { status } = await openPage('/books/9', 'all');
    expect(status).toBe(404);
    const { router, outlet, before, mutations, errors, loads } = await mountApp();
    expect(loads).toEqual([]);
    expect(router.current?.notFound).toBe(true);
    expect(outlet.innerHTML).toBe('<h1>Nothing here</h1>');
    expect(mutations).toEqual([]);
    expect(nodesOf(outlet).every((node, i) => node === before[i])).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it("hydrates what the server rendered when the address bar has more: useCurrent() reads the server's state, then the browser's", async () => {
    // The server never sees the anchor.
    const { html } = await openPage('/about?from=mail#team', 'all');
    expect(html).toContain('<p id="here">/about?from=mail </p>');
    const { outlet, before, errors } = await mountApp();
    expect(errors).not.toHaveBeenCalled();
    // React attached to the server's nodes, then drew the browser's state in them.
    expect(nodesOf(outlet)[0]).toBe(before[0]);
    expect(outlet.innerHTML).toBe('<p id="here">/about?from=mail#team team</p>');
  });

  it('hydrates the state the server rendered when a navigation commits before React hydrates, then draws the new one', async () => {
    await openPage('/books/1', 'all');
    const client = app();
    const router = createRouter({ routes: client.routes });
    const outlet = document.getElementById('app') as HTMLElement;
    const errors = vi.spyOn(console, 'error');
    let root: Root | undefined;
    // A click or a back between `mount` and React's hydration (a later task in a browser; the end of act here).
    await act(async () => {
      root = await mount(outlet, { router, routes: client.routes });
      void router.navigate('/');
    });
    cleanup.push(() => (act(() => root?.unmount()), router.destroy()));
    expect(router.current?.location).toBe('/');
    expect(errors).not.toHaveBeenCalled();
    expect(outlet.querySelector('h1')?.textContent).toBe('Books');
  });

  it("hydrates a hashbang app's links, which the server wrote clean, then gives them the router's #! URLs", async () => {
    const { html } = await openPage('/', 'all');
    expect(html).toContain('<a id="first" href="/books/1">');
    const { router, outlet, before, errors } = await mountApp('hashbang');
    expect(window.location.hash).toBe('#!/');
    expect(errors).not.toHaveBeenCalled();
    const first = outlet.querySelector('#first') as HTMLAnchorElement;
    expect(first).toBe(before.find((node) => (node as Element).id === 'first'));
    expect(first.getAttribute('href')).toBe(router.href('/books/1'));
    expect(first.getAttribute('href')).toBe('/#!/books/1');
  });

  it('renders anew where the server sent the shell (a browser in the default mode): the client loads', async () => {
    const { html } = await openPage('/books/1', 'bots');
    expect(html).not.toContain('data-router-rendered');
    const { outlet, mutations, loads, errors } = await mountApp();
    expect(loads).toEqual(['1']);
    expect(outlet.querySelector('h1')?.textContent).toBe('Dune');
    expect(mutations.length).toBeGreaterThan(0);
    expect(errors).not.toHaveBeenCalled();
  });
});
