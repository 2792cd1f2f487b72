// crawlable-router: the isomorphic core (no DOM, no Node): the #! codec, the three URL forms and
// the route table that the client router and the snapshot server share.

export { CodecError, escapeFragment, isPrettyUrl, isUglyUrl, toPrettyUrl, toUglyUrl, unescapeFragment } from './codec.js';
export type { CodecErrorCode } from './codec.js';
export { toLocation, toUrl } from './location.js';
export type { AppLocation, ToLocationOptions, ToUrlOptions, UrlMode } from './location.js';
export { notFound, redirect } from './outcome.js';
export type { NotFoundOutcome, Outcome, RedirectOutcome, RedirectStatus } from './outcome.js';
export type { Head, LinkTag, MetaTag } from './head.js';
export { createRoutes } from './routes.js';
export { route } from './route-types.js';
export { RouteError } from './route-error.js';
export type { RouteErrorCode } from './route-error.js';
export type { Params, ParamsOf } from './params.js';
export type { Query, QueryInput } from './query.js';
export type {
  AnyRoute,
  Entries,
  EntryFault,
  HeadFunction,
  HrefArgs,
  NamedParams,
  RedirectFunction,
  HookContext,
  LoadContext,
  LocationsOptions,
  NotFoundDefinition,
  RenderContext,
  RouteDefinition,
  RouteMatch,
  RoutesOptions,
  RouteTable,
  TitleFunction,
  TypedRoute,
} from './route-types.js';
