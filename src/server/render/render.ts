// What a renderer is: one state in, one HTML document out. The default renders with the route
// table's own hooks (`load`, `title`, `render`: the same ones the client runs, so the snapshot
// shows what a browser shows) into the parsed shell; `headlessRenderer` runs the real app instead.

import type { AppLocation } from '../../url/location.js';
import { hookText, syncHead } from '../../contract/hook-text.js';
import { outcomeOf } from '../../routes/outcome.js';
import { stateHead } from '../../contract/head.js';
import type { Params } from '../../routes/params.js';
import type { Query } from '../../url/query.js';
import { record } from '../../url/record.js';
import type { AnyRoute, RenderContext, RouteMatch, RouteTable } from '../../routes/types.js';
import { dataScript } from '../html/hydration.js';
import { absoluteHeadUrl, prettyHref, rewriteHeadTag, rewriteLinks } from '../html/links.js';
import type { ShellTemplate } from '../html/shell.js';
import { headWithNoindex, matchNoindex } from '../noindex.js';
import type { UrlSettings } from '../urls.js';

/** One state to render. */
export interface RenderJob {
  /** The canonical location, without an anchor. */
  location: AppLocation;
  /** The state's URL as a browser opens it on the configured origin: clean or pretty, by the app's own mode. */
  url: string;
  /** The canonical URL for `<link rel="canonical">`: the route's `href` of the state's params and query. */
  canonical: string;
  /** The matched route, the notFound route, or null when nothing matches and there is no notFound route. */
  match: RouteMatch<AnyRoute> | null;
  /** True when no route matches: the snapshot is served with 404. */
  notFound: boolean;
  /** The app's origin, base, and the URL mode crawlers are told: clean unless `cleanUrls` is `'shell'`. */
  settings: UrlSettings;
  /** Aborted at the handler's `timeoutMs`: stop work and free what the render holds. */
  signal: AbortSignal;
  /**
   * The incoming request, on the server (method, URL, headers; no body): undefined for a render
   * asked by none (`handler.render()`, `prerender`). Reading it makes the render private to that
   * request (never stored or shared); reading it after the render ended throws REQUEST_ENDED.
   */
  readonly request?: Request | undefined;
  /**
   * Set in `cleanUrls: 'all'` mode: the page is what browsers get, so it carries the state's data
   * for the client router (a JSON script, with `nonce` when given) and marks the outlet with its location.
   */
  hydrate?: { nonce?: string | undefined } | undefined;
  /**
   * Renders this job as the default renderer does (the route's hooks into the handler's shell: data,
   * title, head, status, redirects and, in 'all' mode, the hydration data) with the outlet drawn by
   * `outlet` instead of the route's `render`: for a renderer that draws views of its own
   * (`crawlable-router/react/server`'s React views). Set by the handler; absent on a job made by hand.
   */
  hooks?(outlet: OutletRenderer): Promise<RenderResult>;
}

/** A state once its hooks have run, as `RenderJob.hooks` hands it to the outlet's drawing. */
export interface OutletState {
  /** The route whose view the state shows: the matched one, or the table's notFound route; undefined when there is neither. */
  route: AnyRoute | undefined;
  /** What the route's `render` would be given: params, query, the canonical location, origin, request and `data`. */
  context: RenderContext;
  /** True when the state is answered 404 (no match, or `notFound()` from its `beforeLoad` or `load`). */
  notFound: boolean;
}

/** Draws a state's outlet: its HTML (links rewritten for crawlers as a `render`'s are), or undefined to leave the shell's outlet as it is. */
export type OutletRenderer = (state: OutletState) => string | undefined;

/** A rendered document. */
export interface RenderResult {
  /** The whole HTML document, canonical link included. */
  html: string;
  /** The status to serve it with: 404 for a state that does not exist, a redirect's status, 500 for an error view. Default 404 when the job is `notFound`, else 200. */
  status?: number | undefined;
  /** For a redirect: the target location (inside the app); the handler writes `Location` in the request's form. */
  redirect?: AppLocation | undefined;
  /** For a status of 500: why the state failed (what its `load` threw), for `onError` and `prerender`'s report. */
  error?: string | undefined;
}

/** Renders states into HTML documents: the route hooks by default, or `headlessRenderer(...)`. */
export interface SnapshotRenderer {
  /** Renders one state; rejects when it cannot (the handler answers 500, or 504 after `timeoutMs`). */
  render(job: RenderJob): Promise<RenderResult>;
  /** Frees what the renderer holds (a headless browser). Default none. */
  close?: (() => Promise<void>) | undefined;
  /** The build of the app it renders (the headless renderer: a hash of the app's index.html), the handler's default `build`. Default none. */
  readonly build?: string | undefined;
}

