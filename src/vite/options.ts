// The plugin's options, checked when `crawlableRouter()` is called (a bad origin fails the config,
// before Vite starts anything), and what dev, build and preview share: the routes module read by the
// command line's rule (cli/routes-module.ts), whichever loader Vite gives, and the check that Vite
// serves the app under the route table's base.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AnyRoute, RouteTable } from '../index.js';
import { misspeltOption } from '../contract/option-names.js';
import { SnapshotError, type CleanUrls, type RobotsTxtOptions } from '../server/index.js';
import { checkCleanUrls, checkOrigin } from '../server/urls.js';
import { routesOf } from '../cli/routes-module.js';

/** How `vite build` prerenders. */
export interface PrerenderStep {
  /** Fail the build when a state fails to prerender (its location and error in the message); `false` reports it and passes. Default `true`. */
  failOnError?: boolean | undefined;
  /** States rendered at once. Default 4. */
  concurrency?: number | undefined;
  /** Longest render of one state, in ms. Default 10000. */
  timeoutMs?: number | undefined;
}

/** Options of `crawlableRouter`. */
export interface CrawlableRouterOptions {
  /** The routes module, a path from Vite's root (`src/routes.ts`; TypeScript welcome): its default or `routes` export is the route table. Required. */
  routes: string;
  /** The site's public origin (`https://example.com`), for canonical links, redirects and the sitemap. Required. */
  origin: string;
  /** What clean URLs answer in dev and preview, as `createSnapshotHandler`'s option; also which URLs canonical links and the sitemap name. Default `'bots'`. */
  cleanUrls?: CleanUrls | undefined;
  /** The selector of index.html's outlet, the element a state is rendered into. Default `'#app'`. */
  outlet?: string | undefined;
  /** Prerender every listed state into the build's folder after `vite build`, or `false` for none. Default `{}`. */
  prerender?: PrerenderStep | false | undefined;
  /** Write `sitemap.xml` into the build's folder. Default `true`. */
  sitemap?: boolean | undefined;
  /** Write `robots.txt` into the build's folder, naming the sitemap: `robotsTxt`'s options, or `false` for none (one from Vite's `public/` is kept). Default `true`. */
  robots?: boolean | Omit<RobotsTxtOptions, 'base'> | undefined;
}

/** The options as checked, with their defaults. */
export interface Settings {
  routes: string;
  origin: string;
  cleanUrls: CleanUrls;
  outlet: string | undefined;
  prerender: PrerenderStep | false;
  sitemap: boolean;
  robots: Omit<RobotsTxtOptions, 'base'> | false;
}

const OPTIONS: Record<keyof CrawlableRouterOptions, 1> = {
  routes: 1,
  origin: 1,
  cleanUrls: 1,
  outlet: 1,
  prerender: 1,
  sitemap: 1,
  robots: 1,
};
const STEP: Record<keyof PrerenderStep, 1> = { failOnError: 1, concurrency: 1, timeoutMs: 1 };

const bad = (message: string) => new SnapshotError('BAD_OPTION', `crawlableRouter: ${message}`);

/** Checks `crawlableRouter`'s options; throws SnapshotError BAD_OPTION naming the one that is wrong. */
export function checkOptions(options: CrawlableRouterOptions): Settings {
  if (typeof options !== 'object' || options === null)
    throw bad(`takes an options object ({ routes, origin, … }), got ${options === null ? 'null' : typeof options}`);
  const slip = misspeltOption(options, OPTIONS);
  if (slip) throw bad(slip);
  if (typeof options.routes !== 'string' || options.routes === '')
    throw bad(`routes must be the path of the routes module (such as "src/routes.ts"), got ${JSON.stringify(options.routes)}`);
  const prerender = options.prerender ?? {};
  if (prerender !== false) {
    if (typeof prerender !== 'object' || prerender === null)
      throw bad(`prerender must be an object ({ failOnError, concurrency, timeoutMs }) or false, got ${JSON.stringify(prerender)}`);
    const stepSlip = misspeltOption(prerender, STEP);
    if (stepSlip) throw bad(`prerender: ${stepSlip}`);
  }
  const robots = options.robots ?? true;
  if (typeof robots !== 'boolean' && (typeof robots !== 'object' || robots === null))
    throw bad(`robots must be true, false or robotsTxt's options, got ${JSON.stringify(robots)}`);
  return {
    routes: options.routes,
    origin: checkOrigin(options.origin, 'crawlableRouter: origin'),
    cleanUrls: checkCleanUrls(options.cleanUrls, 'crawlableRouter: cleanUrls'),
    outlet: options.outlet,
    prerender,
    sitemap: options.sitemap !== false,
    robots: robots === true ? {} : robots,
  };
}

