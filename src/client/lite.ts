// crawlable-router/client/lite: the router of crawlable-router/client, with the same API, for an app
// that needs routing alone. It draws each state's render and title, and leaves out what the full
// client adds for pages a server rendered and for other routers' histories: head tags beyond the
// title, a server-rendered page's data (hydration), the `history` package adapter and reading ugly
// URLs (`?_escaped_fragment_=`). Development builds say so where a table, an option or the page asks
// for one of them.

import { DATA_SCRIPT_ID } from '../contract/hydration.js';
import { DEV } from '../env/dev.js';
import type { RouterDocument, RouterElement } from './dom.js';
import { drawOutlet, shellTitleOf, warnOutlet, type View } from './outlet.js';
import { makeRouter } from './router.js';
import type { Router, RouterOptions } from './types.js';

/** Development builds only: a warning naming what the lite client left out, and where the full one is. */
const warn = (what: string) => console.warn(`crawlable-router/client/lite ${what}; crawlable-router/client, with the same API, does`);

/** The outlet and the title, as the full client draws them, without head tags or the server's data. */
function liteView(routes: RouterOptions['routes'], doc: RouterDocument | undefined): View {
  let outlet: RouterElement | null | undefined;
  let shellTitle = '';
  return {
    start(o) {
      outlet = typeof o === 'string' ? doc?.querySelector(o) : o;
      if (DEV) {
        warnOutlet(o, outlet, doc);
        if (doc?.getElementById(DATA_SCRIPT_ID))
          warn('does not read the data a server-rendered page carries for its first state: its load runs again');
      }
      if (doc) shellTitle = shellTitleOf(doc);
      return null;
    },
    draw(view, match, context, failed) {
      // The location names the state in development builds' messages only.
      drawOutlet(doc, outlet, view, context, DEV ? routes.stateOf(match.location) : '', false, failed, shellTitle);
    },
  };
}

const create = makeRouter(liteView, (url) => {
  if (DEV) warn(`reads no ugly URL (${url}): it names no state here`);
  return null;
});

/**
 * Creates a router over the route table, as crawlable-router/client's does, without head tags,
 * hydration, the `history` adapter or ugly URLs; nothing happens until `start()`.
 */
export function createRouter(options: RouterOptions): Router {
  if (DEV) {
    const { routes, history, error } = options;
    if (routes?.head || routes?.routes?.some((route) => route.head) || routes?.notFound?.head || error?.head)
      warn('writes no head tags but the title: the head of the table, a route or the error view is left out');
    if (history) warn('drives the window’s own history, never a `history` package instance');
  }
  return create({ ...options, history: undefined });
}

// The public types, all of types.ts's.
export type * from './types.js';
