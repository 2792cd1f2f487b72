// The React binding's components and hooks, shared by the browser and the server render: the
// router and its route table handed down through a context, `current` read through
// useSyncExternalStore, a route's `view` drawn with its data, and links whose `href` is the URL the
// router writes. Plain `createElement` calls: no JSX for the build or the layout checks to compile.
// Types come through the package's public entries only, so the built types name those (one
// `route()` brand for the app's table and for `Link`).

import { createContext, createElement, useContext, useMemo, useSyncExternalStore } from 'react';
import type { ComponentProps, ComponentType, ReactNode } from 'react';
import type {
  AnyRoute,
  AppLocation,
  NamedParams,
  Params,
  ParamsOf,
  Query,
  QueryInput,
  RouteDefinition,
  RouteTable,
  TypedRoute,
} from '../index.js';
import type { Current, Router } from '../client/index.js';
import { urlOf } from '../url/location.js';

/** What a route's `view` is given: what its `render` would get, but `origin` and `request`. */
export interface ViewProps<P = Params, D = unknown> {
  /** What the route's `load` returned (undefined without one, and in the notFound view). */
  data: D;
  /** The decoded params. */
  params: P;
  /** The decoded query (the keys the route declares). */
  query: Query;
  /** The state's canonical location, as the hooks get it. */
  location: AppLocation;
}

/** What `<Outlet error>`'s component is given when a route's `load` threw (neither `notFound()` nor `redirect()`). */
export interface ErrorViewProps extends ViewProps<Params, undefined> {
  /** What `load` (or `beforeLoad`) threw. */
  error: unknown;
}

/** A route whose `view` is a React component typed by its path and by what its `load` returns. */
export type ReactRouteDefinition<P extends string = string, D = unknown, N extends string = string> = RouteDefinition<P, D, N> & {
  /** The component the outlet draws for the route's states. Default none: the outlet is empty. */
  view?: ComponentType<ViewProps<ParamsOf<P>, D>> | undefined;
};

/**
 * The core's `route()` with a typed `view`: `params` from the path literal and `data` from `load`
 * in its props, for a component declared apart (`view: BookPage`) as for one written inline. The
 * view's props take part in inferring `data` (a component declared apart would otherwise fix it
 * before `load` is read), so a view that needs data asks for a `load`. Type-only: returns the definition.
 */
export const route = <const P extends string, D = undefined, const N extends string = string>(
  definition: ReactRouteDefinition<P, D, N> & (undefined extends D ? unknown : { load: unknown }),
): TypedRoute<P, D, N> => definition as TypedRoute<P, D, N>;

/**
 * Names the app's route table for `Link`'s types, by declaration merging:
 * `declare module 'crawlable-router/react' { interface Register { routes: typeof routes } }`. Without
 * it (or with a table of inline routes) `Link` takes any name, checked at run time.
 */
export interface Register {}

/** The routes of the table `Register` names, else any route. */
export type RegisteredRoute = Register extends { routes: { readonly routes: readonly (infer R)[] } } ? R : AnyRoute;

/** Where a `Link` goes, as `routes.href(name, params, query)` takes it: a known name and its params with a registered table of `route()` routes. */
export type LinkTarget<R = RegisteredRoute> = [keyof NamedParams<R>] extends [never]
  ? { to: string; params?: Params | undefined; query?: QueryInput | undefined }
  : {
      [N in keyof NamedParams<R>]: { to: N; query?: QueryInput | undefined } & ({} extends NamedParams<R>[N]
        ? { params?: NamedParams<R>[N] | undefined }
        : { params: NamedParams<R>[N] });
    }[keyof NamedParams<R>];

/** `Link`'s props: an `<a>`'s, but `href`, and where it goes. */
export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & LinkTarget;

/** `RouterProvider`'s props. */
export interface RouterProviderProps {
  /** The router, from `createRouter` (with no `outlet`: React draws). */
  router: Router;
  /** The route table the router was made with: `Link` builds its locations, the outlet its views' `location`. */
  routes: RouteTable<AnyRoute>;
  children?: ReactNode;
}

/** `Outlet`'s props. */
export interface OutletProps {
  /** Drawn when the state's `load` threw. Default none: nothing is drawn. */
  error?: ComponentType<ErrorViewProps> | undefined;
}

const Binding = createContext<{ router: Router; routes: RouteTable<AnyRoute> } | null>(null);

const useBinding = () => {
  const binding = useContext(Binding);
  if (!binding) throw new Error('crawlable-router/react: no <RouterProvider> above this component');
  return binding;
};

/** Hands the router and its route table to the components inside. */
export function RouterProvider({ router, routes, children }: RouterProviderProps): ReactNode {
  return createElement(Binding, { value: useMemo(() => ({ router, routes }), [router, routes]) }, children);
}

/** The router of the nearest `RouterProvider`; throws outside one. */
export const useRouter = (): Router => useBinding().router;

/**
 * The state a server rendered into the page `mount` hydrates, by router: what `useCurrent` reads
 * while React hydrates, whatever the address bar says (an anchor) or the router reached since. Internal.
 */
export const served = new WeakMap<Router, Current>();

/** A subscription to nothing: what changes only between hydration and after it. */
const none = () => () => {};

/** The router's `current` state (null before the first navigation commits), drawn again after each commit. */
export function useCurrent(): Current | null {
  const { router } = useBinding();
  const read = () => router.current;
  return useSyncExternalStore(router.subscribe, read, () => served.get(router) ?? read());
}

/** An `<a>` to a named route: its `href` is the URL the router writes in its mode; its clicks are the router's link handling. */
export function Link({ to, params, query, ...rest }: LinkProps): ReactNode {
  const { router, routes } = useBinding();
  const loc = (routes.href as (...args: unknown[]) => AppLocation)(to, params, query);
  const href = () => router.href(loc);
  // While `mount` hydrates, the clean URL the server wrote (crawlers are told clean URLs, whatever
  // the mode), then the router's: a hashbang app's links get their `#!` URLs once hydrated.
  return createElement('a', {
    ...rest,
    href: useSyncExternalStore(none, href, () => (served.has(router) ? urlOf(loc, routes.base, false) : href())),
  });
}

/** The current state's `view`, given its data, params, query and canonical location; `error` when its `load` threw. */
export function Outlet({ error }: OutletProps): ReactNode {
  const current = useCurrent();
  const { routes } = useBinding();
  if (!current) return null;
  const failed = 'error' in current;
  const view = (failed ? error : current.route.view) as ComponentType<ViewProps & { error?: unknown }> | undefined;
  const props = {
    data: current.data,
    params: current.params,
    query: current.query,
    location: routes.canonical(current) ?? routes.stateOf(current.location),
  };
  return view ? createElement(view, failed ? { ...props, error: current.error } : props) : null;
}