/** The routes module's absolute path; BAD_OPTION when there is no such file. */
export function routesFile(settings: Settings, root: string): string {
  const file = path.resolve(root, settings.routes);
  if (!existsSync(file))
    throw bad(`the routes module ${JSON.stringify(settings.routes)} does not exist (${file}; routes is a path from Vite's root, ${root})`);
  return file;
}

/**
 * The module a load error was thrown in, from its stack: the first frame that names a plain path,
 * as Vite's module runner names the modules it evaluates (the app's own: `src/widget.ts`), not a
 * `file:` URL or `node:` (Vite, Node, a package Node loaded). A file, not a line: the runner of
 * `vite build` and `vite preview` names lines of the transformed code. Null when none.
 */
function thrownIn(error: unknown): string | null {
  const stack = typeof (error as Error)?.stack === 'string' ? (error as Error).stack! : '';
  for (const line of stack.split('\n')) {
    const frame = /^\s+at (?:.*\()?(\/[^():]*|[A-Za-z]:\\[^():]*):\d+:\d+\)?$/.exec(line);
    if (frame) return frame[1]!;
  }
  return null;
}

/**
 * The route table of the routes module, loaded by `load` (Vite's module runner): the command line's
 * rule (a default or `routes` export; an array of routes is made a table with Vite's base). A module
 * that does not load, or exports no table, is a BAD_OPTION naming the file.
 */
export async function loadTable(
  settings: Settings,
  file: string,
  viteBase: string,
  load: (file: string) => Promise<Record<string, unknown>>,
): Promise<RouteTable<AnyRoute>> {
  let module: Record<string, unknown>;
  try {
    module = await load(file);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    const where = thrownIn(error);
    throw new SnapshotError(
      'BAD_OPTION',
      `crawlableRouter: cannot load the routes module ${settings.routes}: ${message}${where && !message.includes(where) ? ` (thrown in ${where})` : ''}`,
      {
        cause: error,
      },
    );
  }
  let routes: RouteTable<AnyRoute>;
  try {
    ({ routes } = routesOf(module, settings.routes, servedPath(viteBase) ?? undefined));
  } catch (error) {
    throw bad((error as Error).message);
  }
  checkBase(viteBase, routes.base, settings.routes);
  return routes;
}

/** The path Vite serves the app under, from its resolved `base`; null for a relative one (`./`). */
function servedPath(base: string): string | null {
  if (base === '' || base.startsWith('.')) return null;
  // A full URL (a CDN's): the dev server serves the app under its path.
  if (/^(?:[a-z][a-z\d+.-]*:)?\/\//i.test(base)) return new URL(base, 'http://localhost').pathname.replace(/\/?$/, '/');
  return base.replace(/\/?$/, '/');
}

/**
 * Checks that Vite serves the app under the route table's base: Vite's base names where the built
 * page asks for its assets and where the dev server answers, the table's where locations start.
 */
export function checkBase(viteBase: string, tableBase: string, file: string): void {
  const served = servedPath(viteBase);
  if (served === tableBase) return;
  if (served === null)
    throw bad(
      `Vite's base ${JSON.stringify(viteBase)} is relative, and the route table's base is ${JSON.stringify(tableBase)} (${file}): ` +
        `a prerendered page in a folder of its own (books/1/index.html) would ask for its assets under that folder; give Vite the table's base`,
    );
  throw bad(
    `Vite's base ${JSON.stringify(viteBase)} is not the route table's base ${JSON.stringify(tableBase)} (${file}): ` +
      `give both one value, a constant the Vite config and the routes module import`,
  );
}
