// The public shapes of a route table: a route's definition and hooks, a match, the table and its
// options, and the compile-time typing of named routes (`route()`, `href`'s arguments).

import type { Head } from '../contract/head.js';
import type { AppLocation } from '../url/location.js';
import type { Params, ParamsOf } from './params.js';
import type { Query, QueryInput } from '../url/query.js';

/** Where a hook runs, and for whom: what every hook's context has. */
export interface HookContext<P = Params> {
  /** The decoded params. */
  params: P;
  /** The decoded query. */
  query: Query;
  /** The state's canonical location: one spelling per state (`routes.canonical`), on both sides. */
  location: AppLocation;
  /** The app's origin: the server's configured one, the window's in the browser, `''` on a memory history. */
  origin: string;
  /**
   * On the server, the incoming request (method, URL on the configured origin, headers; no body);
   * `undefined` in the browser, in `prerender` and in headless pages. A render that reads it is
   * private to that request: never stored or shared, answered `private, no-store`.
   */
  request?: Request | undefined;
}

/** What `load` and `beforeLoad` receive. */
export interface LoadContext<P = Params> extends HookContext<P> {
  /** Aborted when a newer navigation or a timeout makes this load moot. */
  signal: AbortSignal;
}

/** What `render` and a `title` function receive. */
export interface RenderContext<P = Params, D = unknown> extends HookContext<P> {
  /** What `load` returned (undefined when the route has no `load`). */
  data: D;
}

/** A title computed from the state (method-typed so routes with typed data fit a table of routes). */
export type TitleFunction<P = Params, D = unknown> = { title(context: RenderContext<P, D>): string }['title'];

/** A state's head computed from its render context (method-typed, as `TitleFunction`). */
export type HeadFunction<P = Params, D = unknown> = { head(context: RenderContext<P, D>): Head }['head'];

/** A redirect route's target computed from the load context (method-typed, as `TitleFunction`). */
export type RedirectFunction<P = Params> = { redirect(context: LoadContext<P>): AppLocation }['redirect'];

/** What `entries()` may return: params for every location of the route, at once or over time. */
export type Entries<P> = Iterable<P> | AsyncIterable<P> | Promise<Iterable<P>>;

/** A route: a path-to-regexp pattern and the hooks that fetch and render its state. */
export interface RouteDefinition<P extends string = string, D = unknown, N extends string = string> {
  /** A path-to-regexp v8 pattern relative to the base: `/books/:id`, `/files/*path`, `/list{/:page}`. */
  path: P;
  /** A name for `href(name, params)`. Default none. */
  name?: N | undefined;
  /** The document title for this state. Default none: the title is left alone. */
  title?: string | TitleFunction<ParamsOf<P>, NoInfer<D>> | undefined;
  /**
   * Runs before `load`, on both sides, with its context (`request` on the server): an access rule.
   * Throw `redirect(to)` (302 unless given) to send the visitor (and a bot) away, or `notFound()`.
   * Default none.
   */
  beforeLoad?: { beforeLoad(context: LoadContext<ParamsOf<P>>): void | Promise<void> }['beforeLoad'] | undefined;
  /**
   * Fetches the state's data; aborted through `signal` when it is no longer wanted. Throw
   * `notFound()` when the item does not exist, `redirect(to, status)` when it moved. Default none.
   */
  load?: { load(context: LoadContext<ParamsOf<P>>): D | Promise<D> }['load'] | undefined;
  /** Returns the outlet's HTML for the state. Untrusted text in it must be escaped by the hook. Default none. */
  render?: { render(context: RenderContext<ParamsOf<P>, NoInfer<D>>): string }['render'] | undefined;
  /**
   * The state's view for a view library's binding to draw with `data` (a React component for
   * `crawlable-router/react`, typed by that binding's own `route()`). Opaque here: the client router
   * and the hooks renderer never read it. Default none.
   */
  view?: unknown;
  /** The state's meta, link and JSON-LD tags, over the table's `head` defaults. Default none. */
  head?: HeadFunction<ParamsOf<P>, NoInfer<D>> | undefined;
  /**
   * Makes the route only a redirect, answered 301: a pattern whose params are carried over by
   * name (`'/books/:id'`, the query kept), or a function of the load context giving the target
   * location. The route's own `load` is not used. Default none.
   */
  redirect?: string | RedirectFunction<ParamsOf<P>> | undefined;
  /** Lists params for prerendering and sitemaps. Default none: only a param-free path is listed. */
  entries?: { entries(): Entries<ParamsOf<P>> }['entries'] | undefined;
  /** The query keys that make a distinct state; others are dropped from `query`, the snapshot cache key and the canonical URL. Default: the table's `queryKeys`. */
  queryKeys?: readonly string[] | undefined;
  /**
   * Keeps the route's states out of search results: their snapshots say `noindex` in
   * `<meta name="robots">` and `X-Robots-Tag`, and `locations()` (so sitemaps) leaves them out. The
   * client router writes nothing for it. Default `false`.
   */
  noindex?: boolean | undefined;
}

/** The route shown when nothing matches (or a `load` throws `notFound()`); its `path` is not used for matching. */
export type NotFoundDefinition<D = unknown> = Omit<RouteDefinition<string, D>, 'path' | 'entries' | 'redirect' | 'name' | 'noindex'> & {
  path?: string | undefined;
};

