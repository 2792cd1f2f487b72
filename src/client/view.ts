// What a committed state shows on the page: its view's `render` in the outlet, its title and its
// head tags, drawn as the server's hooks renderer draws them. The router (src/client/router.ts)
// decides which view a state gets and what status it answers; this file only draws it.

import { DEV } from '../env/dev.js';
import { stateHead } from '../contract/head.js';
import { syncHead } from '../contract/hook-text.js';
import { RENDERED_ATTRIBUTE } from '../contract/hydration.js';
import { urlOf } from '../url/location.js';
import type { AnyRoute, RouteTable } from '../routes/types.js';
import type { RouterDocument, RouterElement } from './dom.js';
import { createHead } from './head.js';
import { readHydration } from './hydrate.js';
import { drawOutlet, shellTitleOf, warnOutlet, type View } from './outlet.js';

/**
 * Makes the drawing of one router's states on `doc` (none: a memory history without a window).
 * `og:url` is written on the page's origin, the hooks' `context.origin` (the router gives the view
 * the same one); none on a page of no origin (a `file:` one, a memory history's). Internal.
 */
export function createView(routes: RouteTable<AnyRoute>, doc: RouterDocument | undefined): View {
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
      if (DEV) warnOutlet(o, outlet, doc);
      // Without a document there is no server-rendered page to hydrate from.
      if (!doc) return null;
      // The outlet's mark says the server already wrote that location's view into it. A snapshot
      // (at an ugly URL) has none: its state is drawn anew. Its head tags, as any page's, say which
      // state they are of themselves (src/client/head.ts).
      drawn = outlet?.getAttribute(RENDERED_ATTRIBUTE);
      shellTitle = shellTitleOf(doc);
      return readHydration(doc);
    },
    draw(view, match, context, failed) {
      // The state as the server names it in its marks: its path and declared query, as requested.
      const location = routes.stateOf(match.location);
      // A state not found or failed has no canonical URL; any other's is the hooks' location.
      const lost = failed || match.notFound;
      const origin = context.origin;
      const keep = drawn === location;
      drawn = null;
      const shown = drawOutlet(doc, outlet, view, context, location, keep, failed, shellTitle);
      // Development builds refuse a promise from `head`, as the server does.
      setHead?.(
        stateHead(
          DEV ? { head: syncHead(routes.head, location) } : routes,
          DEV ? { head: syncHead(view.head, location) } : view,
          context,
          lost ? null : undefined,
          // Open Graph's URL is the clean one, whatever the mode: crawlers drop the fragment. A lost
          // state has none: stateHead writes no og:url where there is no canonical link (null).
          {
            url: !origin || origin === 'null' ? undefined : origin + urlOf(context.location, routes.base, false),
            title: shown,
          },
        ),
        location,
      );
    },
  };
}
