// The routes module the `prerender` and `sitemap` commands are given (--routes FILE), and the Vite
// plugin's `routes` option names: a module whose default or `routes` export is a route table or an
// array of routes, and which may also export the app's `shell` and its `notFound` route. How the
// module is loaded differs (Node's import here, Vite's module runner in the plugin); what it must
// export is this one rule, `routesOf`.

import { pathToFileURL } from 'node:url';
import { createRoutes, type AnyRoute, type NotFoundDefinition, type RouteDefinition, type RouteTable } from '../index.js';
import { thrownText } from '../server/printable.js';
import { SetupError } from './common.js';

/** Whether an export is a route table (createRoutes), by the members the commands use. */
function isTable(value: unknown): value is RouteTable<AnyRoute> {
  const table = value as Partial<RouteTable<AnyRoute>> | null;
  return typeof table?.resolve === 'function' && typeof table.locations === 'function' && typeof table.base === 'string';
}

/**
 * The route table of the loaded routes module `file` (its namespace `module`): its default or
 * `routes` export, a route table or an array of routes (made a table with `base` and its `notFound`
 * export), and its `shell` export. Throws a SetupError naming what is wrong.
 */
export function routesOf(
  module: Record<string, unknown>,
  file: string,
  base: string | undefined,
): { routes: RouteTable<AnyRoute>; shell?: string } {
  const exported = module['default'] ?? module['routes'];
  const shell = typeof module['shell'] === 'string' ? module['shell'] : undefined;
  if (isTable(exported)) return { routes: exported, ...(shell !== undefined && { shell }) };
  if (Array.isArray(exported)) {
    try {
      const routes = createRoutes(exported as RouteDefinition[], { base, notFound: module['notFound'] as NotFoundDefinition | undefined });
      return { routes: routes as RouteTable<AnyRoute>, ...(shell !== undefined && { shell }) };
    } catch (error) {
      throw new SetupError(`the routes in ${file} are not a valid table: ${(error as Error).message}`);
    }
  }
  // A classic page's shared file gives a function of the library (docs/recipes.md), which Node reads as CommonJS.
  if (typeof exported === 'function')
    throw new SetupError(
      `${file} exports a function, not a route table, as its default or \`routes\` export: give a module that calls it and exports the table (import * as CR from 'crawlable-router'; export const routes = make(CR);)`,
    );
  // Name what it does export: a table exported under another name (`export const appRoutes`) is the usual slip.
  const names = Object.keys(module).join(', ') || 'no names';
  throw new SetupError(
    `${file} exports no route table as its default or \`routes\` export (it exports ${names}): export default createRoutes([...]), export { appRoutes as routes }, or an array of routes`,
  );
}

/**
 * Loads the routes module `file` with Node's import and reads it by `routesOf`. Throws a SetupError
 * (exit 3) naming what is wrong.
 */
export async function loadRoutes(file: string, base: string | undefined): Promise<{ routes: RouteTable<AnyRoute>; shell?: string }> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    // Node 20 runs no TypeScript: a routes.ts needs compiling, or a loader in the process.
    const typescript =
      /\.[cm]?tsx?$/i.test(file) && (error as { code?: unknown } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION'
        ? `; Node runs no TypeScript here: give the compiled .js, or run the command with a loader: NODE_OPTIONS='--import tsx' npx crawlable-router …`
        : '';
    throw new SetupError(`cannot load the routes module ${file}: ${thrownText(error)}${typescript}`);
  }
  return routesOf(module, file, base);
}
