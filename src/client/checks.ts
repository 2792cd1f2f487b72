// Development checks of what an app hands the router: options a new user gets wrong and a
// `navigate` target that is no location. The router calls them behind `DEV` only, so a production
// build carries none of this file (0 B); there a wrong option fails where it is first used.

import { misspeltOption } from '../contract/option-names.js';
import type { RouterOptions } from './types.js';

const MODES = [undefined, 'auto', 'history', 'hashbang'];
// Every option's name, for the check of misspelt ones (the type keeps the list whole).
const OPTIONS: Record<keyof RouterOptions, 1> = {
  routes: 1,
  mode: 1,
  base: 1,
  outlet: 1,
  links: 1,
  scroll: 1,
  error: 1,
  window: 1,
  history: 1,
  onError: 1,
};

/** Throws a TypeError naming the first option of `createRouter` that cannot work. Internal. */
export function checkOptions(options: RouterOptions): void {
  const routes: unknown = options.routes;
  if (typeof (routes as { resolve?: unknown } | undefined)?.resolve !== 'function')
    throw new TypeError(
      `createRouter: routes must be the table createRoutes() makes, got ${Array.isArray(routes) ? 'an array: pass createRoutes([...])' : String(routes)}`,
    );
  if (!MODES.includes(options.mode))
    throw new TypeError(`createRouter: mode must be "auto", "history" or "hashbang", got ${JSON.stringify(options.mode)}`);
  const slip = misspeltOption(options, OPTIONS);
  if (slip) throw new TypeError(`createRouter: ${slip}`);
}

/**
 * Throws a TypeError when `navigate` (or `href`) is given no string, and warns when the string is
 * an absolute URL: a location is read inside the app, so `https://example.com/books/1` is the path
 * `/https:/example.com/books/1`, as a redirect target is, never another page. Internal.
 */
export function checkTarget(to: unknown, method: 'navigate' | 'href'): void {
  if (typeof to !== 'string')
    throw new TypeError(`${method}: the target must be a location such as "/books/1", got ${to === null ? 'null' : typeof to}`);
  if (/^([a-z][a-z\d+.-]*:|[/\\]{2})/i.test(to))
    console.warn(
      `${method}(${JSON.stringify(to)}): a location is a path in the app, such as "/books/1", so this URL is read as a path of that name; toLocation(url) gives the location of a URL of this app`,
    );
}
