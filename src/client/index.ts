// crawlable-router/client: the browser router. pushState with a `#!` fallback over the same route
// table the snapshot server uses. Builds on the core; never on the server. The navigation core
// (router.ts) runs on the window's own history or on an instance of the `history` package.

import { DEV } from '../env/dev.js';
import { uglyState } from '../url/codec.js';
import { normalizeBase } from '../url/location.js';
import { windowNav } from './adapters.js';
import { checkOptions } from './checks.js';
import type { LiveWindow } from './dom.js';
import { historyNav } from './history.js';
import { noWindow, routerOn } from './router.js';
import type { Router, RouterOptions } from './types.js';
import { createView } from './view.js';

/** Creates a router over the route table; nothing happens until `start()`. */
export function createRouter(options: RouterOptions): Router {
  if (DEV) checkOptions(options);
  const instance = options.history;
  // Whether the history is the page's: the window's own, or a browser history of the package. A
  // memory history (the one with an `index`) is a widget's, which never drives the page.
  const paged = instance?.index == null;
  // With a `history` instance the window is only the document's (links, scroll, title): a browser
  // history's is the page's own, as createBrowserHistory() itself defaults to; a memory history
  // has none unless given.
  // A window's own CustomEvent and URL are there at run time even where its type (the DOM's `Window`) lacks them.
  const win = (options.window ?? (paged ? (globalThis as { window?: LiveWindow }).window : undefined)) as LiveWindow;
  if (!win && !instance) throw noWindow();
  // A classic script's `var history = createBrowserHistory()` hands over the window's own history.
  if (instance && !instance.listen)
    throw new TypeError(
      DEV
        ? 'createRouter: history is not an instance of the history package (the window’s own?); pass createBrowserHistory({ window }) or createMemoryHistory()'
        : 'no history',
    );
  const base = normalizeBase(options.base ?? options.routes.base);
  return routerOn(options, createView, uglyState, win, base, instance ? historyNav(instance) : windowNav(win, base), paged);
}

// The public types, all of types.ts's.
export type * from './types.js';
