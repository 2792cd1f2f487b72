// The route table shared by the client router and the snapshot server: path-to-regexp v8 patterns
// compiled once (pattern/compile.ts), matched through a segment index on a server (match/matcher.ts) and by a
// first-match scan in a browser (match/matcher.browser.ts, which the package's "browser" field puts in its
// place), params decoded exactly once and leniently.

import { isCanonicalPath, normalizeBase, normalizeLocation, splitLocation, stripAnchor, type AppLocation } from '../url/location.js';
import { redirectOutcome } from './outcome.js';
import type { Params } from './params.js';
import { compileRoute, requiredNames, type Compiled, type CompiledRoute } from './pattern/compile.js';
import { percentDecode } from '../url/percent.js';
import { isTrackingKey, keepQueryKeys, parseQuery, stringifyQuery, type QueryInput } from '../url/query.js';
import { DEV } from '../env/dev.js';
import { describe, RouteError } from './error.js';
import { createMatcher } from './match/matcher.js';
import { record } from '../url/record.js';
import type { AnyRoute, Entries, LoadContext, RouteDefinition, RouteMatch, RoutesOptions, RouteTable, TypedRoute } from './types.js';

/** A location as matching reads it: canonical, its path, its query and its decoded anchor. */
interface Parts {
  location: AppLocation;
  path: string;
  search: string;
  hash: string;
}

