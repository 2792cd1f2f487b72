// crawlable-router: the isomorphic core (no DOM, no Node): the #! codec, the three URL forms and
// the route table that the client router and the snapshot server share.

export { CodecError, escapeFragment, isPrettyUrl, isUglyUrl, toPrettyUrl, toUglyUrl, unescapeFragment } from './url/codec.js';
export type { CodecErrorCode } from './url/codec.js';
export { toLocation, toUrl } from './url/location.js';
export type { AppLocation, ToLocationOptions, ToUrlOptions, UrlMode } from './url/location.js';
export { notFound, redirect } from './routes/outcome.js';
export type { NotFoundOutcome, Outcome, RedirectOutcome, RedirectStatus } from './routes/outcome.js';
export type { Head, LinkTag, MetaTag } from './contract/head.js';
export { createRoutes } from './routes/table.js';
export { route } from './routes/types.js';
export { RouteError } from './routes/error.js';
export type { RouteErrorCode } from './routes/error.js';
export type { Params, ParamsOf } from './routes/params.js';
export type { Query, QueryInput } from './url/query.js';
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
} from './routes/types.js';
