// The route table shared by the client router and the snapshot server: path-to-regexp v8 patterns
// compiled once, matched through a segment index, params decoded exactly once and leniently.

import { compile, parse, pathToRegexp, PathError, type Token } from 'path-to-regexp';
import type { Head } from './head.js';
import { canonicalPathText, normalizeBase, normalizeLocation, stripAnchor, type AppLocation } from './location.js';
import { redirect, type RedirectOutcome } from './outcome.js';
import type { Params, ParamsOf } from './params.js';
import { percentDecode } from './percent.js';
import { encodeComponent, keepQueryKeys, parseQuery, stringifyQuery, type Query, type QueryInput } from './query.js';
import { createIndex } from './route-index.js';

export type { Params, ParamsOf } from './params.js';
export type { Query, QueryInput } from './query.js';

/** What a `RouteError` is about. */
export type RouteErrorCode = 'BAD_PATTERN' | 'DUPLICATE_NAME' | 'UNKNOWN_ROUTE' | 'MISSING_PARAM' | 'BAD_PARAM' | 'BAD_REDIRECT';

/** A programmer error in a route table or an `href` call; `code` names it. */
export class RouteError extends Error {
  /** The kind of error. */
  readonly code: RouteErrorCode;

  constructor(code: RouteErrorCode, message: string) {
    super(message);
    this.name = 'RouteError';
    this.code = code;
  }
}

/** What `load` receives. */
export interface LoadContext<P = Params> {
  /** The decoded params. */
  params: P;
  /** The decoded query. */
  query: Query;
  /** The canonical location being loaded. */
  location: AppLocation;
  /** Aborted when a newer navigation or a timeout makes this load moot. */
  signal: AbortSignal;
}

/** What `render` and a `title` function receive. */
export interface RenderContext<P = Params, D = unknown> {
  /** The decoded params. */
  params: P;
  /** The decoded query. */
  query: Query;
  /** The canonical location being rendered. */
  location: AppLocation;
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
  name?: N;
  /** The document title for this state. Default none: the title is left alone. */
  title?: string | TitleFunction<ParamsOf<P>, NoInfer<D>>;
  /**
   * Fetches the state's data; aborted through `signal` when it is no longer wanted. Throw
   * `notFound()` when the item does not exist, `redirect(to, status)` when it moved. Default none.
   */
  load?(context: LoadContext<ParamsOf<P>>): D | Promise<D>;
  /** Returns the outlet's HTML for the state. Untrusted text in it must be escaped by the hook. Default none. */
  render?(context: RenderContext<ParamsOf<P>, NoInfer<D>>): string;
  /** The state's meta, link and JSON-LD tags, over the table's `head` defaults. Default none. */
  head?: HeadFunction<ParamsOf<P>, NoInfer<D>>;
  /**
   * Makes the route only a redirect, answered 301: a pattern whose params are carried over by
   * name (`'/books/:id'`, the query kept), or a function of the load context giving the target
   * location. The route's own `load` is not used. Default none.
   */
  redirect?: string | RedirectFunction<ParamsOf<P>>;
  /** Lists params for prerendering and sitemaps. Default none: only a param-free path is listed. */
  entries?(): Entries<ParamsOf<P>>;
  /** The query keys that make a distinct state; others are dropped from `query`, the snapshot cache key and the canonical URL. Default: the table's `queryKeys`. */
  queryKeys?: readonly string[];
}

/** The route shown when nothing matches (or a `load` throws `notFound()`); its `path` is not used for matching. */
export type NotFoundDefinition<D = unknown> = Omit<RouteDefinition<string, D>, 'path' | 'entries' | 'redirect' | 'name'> & {
  path?: string;
};