/** Compiles a route table shared by the client router and the snapshot server. */
export function createRoutes<const T extends readonly TypedRoute<string, unknown, string>[]>(
  routes: T,
  options?: RoutesOptions,
): RouteTable<T[number]>;
export function createRoutes<const P extends readonly string[]>(
  routes: { readonly [K in keyof P]: RouteDefinition<P[K], unknown> },
  options?: RoutesOptions,
): RouteTable<RouteDefinition<P[number], unknown>>;
// The overloads type the routes for callers; the implementation takes them as the list both are, so
// that no second name for them (a cast) goes into a bundle.
export function createRoutes<const P extends readonly string[]>(
  list: readonly RouteDefinition<P[number], unknown>[],
  options: RoutesOptions = {},
): RouteTable<RouteDefinition<P[number], unknown>> {
  type R = RouteDefinition<P[number], unknown>;
  const { sensitive = true, notFound, head } = options;
  const base = normalizeBase(options.base);
  // Keys are looked up with `includes`, a substring test on a string: `queryKeys: 'page'` kept `p`.
  if (DEV)
    for (const [keys, of] of [
      [options.queryKeys, ''],
      [notFound?.queryKeys, ' of the notFound route'],
      ...list.map((r) => [r.queryKeys, ` of route ${r.path}`] as const),
    ] as const) {
      if (keys !== undefined && !Array.isArray(keys))
        throw new TypeError(`queryKeys${of} must be a list of query keys, such as ["page"]; got ${JSON.stringify(keys)}`);
      // A declared tracking tag would be dropped all the same: its states one state, one cache entry.
      const tag = keys?.find(isTrackingKey);
      if (tag !== undefined)
        throw new TypeError(
          `queryKeys${of} declares ${JSON.stringify(tag)}, a tracking tag: tracking tags are never part of a state (utm_*, gclid, fbclid, …); name the key otherwise`,
        );
    }
  const compiled = list.map((r) => compileRoute(r, sensitive));
  // A redirect route loads by throwing its redirect: one path for the client and every renderer.
  const table = list.map((r, i) =>
    r.redirect === undefined ? r : ({ ...r, load: redirectLoad(r, compiled[i] as ReturnType<typeof compileRoute>, sensitive) } as R),
  );
  const byName = new Map<string, number>();
  list.forEach((r, i) => {
    if (r.name === undefined) return;
    if (byName.has(r.name))
      throw new RouteError(
        'DUPLICATE_NAME',
        DEV ? `two routes are named "${r.name}": ${list[byName.get(r.name) as number]?.path} and ${r.path}` : '',
      );
    byName.set(r.name, i);
  });
  const find = createMatcher(compiled, sensitive, (id, params, at: Parts) => result(table[id] as R, params, at, false));

  function parts(location: AppLocation): Parts {
    // A canonical path alone, the common case, is its own location, with no query or anchor.
    const [path, query = '', hash] = isCanonicalPath(location) ? [location] : splitLocation(normalizeLocation(location));
    // Tracking tags (`utm_source`, `fbclid`) name the state they were added to: they are no part of
    // it. The location is written again from its parts: a canonical location has no empty query or anchor.
    const search = query && keepQueryKeys(query);
    return { location: withSearch(path, search) + (hash ? '#' + hash : ''), path, search, hash: hash ? percentDecode(hash) : '' };
  }

  /** The query keys that make part of a state of `route`: its own, or the table's. */
  const keysOf = (route: AnyRoute | undefined) => route?.queryKeys ?? options.queryKeys;

  function match(location: AppLocation): RouteMatch<R> | null {
    const at = parts(location);
    return find(at.path, at);
  }

  // Field by field: an object rest (`{ search, ...at }`) made every match 100 ns slower in V8.
  function result<T extends AnyRoute>(route: T, params: Params, at: Parts, notFound: boolean): RouteMatch<T> {
    return {
      route,
      params,
      query: parseQuery(keepQueryKeys(at.search, keysOf(route))),
      location: at.location,
      path: at.path,
      hash: at.hash,
      notFound,
    };
  }

  function buildLocation(id: number, params?: Params, query?: QueryInput): AppLocation {
    const path = (compiled[id] as Compiled).build(params);
    const search = query
      ? stringifyQuery(query, (key, inValue) => {
          throw new RouteError(
            'BAD_PARAM',
            DEV ? `${inValue ? 'a value of ' : ''}query key ${JSON.stringify(key)} has a lone surrogate` : '',
          );
        })
      : '';
    return withSearch(path, search);
  }

  // A redirect route whose target it matches again redirects without end: a crawler is sent round
  // (`/B` to `/b` in a case-insensitive table, `/*p` to `/new/*p`) and the client gives up after 10
  // hops. A development check, tried with a sample value for each param (a target that cannot be
  // written from it is let be).
  if (DEV)
    list.forEach((r, i) => {
      if (typeof r.redirect !== 'string') return;
      const target = compileRoute({ path: r.redirect }, sensitive);
      let to: string;
      try {
        to = target.build(Object.fromEntries(target.keys.map((k) => [k.name, k.type === 'wildcard' ? ['x'] : 'x'])));
      } catch {
        return;
      }
      if (match(to)?.route === table[i])
        throw new RouteError(
          'BAD_REDIRECT',
          `the redirect of ${describe(r)} to ${JSON.stringify(r.redirect)} leads back to the route itself (${to} is one of its paths): a loop no visitor leaves`,
        );
    });

  return {
    routes: table,
    base,
    notFound,
    head,
    match,
    resolve(location, fallback = notFound) {
      const found = match(location);
      if (found || !fallback) return found;
      return result(fallback, record<Params>(), parts(location), true);
    },
    stateOf(location) {
      const at = parts(location);
      return withSearch(at.path, keepQueryKeys(at.search, keysOf(match(at.path)?.route ?? notFound)));
    },
    href(name: string, params?: Params, query?: QueryInput) {
      const id = byName.get(name);
      if (id === undefined) throw new RouteError('UNKNOWN_ROUTE', DEV ? `no route is named ${JSON.stringify(name)}` : '');
      return buildLocation(id, params, query);
    },
    async *locations(options) {
      const onError = options?.onError;
      const all = options?.noindex;
      const seen = new Set<AppLocation>();
      for (let id = 0; id < list.length; id++) {
        const r = list[id] as R;
        const fail = (error: unknown, params?: Params) => onError?.({ route: r, params, error });
        // One bad record fails alone: the others of its route and every other route still come.
        try {
          // Awaiting an iterable gives it back as it is; a promise gives its iterable. A pattern
          // with required params and no entries() names no location of its own.
          const found = r.entries
            ? await (r.entries() as Entries<Params>)
            : requiredNames((compiled[id] as CompiledRoute).tokens).length
              ? []
              : [{}];
          for await (const params of found) {
            let location: AppLocation;
            try {
              location = buildLocation(id, params);
            } catch (error) {
              fail(error, params);
              continue;
            }
            // A noindex state is no search result, and a redirect route's state is no page of its
            // own (a sitemap listing it lists a 301): left out, as the route that matches it says.
            const route = all ? undefined : match(location)?.route;
            if (route && (route.noindex || route.redirect !== undefined)) continue;
            if (!seen.has(location)) {
              seen.add(location);
              yield location;
            }
          }
        } catch (error) {
          fail(error);
        }
      }
    },
    canonical(m) {
      // The last place of the route, as a Map from routes to ids would keep it.
      const id = table.lastIndexOf(m.route as R);
      if (id < 0 || m.notFound) return null;
      try {
        return buildLocation(id, m.params, m.query);
      } catch {
        // Params its own pattern cannot write back (a value holding a separator): the location as it came.
        return stripAnchor(m.location);
      }
    },
  };
}

