// What every client build draws for a committed state: the view's `render` in the outlet and its
// title. The full client (view.ts) adds the head tags and a server-rendered page's marks; the lite
// one (lite.ts) draws this alone.

import { DEV } from '../env/dev.js';
import { hookText } from '../contract/hook-text.js';
import { SHELL_TITLE_ATTRIBUTE, type HydrationPayload } from '../contract/hydration.js';
import type { RouteMatch } from '../routes/types.js';
import type { RouterDocument, RouterElement } from './dom.js';
import type { ErrorContext, ErrorView } from './types.js';

/** The drawing of one router's states. Internal. */
export interface View {
  /** Finds the outlet (an element, or a selector read now) and reads the page: the server's data for the first navigation (the full client's; the lite one reads none). */
  start(outlet: RouterElement | string | null | undefined): HydrationPayload | null;
  /**
   * Draws `view` (a route's, the table's notFound or the error view) of the state `match` names:
   * its render (unless the server already drew that state into the outlet), its title and, in the
   * full client, its head, given `context`; a state not found or `failed` has no canonical link,
   * and `failed` keeps the title where the error view has none.
   */
  draw(view: ErrorView, match: RouteMatch, context: ErrorContext, failed: boolean | undefined): void;
}

/** Development builds only: says that the outlet selector `o` found nothing on `doc` (none: no window). Internal. */
export function warnOutlet(o: unknown, outlet: unknown, doc: RouterDocument | undefined): void {
  // A selector that finds nothing leaves every view undrawn and the page empty, with no error.
  if (typeof o === 'string' && !outlet)
    console.warn(
      `crawlable-router: the outlet ${JSON.stringify(o)} matches no element${doc ? ' when start() runs' : ': the router has no window (with a history instance, pass window too)'}; no view is drawn`,
    );
}

/** The title a route without one shows: the shell's, which a page rendered for a state names on its `<title>`. Internal. */
export const shellTitleOf = (doc: RouterDocument): string => doc.querySelector('title')?.getAttribute(SHELL_TITLE_ATTRIBUTE) ?? doc.title;

/**
 * Draws `view` of the state at `location` (its server spelling, for development builds' messages)
 * given `context`: its render into `outlet` unless `keep`, and its title on `doc`; a view without a
 * title shows `shellTitle` (the shell's), but the error view (`failed`), which leaves the title as
 * it is. Gives the title shown, if any. Internal.
 */
export function drawOutlet(
  doc: RouterDocument | undefined,
  outlet: RouterElement | null | undefined,
  view: ErrorView,
  context: ErrorContext,
  location: string,
  keep: boolean,
  failed: boolean | undefined,
  shellTitle: string,
): string | undefined {
  // Development builds refuse a promise from `render` or `title`, as the server does, naming the
  // state's location as it does (src/contract/hook-text.ts).
  if (outlet && view.render && !keep) outlet.innerHTML = DEV ? hookText(view.render(context), 'render', location) : view.render(context);
  const title = typeof view.title === 'function' ? view.title(context) : view.title;
  if (DEV) hookText(title, 'title', location);
  const shown = title ?? (failed ? undefined : shellTitle);
  if (shown !== undefined && doc) doc.title = shown;
  return shown;
}
