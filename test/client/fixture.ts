// Shared fixture of the client tests: a happy-dom Window injected as the router's `window`, a route
// table whose loaders the test controls, and helpers to wait for what happy-dom does asynchronously.

import { Window } from 'happy-dom';
import { createRoutes, toUrl, type AnyRoute, type RouteDefinition, type UrlMode } from '../../src/index.js';
import { createRouter } from '../../src/client/index.js';
import type { Router, RouterOptions } from '../../src/client/index.js';

export const modes: UrlMode[] = ['history', 'hashbang'];

/** HTML-escapes untrusted text, as a route's `render` must. */
export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A promise the test resolves or rejects by hand. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

export interface SetupOptions extends Partial<Omit<RouterOptions, 'window' | 'routes'>> {
  /** The page's URL when the window opens (origin-relative). Default the base. */
  url?: string;
  /** Extra routes in front of the standard ones. */
  routes?: RouteDefinition<string, unknown>[];
  /** A notFound route; `null` for none. */
  notFound?: AnyRoute | null;
  /** The createRouter to test: crawlable-router/client's by default. */
  create?: (options: RouterOptions) => Router;
}

export function setup(mode: UrlMode | 'auto', options: SetupOptions = {}) {
  const { url, routes: extra = [], notFound, base = '/app/', create = createRouter, ...rest } = options;
  const window = new Window({ url: 'https://example.com' + (url ?? base) });
  const document = window.document;
  document.body.innerHTML = '<main id="outlet"></main><p id="after">after</p>';
  const loads: string[] = [];
  const table = createRoutes(
    [
      ...extra,
      { path: '/', name: 'home', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        name: 'book',
        title: ({ params }) => `Book ${params.id}`,
        load: ({ params }) => (loads.push(String(params.id)), { id: params.id }),
        render: ({ params, data }) => `<h1>${esc(String(params.id))}</h1><p>${esc(JSON.stringify(data))}</p><h2 id="reviews">Reviews</h2>`,
      },
      {
        path: '/q/:term',
        title: ({ params }) => `Search ${params.term}`,
        render: ({ params, query }) => `<h1>${esc(String(params.term))}</h1>${esc(JSON.stringify(query))}`,
      },
      { path: '/files/*path', render: ({ params }) => esc(JSON.stringify(params.path)) },
      { path: '/boom', load: () => Promise.reject(new Error('no books today')), render: () => 'never' },
    ],
    {
      base,
      notFound:
        notFound === null
          ? undefined
          : (notFound ?? { title: 'Not found', render: ({ location }) => `<h1>Not found: ${esc(location)}</h1>` }),
    },
  );
  const router: Router = create({ routes: table, mode, base, outlet: '#outlet', window, ...rest });
  const outlet = () => document.getElementById('outlet')?.innerHTML ?? '';
  /** The address bar, origin-relative. */
  const address = () => window.location.pathname + window.location.search + window.location.hash;
  /** The URL a location must show in this router's mode. */
  const urlOf = (location: string) => toUrl(location, { base, mode: router.mode });
  /** Lets happy-dom fire what it queued (hashchange runs in a timer), then waits for the router. */
  const flush = async () => {
    await window.happyDOM.waitUntilComplete();
    await router.settled();
  };
  return { window, document, router, table, loads, outlet, address, urlOf, flush, base };
}

export type Setup = ReturnType<typeof setup>;
