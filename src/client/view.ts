// What a committed state shows on the page: its view's `render` in the outlet, its title and its
// head tags, drawn as the server's hooks renderer draws them. The router (src/client/router.ts)
// decides which view a state gets and what status it answers; this file only draws it.

import { DEV } from '../env/dev.js';
import { stateHead } from '../contract/head.js';
import { hookText, syncHead } from '../contract/hook-text.js';
import { RENDERED_ATTRIBUTE, SHELL_TITLE_ATTRIBUTE, type HydrationPayload } from '../contract/hydration.js';
import { urlOf } from '../url/location.js';
import type { AnyRoute, RouteMatch, RouteTable } from '../routes/types.js';
import type { RouterDocument, RouterElement } from './dom.js';
import { createHead } from './head.js';
import { readHydration } from './hydrate.js';
import type { ErrorContext, ErrorView } from './types.js';

/** The drawing of one router's states. Internal. */
export interface View {
  /** Finds the outlet (an element, or a selector read now) and reads the page: the server's data for the first navigation. */
  start(outlet: RouterElement | string | null | undefined): HydrationPayload | null;
  /**
   * Draws `view` (a route's, the table's notFound or the error view) of the state `match` names:
   * its render (unless the server already drew that state into the outlet), its title and its
   * head, given `context`; a state not found or `failed` has no canonical link, and `failed` keeps
   * the title where the error view has none.
   */
  draw(view: ErrorView, match: RouteMatch, context: ErrorContext, failed: boolean | undefined): void;
}

/**
 * Makes the drawing of one router's states on `doc` (none: a memory history without a window), whose
 * page is on `origin` (`og:url` is written on it; none on a page of no origin, a `file:` one). Internal.
 */
export function createView(routes: RouteTable<AnyRoute>, doc: RouterDocument | undefined, origin = 'null'): View {
  // Without a document there is no head to keep.
  const setHead = doc && createHead(doc);
  let outlet: RouterElement | null | undefined;
  // What the server-rendered page gives: the location whose view the outlet already shows (only the
  // first state drawn may find it there), and the title a route without one shows, the shell's.
  let drawn: string | null | undefined;
  let shellTitle = '';
  return {
    start(o) {
      outlet = typeof o === 'string' ? doc?.querySelector(o) : o;
      // A selector that finds nothing leaves every view undrawn and the page empty, with no error
      // (development builds only say so: a script run before its element, or no window given).
      if (DEV && typeof o === 'string' && !outlet)
        console.warn(
          `crawlable-router: the outlet ${JSON.stringify(o)} matches no element${doc ? ' when start() runs' : ': the router has no window (with a history instance, pass window too)'}; no view is drawn`,
        );
      // Without a document there is no server-rendered page to hydrate from.
      if (!doc) return null;
      // The outlet's mark says the server already wrote that location's view into it. A snapshot
      // (at an ugly URL) has none: its state is drawn anew. Its head tags, as any page's, say which
      // state they are of themselves (src/client/head.ts).
      drawn = outlet?.getAttribute(RENDERED_ATTRIBUTE);
      // Any page rendered for a state names the shell's title on its `<title>` where the state's replaced it.
      shellTitle = doc.querySelector('title')?.getAttribute(SHELL_TITLE_ATTRIBUTE) ?? doc.title;
      return readHydration(doc);
    },
    draw(view, match, context, failed) {
      // The state as the server names it in its marks: its path and declared query, as requested.
      const location = routes.stateOf(match.location);
      // The hooks' location is the canonical one, but for a state not found.
      const canonical = failed || match.notFound ? null : context.location;
      const keep = drawn === location;
      drawn = null;
      // Development builds refuse a promise from `render`, `title` or `head`, as the server does, naming
      // the state's location as it does (src/contract/hook-text.ts).
      if (outlet && view.render && !keep)
        outlet.innerHTML = DEV ? hookText(view.render(context), 'render', location) : view.render(context);
      const title = typeof view.title === 'function' ? view.title(context) : view.title;
      if (DEV) hookText(title, 'title', location);
      // A route without a title shows the shell's; the error view without one leaves the title as it is.
      const shown = title ?? (failed ? undefined : shellTitle);
      if (shown !== undefined && doc) doc.title = shown;
      setHead?.(
        stateHead(
          DEV ? { head: syncHead(routes.head, location) } : routes,
          DEV ? { head: syncHead(view.head, location) } : view,
          context,
          canonical === null ? null : undefined,
          // Open Graph's URL is the clean one, whatever the mode: crawlers drop the fragment.
          {
            url: canonical === null || !origin || origin === 'null' ? undefined : origin + urlOf(canonical, routes.base, false),
            title: shown,
          },
        ),
        location,
      );
    },
  };
}
