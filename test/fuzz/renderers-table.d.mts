import type { notFound, redirect, createRoutes, RouteTable } from '../../src/index.js';
import type { ErrorView } from '../../src/client/index.js';

/** One piece of a route's path after its first word. */
export type Piece = { kind: 'word'; word: string } | { kind: 'param' | 'optional' | 'wildcard' };
/** What a view route's load does: nothing, return data, or end as the markers in its params and query say. */
export type Load = 'none' | 'data' | 'markers';
export interface RouteSpec {
  word: string;
  pieces: Piece[];
  /** A redirect route to the same pieces under another first word, or a view. */
  redirectTo?: string;
  load: Load;
  /** Where a load's RD marker redirects, and with which status. */
  to: string;
  status: 301 | 302 | 303 | 307 | 308;
  head: boolean;
  /** Whether it has a title and a render hook (without, the page keeps the shell's). */
  title: boolean;
  render: boolean;
  /** Whether a redirect route's target is a function of its context (else a pattern). */
  redirectFunction: boolean;
  /** Whether its head names its own canonical link. */
  canonical: boolean;
  /** The query keys that make a distinct state; every key when absent. */
  queryKeys?: string[];
}
export interface TableSpec {
  base: string;
  sensitive: boolean;
  routes: RouteSpec[];
  /** Whether the table has a notFound view, and whether that view loads (by the markers, as a route). */
  notFound: boolean;
  notFoundLoad: Load;
  queryKeys?: string[];
  defaults: 'none' | 'static' | 'function' | 'canonical';
}

/** A route's path pattern from its first word and pieces, its params named p0, p1… */
export function pattern(word: string, pieces: Piece[]): string;

/** The route table a spec describes, its error view for the client, and a count of `load` calls. */
export function tableOf(
  spec: TableSpec,
  lib: { createRoutes: typeof createRoutes; notFound: typeof notFound; redirect: typeof redirect },
): { table: RouteTable; error: ErrorView; loads: { count: number } };