/** `path` with the query `search` (none when it is ''). */
const withSearch = (path: string, search: string): AppLocation => (search ? `${path}?${search}` : path);

/** A redirect route's target compiled, a `RouteError` naming the route and its target when it is no pattern. */
function redirectTarget(r: RouteDefinition<string, unknown>, to: string, sensitive: boolean): ReturnType<typeof compileRoute> {
  try {
    return compileRoute({ path: to }, sensitive);
  } catch (error) {
    throw new RouteError(
      'BAD_PATTERN',
      `the redirect of ${describe(r)} to ${JSON.stringify(to)} is no path pattern of this app: ${(error as Error).message}`,
    );
  }
}

/** The `load` of a redirect route: a pattern filled with the matched params (query kept), or the function's target; 301. */
function redirectLoad(
  r: RouteDefinition<string, unknown>,
  source: ReturnType<typeof compileRoute>,
  sensitive: boolean,
): (context: LoadContext) => never {
  const to = r.redirect as string | ((context: LoadContext) => AppLocation);
  if (typeof to === 'function')
    return (context) => {
      throw redirectOutcome(to(context), 301);
    };
  // Development builds name the redirect in the error of a target that is no pattern (`https://…`,
  // `books/:id`), which otherwise blamed "a route path" the route's own path is not.
  const target = DEV ? redirectTarget(r, to, sensitive) : compileRoute({ path: to }, sensitive);
  const uncaptured = (n: string) => !source.names.includes(n);
  if (target.names.some(uncaptured))
    throw new RouteError(
      'BAD_REDIRECT',
      DEV
        ? `the redirect of ${describe(r)} to ${JSON.stringify(to)} needs params its path does not capture: ${target.names.filter(uncaptured).join(', ')}`
        : '',
    );
  // A param of another kind (`:id` to `*id`) fails every request, and one optional in the path but
  // required by the target fails those without it: a development check, so that no state is a 500.
  if (DEV) {
    const wildcard = (c: Compiled, name: string) => c.keys[c.names.indexOf(name)]?.type === 'wildcard';
    const captured = requiredNames(source.tokens);
    const unfit = requiredNames(target.tokens).filter((n) => !captured.includes(n));
    for (const n of target.names) if (wildcard(target, n) !== wildcard(source, n)) unfit.push(n);
    if (unfit.length)
      throw new RouteError(
        'BAD_REDIRECT',
        `the redirect of ${describe(r)} to ${JSON.stringify(to)} cannot always write its params: ${unfit.join(', ')} (a wildcard in one and a param in the other, or optional in the path but not in the target)`,
      );
  }
  // The query goes along; redirectOutcome drops a `?` with none after it, as every location does.
  return ({ params, location }) => {
    throw redirectOutcome(withSearch(target.build(params), splitLocation(location)[1] ?? ''), 301);
  };
}