/** A route as the table holds it, whatever its pattern. */
export type AnyRoute = RouteDefinition<string, unknown> | NotFoundDefinition<unknown>;

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
  base?: string;
  /** The route shown for a location no pattern matches. Default none. */
  notFound?: NotFoundDefinition;
  /** Match case-sensitively. Default `true`: `/Books` and `/books` are two states. */
  sensitive?: boolean;
  /** Head tags of every state (a state's tag with the same key wins), or a function of the render context. Default none. */
  head?: Head | HeadFunction;
  /** The query keys that make a distinct state, for routes that name none (and for no match). Default: every key. */
  queryKeys?: readonly string[];
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
  ? [name: string, params?: Params, query?: QueryInput]
  : {
      [N in keyof NamedParams<R>]: {} extends NamedParams<R>[N]
        ? [name: N, params?: NamedParams<R>[N], query?: QueryInput]
        : [name: N, params: NamedParams<R>[N], query?: QueryInput];
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
  /** Every location that param-free paths and `entries()` name, each once; a bad record is skipped and told to `onError`. */
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
  onError?: (fault: EntryFault) => void;
}

/** Types a route definition from its path literal, so `params` and `data` are checked in its hooks. */
export function route<const P extends string, D = undefined, const N extends string = string>(
  definition: RouteDefinition<P, D, N>,
): TypedRoute<P, D, N> {
  return definition as TypedRoute<P, D, N>;
}

/** A compiled pattern: its regexp, which captures are wildcards, their names, and the inverse. */
export interface Compiled {
  regexp: RegExp;
  wildcards: boolean[];
  names: string[];
  build: (params: Params) => string;
}

/** How errors name a route: `route "book" (/books/:id)`, or `route /books/:id` without a name. Internal. */
export function describe(route: RouteDefinition<string, unknown>): string {
  return route.name ? `route "${route.name}" (${route.path})` : `route ${route.path}`;
}

/** A param value as it goes into a path: every character but the unreserved and `!'()*` escaped. */
function encodeParam(route: RouteDefinition<string, unknown>) {
  return (value: string): string => {
    return encodeComponent(value, (index) => {
      throw new RouteError('BAD_PARAM', `a param of ${describe(route)} has a lone surrogate at index ${index}`);
    });
  };
}

/** Compiles one route's pattern. Internal to the package; the fuzz tests check every regexp it makes. */
export function compileRoute(route: RouteDefinition<string, unknown>, sensitive: boolean): Compiled & { tokens: Token[] } {
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
    throw new RouteError('BAD_PATTERN', `a route path must be a string starting with "/", got ${JSON.stringify(route.path)}`);
  }
  try {
    // Literal text is written in canonical location spelling (`/café` is `/caf%C3%A9`), as paths are.
    const data = parse(route.path, { encodePath: canonicalPathText });
    const { regexp, keys } = pathToRegexp(data, { sensitive });
    const toPath = compile(data, { encode: encodeParam(route) });
    const empty = () => new RouteError('BAD_PARAM', `a param of ${describe(route)} cannot be "": it is not a path segment`);
    const build = (params: Params): string => {
      // An empty param, or an empty segment inside a wildcard, makes `//`, which a location
      // collapses; a wildcard may end with one: `['a', '']` is `a/`, as match reads a trailing slash.
      for (const key of keys) {
        const value = params[key.name];
        if (value === '' || (Array.isArray(value) && value.some((part, i) => part === '' && (i === 0 || i < value.length - 1))))
          throw empty();
      }
      let path: string;
      try {
        path = toPath(params as Partial<Record<string, string | string[]>>);
      } catch (error) {
        if (error instanceof RouteError) throw error;
        const missing = /^Missing parameters: (.*)$/.exec((error as Error).message);
        if (missing) throw new RouteError('MISSING_PARAM', `missing param ${missing[1]} for ${describe(route)}`);
        throw new RouteError('BAD_PARAM', `${(error as Error).message} for ${describe(route)}`);
      }
      // A `.` or `..` segment is removed by every URL parser, whichever params wrote it (`/:a` with
      // `..`, `/.:b` with `.`); a `.` inside a segment (`/:a~:b` with `~.`) is ordinary text.
      const dots = /(?:^|\/)(\.\.?)(?=\/|$)/.exec(path);
      if (dots)
        throw new RouteError(
          'BAD_PARAM',
          `the params of ${describe(route)} make ${JSON.stringify(path)}: a ${JSON.stringify(dots[1])} segment is not a path segment, URLs remove it`,
        );
      // `/:a.:b` never matches a `b` holding a `.`, and `.` `-` `~` cannot be escaped (a location
      // decodes them): a location its own route cannot match would be a link to nowhere.
      if (!regexp.test(path))
        throw new RouteError(
          'BAD_PARAM',
          `the params of ${describe(route)} make ${JSON.stringify(path)}, which it does not match: a value holds the text that separates two params`,
        );
      return path;
    };
    return { regexp, tokens: data.tokens, wildcards: keys.map((k) => k.type === 'wildcard'), names: keys.map((k) => k.name), build };
  } catch (error) {
    if (error instanceof PathError)
      throw new RouteError('BAD_PATTERN', `bad pattern ${JSON.stringify(route.path)}: ${error.message.split('; visit')[0]}`);
    throw error;
  }
}

