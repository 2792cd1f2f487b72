// crawlable-router/client/lite: the router of crawlable-router/client, with the same API, for an app
// that needs routing alone. It draws each state's render and title, and leaves out what the full
// client adds for pages a server rendered and for other routers' histories: head tags beyond the
// title, a server-rendered page's data (hydration), the `history` package adapter and reading ugly
// URLs (`?_escaped_fragment_=`). Development builds say so where a table, an option or the page asks
// for one of them.

import { DATA_SCRIPT_ID, HEAD_ATTRIBUTE } from '../contract/hydration.js';
import { DEV } from '../env/dev.js';
import { uglyState } from '../url/codec.js';
import { normalizeBase, readLocation } from '../url/location.js';
import { windowNav } from './adapters.js';
import { checkOptions } from './checks.js';
import type { LiveWindow, RouterDocument, RouterElement } from './dom.js';
import { drawOutlet, shellTitleOf, warnOutlet, type View } from './outlet.js';
import { noWindow, routerOn } from './router.js';
import type { Router, RouterOptions } from './types.js';

/** Development builds only: a warning naming what the lite client left out, and where the full one is. */
const warn = (what: string) => console.warn(`crawlable-router/client/lite ${what}; crawlable-router/client, with the same API, does`);

/**
 * The outlet and the title, as the full client draws them, without head tags or the server's data.
 * The head tags a page rendered for a state added for it (marked with its location: a canonical
 * link, a robots noindex, the route's own) go once another state is shown, as the full client takes
 * them away; the shell's stay.
 */
function liteView(routes: RouterOptions['routes'], doc: RouterDocument | undefined): View {
  let outlet: RouterElement | null | undefined;
  let shellTitle = '';
  return {
    start(o) {
      outlet = typeof o === 'string' ? doc?.querySelector(o) : o;
      if (DEV) {
        warnOutlet(o, outlet, doc);
        // Only where the full client reads data: a data script, never another element with its id
        // (a visitor's). Without hydrate.ts, which this client leaves out (test/imports.test.ts).
        if (doc?.getElementById(DATA_SCRIPT_ID)?.localName === 'script')
          warn('does not read the data a server-rendered page carries for its first state: its load runs again');
      }
      if (doc) shellTitle = shellTitleOf(doc);
      return null;
    },
    draw(view, match, context, failed) {
      const location = routes.stateOf(match.location);
      for (const tag of doc?.head?.querySelectorAll(`[${HEAD_ATTRIBUTE}]`) ?? [])
        if (tag.getAttribute(HEAD_ATTRIBUTE) !== location) tag.remove();
      drawOutlet(doc, outlet, view, context, location, false, failed, shellTitle);
    },
  };
}

/**
 * Creates a router over the route table, as crawlable-router/client's does, without head tags,
 * hydration, the `history` adapter or ugly URLs; nothing happens until `start()`.
 */
export function createRouter(options: RouterOptions): Router {
  // The ugly URL warned of last: a page load reads its URL twice, a click once per listener.
  let warned: string | undefined;
  if (DEV) {
    const { routes, history, error } = options;
    if (routes?.head || routes?.routes?.some((route) => route.head) || routes?.notFound?.head || error?.head)
      warn('writes no head tags but the title: the head of the table, a route or the error view is left out');
    if (history) warn('drives the window’s own history, never a `history` package instance');
    // Without a window the full client's message would say to pass a `history` instance.
    if (!options.window && !(globalThis as { window?: unknown }).window)
      throw new TypeError(
        'crawlable-router/client/lite: no window; pass { window } (a memory history in Node needs crawlable-router/client)',
      );
    checkOptions(options);
  }
  // Always the window's own history: a `history` option is left alone. A window's own CustomEvent
  // and URL are there at run time even where its type (the DOM's `Window`) lacks them.
  const win = (options.window ?? (globalThis as { window?: LiveWindow }).window) as LiveWindow;
  if (!win) throw noWindow();
  const base = normalizeBase(options.base ?? options.routes.base);
  // Reads no ugly URL: a URL with the parameter names no state here. Said where the full client
  // reads a state: never for a malformed ugly URL or one outside base, which name none there either.
  const readUgly = (url: string) => {
    if (DEV) {
      const at = url.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '');
      if (at !== warned && readLocation(at, base, uglyState) !== null) warn(`reads no ugly URL (${(warned = at)}): it names no state here`);
    }
    return null;
  };
  return routerOn(options, liteView, readUgly, win, base, windowNav(win, base), true);
}

// The public types, all of types.ts's.
export type * from './types.js';