/**
 * The default renderer: the route's `beforeLoad`, `load`, `title`, `head` and `render` hooks, written
 * into the shell, with the table's head defaults (and `noindex` in the robots meta of a noindex
 * route's states). A `beforeLoad` or `load` that throws `notFound()` gives the table's notFound view
 * with 404; `redirect()` gives the redirect; anything else rejects (a 500).
 */
export function hooksRenderer(
  shell: ShellTemplate,
  table: Pick<RouteTable, 'head' | 'notFound'> & Partial<Pick<RouteTable, 'canonical'>> = { head: undefined, notFound: undefined },
): HooksRenderer {
  return {
    async render(job, draw) {
      const found = job.match;
      const { signal } = job;
      let view: AnyRoute | undefined = found?.route;
      let status = job.notFound ? 404 : 200;
      let data: unknown;
      // The hooks see the state's one spelling (the route's href of its params), where there is one.
      let location = (found && table.canonical?.(found)) || job.location;
      // What every hook is given; `request` read through the job, so that reading it is seen (render/request.ts).
      const base = {
        params: found?.params ?? record<Params>(),
        query: found?.query ?? record<Query>(),
        location,
        origin: job.settings.origin,
        get request() {
          return job.request;
        },
      };
      if (found && (view?.beforeLoad || view?.load)) {
        try {
          // The access rule first, with load's context: a redirect or notFound() from it ends the state.
          const context = withRest(base, { signal });
          if (view.beforeLoad) await view.beforeLoad(context);
          signal.throwIfAborted();
          if (view.load) data = await view.load(context);
        } catch (thrown) {
          const outcome = outcomeOf(thrown);
          if (!outcome) throw thrown;
          if (outcome.kind === 'redirect') return { html: '', status: outcome.status, redirect: outcome.to };
          view = table.notFound;
          status = 404;
          // A state its route does not have has no spelling of the route's: the notFound view sees
          // the state as it was asked for (`/b` in a case-insensitive `/B`), as in the browser.
          location = base.location = job.location;
        }
      }
      signal.throwIfAborted();
      const context = withRest(base, { data });
      // Synchronous hooks, as in the browser: a promise from any is a 500 here, never "[object Promise]" or a head left empty.
      const title = hookText(typeof view?.title === 'function' ? view.title(context) : view?.title, 'title', location);
      const links = { ...job.settings, page: job.url };
      const stateTags = stateHead(
        { head: syncHead(table.head, location) },
        { head: syncHead(view?.head, location) },
        context,
        status === 200 ? { link: [{ rel: 'canonical', href: job.canonical }] } : null,
        // A route without a title shows the shell's, as in the browser.
        { title: title === undefined ? shell.title : `${title}` },
      );
      // A noindex route's states say so in their robots meta, beside the state's own directives.
      const tags = (matchNoindex(found) ? headWithNoindex(stateTags) : stateTags).map((tag) => rewriteHeadTag(tag, links));
      // A renderer's own drawing of the outlet (RenderJob.hooks) takes the place of the route's `render`.
      const body: unknown = draw
        ? draw({ route: view, context, notFound: status === 404 })
        : view?.render
          ? hookText(view.render(context), 'render', location)
          : undefined;
      // Text as the DOM makes it of what the client assigns: `innerHTML = null` is empty, a symbol throws.
      const drawsOutlet = draw ? body !== undefined : view?.render;
      const outlet = drawsOutlet ? rewriteLinks(body === null ? '' : `${body as string}`, links) : undefined;
      // For 'all' mode: the data the client's first navigation uses instead of `load`, and the outlet marked as drawn.
      // Both name the state as the client router reads it (its key), not the hooks' spelling.
      const head = job.hydrate ? dataScript({ location: job.location, status, data }, view ?? {}, job.hydrate.nonce) : undefined;
      const mark = job.hydrate ? job.location : undefined;
      return {
        status,
        html: shell.snapshot({
          title: title === undefined ? undefined : `${title}`,
          tags,
          location: job.location,
          head,
          outlet,
          mark,
          // The shell's own `og:image` and the like: absolute for this state, as the state's tags are.
          url: (url) => absoluteHeadUrl(prettyHref(url, links) ?? url, links),
        }),
      };
    },
  };
}

/** The default renderer, whose `render` also takes the drawing of the outlet that `RenderJob.hooks` is given. */
export interface HooksRenderer extends SnapshotRenderer {
  render(job: RenderJob, outlet?: OutletRenderer): Promise<RenderResult>;
}

/** `base` with `rest` added, its `request` getter kept a getter (a spread would read it, making every render private). */
function withRest<T extends object, R extends object>(base: T, rest: R): T & R {
  return Object.defineProperties({ ...rest }, Object.getOwnPropertyDescriptors(base)) as T & R;
}
