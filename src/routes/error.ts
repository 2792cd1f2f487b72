// The one error a route table or an `href` call throws for a programmer's mistake, and how its
// messages name a route.

/** What a `RouteError` is about. */
export type RouteErrorCode = 'BAD_PATTERN' | 'DUPLICATE_NAME' | 'UNKNOWN_ROUTE' | 'MISSING_PARAM' | 'BAD_PARAM' | 'BAD_REDIRECT';

/**
 * A programmer error in a route table or an `href` call; `code` names it. In a production build the
 * long texts are dropped (src/env/dev.ts) and the message is the code, which docs/errors.md explains.
 */
export class RouteError extends Error {
  /** The kind of error. */
  declare readonly code: RouteErrorCode;

  constructor(code: RouteErrorCode, message: string) {
    super(message || code);
    this.name = 'RouteError';
    this.code = code;
  }
}

/** How errors name a route: `route "book" (/books/:id)`, or `route /books/:id` without a name. Internal. */
export function describe(route: { path: string; name?: string | undefined }): string {
  return route.name ? `route "${route.name}" (${route.path})` : `route ${route.path}`;
}