const decodeParam = (raw: string): string => percentDecode(raw);

/** Compiles a route table shared by the client router and the snapshot server. */
export function createRoutes<const T extends readonly TypedRoute<string, unknown, string>[]>(
  routes: T,
  options?: RoutesOptions,
): RouteTable<T[number]>;
export function createRoutes<const P extends readonly string[]>(
  routes: { readonly [K in keyof P]: RouteDefinition<P[K], unknown> },
  options?: RoutesOptions,
): RouteTable<RouteDefinition<P[number], unknown>>;
export function createRoutes<const P extends readonly string[]>(
  routes: { readonly [K in keyof P]: RouteDefinition<P[K], unknown> },
  options: RoutesOptions = {},
): RouteTable<RouteDefinition<P[number], unknown>> {
  type R = RouteDefinition<P[number], unknown>;
  const list = routes as unknown as readonly R[];
  const { sensitive = true, notFound, head } = options;
  const base = normalizeBase(options.base);
  const compiled = list.map((r) => compileRoute(r, sensitive));
  // A redirect route loads by throwing its redirect: one path for the client and every renderer.
  const table = list.map((r, i) =>
    r.redirect === undefined ? r : ({ ...r, load: redirectLoad(r, compiled[i] as Compiled, sensitive) } as R),
  );
  const ids = new Map<unknown, number>(table.map((r, i) => [r, i]));
  const byName = new Map<string, number>();
  list.forEach((r, i) => {
    if (r.name === undefined) return;
    if (byName.has(r.name))
      throw new RouteError('DUPLICATE_NAME', `two routes are named "${r.name}": ${list[byName.get(r.name) as number]?.path} and ${r.path}`);
    byName.set(r.name, i);
  });
  const candidates = createIndex(
    compiled.map((c) => c.tokens),
    sensitive,
  );

  function parts(location: AppLocation) {
    const loc = normalizeLocation(location);
    const hashAt = loc.indexOf('#');
    const end = hashAt < 0 ? loc.length : hashAt;
    let q = loc.indexOf('?');
    if (q > end) q = -1;
    const pathEnd = q < 0 ? end : q;
    return {
      location: loc,
      path: pathEnd === loc.length ? loc : loc.slice(0, pathEnd),
      search: q < 0 ? '' : loc.slice(q + 1, end),
      hash: hashAt < 0 ? '' : percentDecode(loc, hashAt + 1),
    };
  }

  function match(location: AppLocation): RouteMatch<R> | null {
    const at = parts(location);
    const ids = candidates(at.path);
    for (let n = 0; n < ids.length; n++) {
      const id = ids[n] as number;
      const c = compiled[id] as Compiled;
      const m = c.regexp.exec(at.path);
      if (!m) continue;
      // Param names come from the trusted pattern, so a plain object is safe here.
      const params: Params = {};
      for (let i = 1; i < m.length; i++) {
        const raw = m[i];
        if (raw === undefined) continue;
        params[c.names[i - 1] as string] = c.wildcards[i - 1] ? raw.split('/').map(decodeParam) : decodeParam(raw);
      }
      return result(table[id] as R, params, at, false);
    }
    return null;
  }

  function result<T extends AnyRoute>(route: T, params: Params, at: ReturnType<typeof parts>, notFound: boolean): RouteMatch<T> {
    return {
      route,
      params,
      query: parseQuery(keepQueryKeys(at.search, route.queryKeys ?? options.queryKeys)),
      location: at.location,
      path: at.path,
      hash: at.hash,
      notFound,
    };
  }

  function buildLocation(id: number, params: Params = {}, query?: QueryInput): AppLocation {
    const path = (compiled[id] as Compiled).build(params);
    const search = query
      ? stringifyQuery(query, (key) => {
          throw new RouteError('BAD_PARAM', `query key ${JSON.stringify(key)} has a lone surrogate`);
        })
      : '';
    return search ? `${path}?${search}` : path;
  }

  return {
    routes: table,
    base,
    notFound,
    head,
    match,
    resolve(location, fallback = notFound) {
      const found = match(location);
      if (found || !fallback) return found;
      return result(fallback, Object.create(null) as Params, parts(location), true);
    },
    stateOf(location) {
      const at = parts(location);
      const search = keepQueryKeys(at.search, (match(at.path)?.route ?? notFound)?.queryKeys ?? options.queryKeys);
      return search ? `${at.path}?${search}` : at.path;
    },
    href(...[name, params, query]: [string, Params?, QueryInput?]) {
      const id = byName.get(name);
      if (id === undefined) throw new RouteError('UNKNOWN_ROUTE', `no route is named ${JSON.stringify(name)}`);
      return buildLocation(id, params, query);
    },
    async *locations(options) {
      const onError = options?.onError ?? (() => {});
      const seen = new Set<AppLocation>();
      for (let id = 0; id < list.length; id++) {
        const r = list[id] as R;
        // One bad record fails alone: the others of its route and every other route still come.
        try {
          // Awaiting an iterable gives it back as it is; a promise gives its iterable.
          const found = r.entries ? await (r.entries() as Entries<Params>) : [{}];
          for await (const params of found) {
            let location: AppLocation;
            try {
              location = buildLocation(id, params);
            } catch (error) {
              // A pattern with required params and no entries() names no location of its own.
              if (!r.entries && error instanceof RouteError && error.code === 'MISSING_PARAM') break;
              onError({ route: r, params, error });
              continue;
            }
            if (!seen.has(location)) {
              seen.add(location);
              yield location;
            }
          }
        } catch (error) {
          onError({ route: r, params: undefined, error });
        }
      }
    },
    canonical(m) {
      const id = ids.get(m.route);
      if (id === undefined || m.notFound) return null;
      try {
        return buildLocation(id, m.params, m.query);
      } catch {
        // Params its own pattern cannot write back (a value holding a separator): the location as it came.
        return stripAnchor(m.location);
      }
    },
  };
}

/** The `load` of a redirect route: a pattern filled with the matched params (query kept), or the function's target; 301. */
function redirectLoad(r: RouteDefinition<string, unknown>, source: Compiled, sensitive: boolean): (context: LoadContext) => never {
  const to = r.redirect as string | ((context: LoadContext) => AppLocation);
  if (typeof to === 'function') return (context) => throwing(redirect(to(context), 301));
  const target = compileRoute({ path: to }, sensitive);
  const missing = target.names.filter((n) => !source.names.includes(n));
  if (missing.length)
    throw new RouteError(
      'BAD_REDIRECT',
      `the redirect of ${describe(r)} to ${JSON.stringify(to)} needs params its path does not capture: ${missing.join(', ')}`,
    );
  return ({ params, location }) => {
    const state = stripAnchor(location);
    const q = state.indexOf('?');
    throw redirect(target.build(params) + (q < 0 ? '' : state.slice(q)), 301);
  };
}

function throwing(outcome: RedirectOutcome): never {
  throw outcome;
}
