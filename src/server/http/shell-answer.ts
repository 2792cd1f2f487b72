// What a clean URL that gets no snapshot is answered with: the app's shell (200, or 404 where no
// route matches; `X-Robots-Tag: noindex` at a noindex route's URL), its answers kept for the
// handler's life, or, for a redirect route, its move to the target's clean URL, found by the
// route's `load` with no render.

import type { AppLocation } from '../../url/location.js';
import { matchNoindex, NOINDEX_HEADER } from '../noindex.js';
import { outcomeOf } from '../../routes/outcome.js';
import type { RouteDefinition, RouteTable } from '../../routes/types.js';
import { ownMemo } from '../held.js';
import type { ShellTemplate } from '../html/shell.js';
import { redirectUrl, type UrlSettings } from '../urls.js';
import type { Answer, Ask } from './exchange.js';
import { redirectTo } from './pages.js';
import { etagOf, respond } from './respond.js';

/** What `shellAnswer` needs, made once per handler (handler-setup.ts). */
export interface ShellAnswerOptions {
  /** The route table: which route a clean URL's path matches. */
  routes: RouteTable;
  /** The origin (a redirect route's `load` is given it) and base and mode a move's Location is written in. */
  settings: UrlSettings;
  /** The parsed shell: its page is the answer, its language a move's page's. */
  shell: ShellTemplate;
  /** The `Cache-Control` of a redirect route's move. */
  cacheControl: string;
  /** The `Cache-Control` of the shell. */
  shellCacheControl: string;
  /** `Vary` of every answer here (`User-Agent` in `cleanUrls: 'bots'` mode), else undefined. */
  vary: string | undefined;
  /** Answer with the shell; `false` leaves it to the next handler (a move is answered either way). */
  serveShell: boolean;
  /** gzip the shell and moves for clients that accept them. */
  compress: boolean;
}

/** The redirect of a redirect route's match (its load throws it at once), or null. */
function routeRedirect(match: NonNullable<ReturnType<RouteTable['match']>>, origin: string) {
  try {
    const { params, query, location } = match;
    match.route.load?.({ params, query, location, origin, signal: new AbortController().signal });
  } catch (thrown) {
    const outcome = outcomeOf(thrown);
    if (outcome?.kind === 'redirect') return outcome;
  }
  return null;
}

/** The answer of a clean URL that gets no snapshot, as a function of the request and its location. */
export function shellAnswer(options: ShellAnswerOptions) {
  const { routes, settings, shell, cacheControl, shellCacheControl, vary, serveShell, compress } = options;
  const shellPage = { body: shell.page, etag: etagOf(shell.page), lastModified: Date.now(), cacheControl: shellCacheControl, vary };
  // The shell's answers are kept for the handler's life: one page, at most four answers (with
  // and without gzip, and each with and without the noindex header).
  const shellMemo = {};
  ownMemo(shellMemo, () => true);

  /**
   * A redirect route's move, or the shell (200, or 404 where no route matches), for a clean URL that
   * gets no snapshot; null without `serveShell`. A move is no shell: it is answered either way.
   */
  return function shellFor(request: Ask, location: AppLocation): Answer | Promise<Answer> | null {
    // Routes match paths: the query (which may be 16 kB of pairs) is not parsed for a status.
    const at = location.indexOf('?');
    const match = routes.match(at < 0 ? location : location.slice(0, at));
    // A redirect route needs no render: its clean URL moves to the target's clean URL (the query kept).
    // It is given its state, as every renderer and the client give it: the query keys it declares.
    const moved =
      match && (match.route as RouteDefinition).redirect !== undefined
        ? routeRedirect(routes.match(routes.stateOf(location)) ?? match, settings.origin)
        : null;
    if (moved)
      return respond(
        request,
        { ...redirectTo(moved.status, redirectUrl(moved.to, settings, 'clean'), cacheControl, shell.lang), vary },
        { compress },
      );
    if (!serveShell) return null;
    // A crawler that runs the shell's script (one no user agent list names, or any in 'shell' mode,
    // where the scheme alone is spoken) indexes the state it draws: a noindex route's says so in
    // the header, which browsers ignore. The route decides, as it does for the state's snapshots.
    const noindex = matchNoindex(match);
    return respond(
      request,
      { ...shellPage, status: match ? 200 : 404, headers: noindex ? NOINDEX_HEADER : undefined },
      { compress, memo: shellMemo, variant: noindex ? 1 : 0 },
    );
  };
}
