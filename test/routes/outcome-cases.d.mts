import type { Head, notFound, redirect, NotFoundDefinition, RouteDefinition } from '../../src/index.js';
import type { ErrorView } from '../../src/client/index.js';

/** One outcome case (see outcome-cases.mjs). */
export interface OutcomeCase {
  name: string;
  location: string;
  status: number;
  redirect?: string;
  title: string;
  description: string;
  heading: string;
  notFound?: boolean;
  error?: boolean;
  /** A redirect loop: a 500 from every server renderer; the client router rejects the navigation instead of committing a view. */
  loop?: boolean;
}

/** HTML-escapes text, as a route's `render` must. */
export function esc(text: unknown): string;

export function caseRoutes(lib: { notFound: typeof notFound; redirect: typeof redirect }): {
  routes: RouteDefinition<string, unknown>[];
  notFound: NotFoundDefinition;
  error: ErrorView;
  head: Head;
};

export const cases: OutcomeCase[];
