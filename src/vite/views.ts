// The app as the plugin loads it: one module, ENTRY, that imports the routes module and (where it
// loads) crawlable-router/react/server, through one module runner, so that the views' binding and
// the renderer's are one copy (one router context) however the package is installed (from the
// registry, linked, in a workspace). A table whose routes carry React `view`s is then drawn by
// `reactRenderer` in dev, build and preview alike, so that a bot's snapshot and a prerendered page
// hold what the browser draws; a table without views is drawn by its `render` hooks.

import type { Logger, Plugin } from 'vite';
import type { AnyRoute, RouteTable } from '../index.js';
import { SnapshotError, type SnapshotHandlerOptions, type SnapshotRenderer } from '../server/index.js';
import { loadTable, type Settings } from './options.js';

/** The module that loads the app. */
export const ENTRY = 'virtual:crawlable-router/app';
const RESOLVED = `\0${ENTRY}`;

/** What ENTRY exports: the routes module, and the React renderer's module or why it did not load. */
interface Entry {
  routesModule: Record<string, unknown>;
  react: { module: { reactRenderer(options: { routes: RouteTable<AnyRoute> }): SnapshotRenderer } } | { error: unknown };
}

/** The hooks that give ENTRY for the routes module at `file` (an absolute path). */
export function entryHooks(file: () => string): Pick<Plugin, 'resolveId' | 'load'> {
  return {
    resolveId: (id) => (id === ENTRY ? RESOLVED : undefined),
    load: (id) =>
      id === RESOLVED
        ? `import * as routesModule from ${JSON.stringify(file())};\n` +
          `const react = await import('crawlable-router/react/server').then((module) => ({ module }), (error) => ({ error }));\n` +
          `export { routesModule, react };\n`
        : undefined,
  };
}

/** Whether any route of the table (or its notFound) carries a `view`. */
export function hasViews(routes: RouteTable<AnyRoute>): boolean {
  const carries = (route: object | undefined) => route !== undefined && (route as { view?: unknown }).view !== undefined;
  return routes.routes.some(carries) || carries(routes.notFound);
}

/**
 * The route table (loadTable's rules and checks) and, for a table with views, their renderer, from
 * ENTRY imported by `importEntry`. Views with no React to draw them are a BAD_OPTION that says what
 * to install.
 */
export async function loadApp(
  settings: Settings,
  file: string,
  viteBase: string,
  importEntry: () => Promise<Record<string, unknown>>,
): Promise<{ routes: RouteTable<AnyRoute>; renderer: SnapshotRenderer | undefined }> {
  let entry: Entry | undefined;
  const routes = await loadTable(settings, file, viteBase, async () => {
    entry = (await importEntry()) as unknown as Entry;
    return entry.routesModule;
  });
  if (!hasViews(routes) || entry === undefined) return { routes, renderer: undefined };
  if ('error' in entry.react) {
    const { error } = entry.react;
    throw new SnapshotError(
      'BAD_OPTION',
      `crawlableRouter: the routes carry React views, and crawlable-router/react/server does not load (npm install react react-dom): ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  return { routes, renderer: entry.react.module.reactRenderer({ routes }) };
}

/**
 * What dev's and preview's handlers share: the app's table and renderer, the plugin's origin,
 * clean URLs and outlet, and errors told on Vite's logger.
 */
export function appHandlerOptions(
  settings: Settings,
  { routes, renderer }: { routes: RouteTable<AnyRoute>; renderer: SnapshotRenderer | undefined },
  logger: Logger,
): Pick<SnapshotHandlerOptions, 'routes' | 'renderer' | 'origin' | 'cleanUrls' | 'outlet' | 'onError'> {
  return {
    routes,
    ...(renderer && { renderer }),
    origin: settings.origin,
    cleanUrls: settings.cleanUrls,
    ...(settings.outlet !== undefined && { outlet: settings.outlet }),
    onError: (error, location) =>
      logger.error(`crawlable-router: ${location ?? 'a request'}: ${(error as Error)?.message ?? String(error)}`, {
        error: error instanceof Error ? error : null,
      }),
  };
}

/**
 * `create()`, with a page that has no outlet told in the plugin's words: the page is index.html and
 * the selector is the plugin's `outlet` option. The server's own message names "the shell" and "the
 * outlet option", which a Vite app whose page mounts in another element (the React template's
 * `<div id="root">`) does not know as its own.
 */
export async function namingTheOutlet<T>(settings: Settings, page: string, create: () => T | Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (
      !(error instanceof SnapshotError && error.code === 'BAD_SHELL' && error.message.startsWith('no element matches the outlet selector'))
    )
      throw error;
    throw new SnapshotError(
      'BAD_SHELL',
      `crawlableRouter: ${page} has no element that the outlet selector ${JSON.stringify(settings.outlet ?? '#app')} matches: give crawlableRouter({ outlet }) the selector of the element the app draws into (Vite's React template's is "#root")`,
      { cause: error },
    );
  }
}
