// The states a prerender run (and the sitemap step after sharded runs) works from: every location
// the route table names, once, without its anchor, in the table's order; a record of entries() that
// names none, described for the report; and the routes that name no state at all.

import { stripAnchor, type AppLocation } from '../../url/location.js';
import type { Params } from '../../routes/params.js';
import type { AnyRoute, EntryFault, RouteTable } from '../../routes/types.js';
import { createRoutes } from '../../routes/table.js';
import { thrownText } from '../printable.js';

/** Params as a report shows them: JSON, cut short; whatever entries() gave, never a throw. */
function describeParams(params: Params): string {
  let text: string;
  try {
    text = JSON.stringify(params) ?? String(params);
  } catch {
    text = '(params that do not print)';
  }
  return text.length > 200 ? text.slice(0, 200) + '…' : text;
}

/**
 * Every state of the table, once each, in its order (an anchor names no state of its own); with
 * `noindex`, those of `noindex` routes too (they are written, never listed in a sitemap). A record
 * of entries() that names no location (a slug `..`) is told to `onFault`: the route's path and the
 * params given (or `entries()` when it threw), and why.
 */
export async function tableStates(
  routes: RouteTable<AnyRoute>,
  onFault?: (record: string, error: string) => void,
  noindex = false,
): Promise<Set<AppLocation>> {
  const onError =
    onFault &&
    (({ route, params, error }: EntryFault) => {
      const what = params === undefined ? 'entries()' : describeParams(params);
      onFault(`${route.path ?? '(notFound)'} ${what}`, thrownText(error));
    });
  const states = new Set<AppLocation>();
  for await (const location of routes.locations({ onError, noindex })) states.add(stripAnchor(location));
  return states;
}

/**
 * The paths of the table's routes that name no state: a route without `entries()` names the one
 * location its pattern writes with no params, none when it has params (`routes.locations()`, asked
 * of each such route alone). A redirect route is left out: it is never written.
 */
export async function unlisted(routes: RouteTable<AnyRoute>): Promise<string[]> {
  const paths: string[] = [];
  for (const route of routes.routes) {
    const { path, entries, redirect } = route as { path?: string; entries?: unknown; redirect?: unknown };
    if (path === undefined || entries || redirect !== undefined) continue;
    const names = createRoutes([{ path }]).locations()[Symbol.asyncIterator]();
    if ((await names.next()).done) paths.push(path);
  }
  return paths;
}