/**
 * A route as the table holds it, whatever its pattern. The notFound route has no name: `name` is
 * `undefined` there, so `current.route.name` and a guard's `to.route.name` read on any route.
 */
export type AnyRoute = RouteDefinition<string, unknown> | (NotFoundDefinition<unknown> & { name?: undefined });

/** The result of a match: the route, its decoded params and query, and the canonical location. */
export interface RouteMatch<R = AnyRoute> {
  /** The matched route (or the notFound route, from `resolve`). */
  route: R;
  /** Decoded params: a string each, an array for a wildcard, absent for a skipped optional group. */
  params: Params;
  /** The decoded query, repeated keys kept. */
  query: Query;
  /** The canonical location. */
  location: AppLocation;
  /** The location's path. */
  path: string;
  /** The in-page anchor, without `#`; `''` when there is none. */
  hash: string;
  /** True when this is the notFound route standing in for no match. */
  notFound: boolean;
}

/** Options of `createRoutes`. */
export interface RoutesOptions {
  /** The app's base path, shared with the client and server. Default `'/'`. */
  base?: string | undefined;
  /** The route shown for a location no pattern matches. Default none. */
  notFound?: NotFoundDefinition | undefined;
  /** Match case-sensitively. Default `true`: `/Books` and `/books` are two states. */
  sensitive?: boolean | undefined;
  /** Head tags of every state (a state's tag with the same key wins), or a function of the render context. Default none. */
  head?: Head | HeadFunction | undefined;
  /** The query keys that make a distinct state, for routes that name none (and for no match). Default: every key. */
  queryKeys?: readonly string[] | undefined;
}

declare const typed: unique symbol;

/** A route typed by `route()`: its path and name literals kept, for `href` checked at compile time. Type-only: nothing is added at run time. */
export type TypedRoute<P extends string = string, D = unknown, N extends string = string> = RouteDefinition<P, D, N> & {
  readonly [typed]: [P, N];
};

/** The params each named route of a table takes: `{ book: { id: string } }` (routes typed by `route()` only). */
export type NamedParams<R> = {
  [E in R as E extends { readonly [typed]: [string, infer N extends string] } ? (string extends N ? never : N) : never]: E extends {
    readonly [typed]: [infer P extends string, string];
  }
    ? ParamsOf<P>
    : never;
};

/** `href`'s arguments: with a table of `route()` routes, a known name and its params; else any name. */
export type HrefArgs<R> = [keyof NamedParams<R>] extends [never]
  ? [name: string, params?: Params | undefined, query?: QueryInput | undefined]
  : {
      [N in keyof NamedParams<R>]: {} extends NamedParams<R>[N]
        ? [name: N, params?: NamedParams<R>[N] | undefined, query?: QueryInput | undefined]
        : [name: N, params: NamedParams<R>[N], query?: QueryInput | undefined];
    }[keyof NamedParams<R>];

/** A compiled route table. */
export interface RouteTable<R extends AnyRoute = AnyRoute> {
  /** The routes, in declaration order. */
  readonly routes: readonly R[];
  /** The base path, canonical, starting and ending with `/`. */
  readonly base: string;
  /** The notFound route, if one was given. */
  readonly notFound: NotFoundDefinition | undefined;
  /** The head defaults of every state, if given. */
  readonly head: Head | HeadFunction | undefined;
  /** The first route whose pattern matches the location's path, or null. */
  match(location: AppLocation): RouteMatch<R> | null;
  /** Like `match`, but falls back to `fallback` (default the notFound route); null only when there is none. */
  resolve(location: AppLocation, fallback?: NotFoundDefinition): RouteMatch<R | NotFoundDefinition> | null;
  /** The state a location names: its path and the query keys its route declares (`queryKeys`), no anchor. */
  stateOf(location: AppLocation): AppLocation;
  /** Builds the location of a named route; throws `RouteError` for an unknown name or a missing param. */
  href(...args: HrefArgs<R>): AppLocation;
  /** Every location that param-free paths and `entries()` name, each once, but those of `noindex` and redirect routes; a bad record is skipped and told to `onError`. */
  locations(options?: LocationsOptions): AsyncIterable<AppLocation>;
  /**
   * The one canonical location of a matched state: what `href` writes for its route's params
   * with its query (`/r/mac+cheese` and `/r/mac%2Bcheese` give one); null for the notFound route.
   */
  canonical(match: RouteMatch<AnyRoute>): AppLocation | null;
}

/** A record of `entries()` that names no location, or an `entries()` that failed. */
export interface EntryFault {
  /** The route whose `entries()` gave it. */
  route: AnyRoute;
  /** The params given; undefined when `entries()` itself threw. */
  params: Params | undefined;
  /** Why: a `RouteError` (BAD_PARAM, MISSING_PARAM) or what `entries()` threw. */
  error: unknown;
}

/** Options of `locations()`. */
export interface LocationsOptions {
  /** Told about each bad record (it is skipped; the other records still come). Default: skipped silently. */
  onError?: ((fault: EntryFault) => void) | undefined;
  /** Lists the states of `noindex` and redirect routes too (what `prerender` renders, and leaves out of its sitemap). Default `false`. */
  noindex?: boolean | undefined;
}

/** Types a route definition from its path literal, so `params` and `data` are checked in its hooks. */
export function route<const P extends string, D = undefined, const N extends string = string>(
  definition: RouteDefinition<P, D, N>,
): TypedRoute<P, D, N> {
  return definition as TypedRoute<P, D, N>;
}
