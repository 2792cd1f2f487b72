// Which requests inside `base` ask for an asset (a script, a style sheet, an image, a font, a
// file) rather than a page: those are never answered with the shell or a snapshot, so that a stale
// tab's request for a chunk gone since the last deploy (`/assets/index-3f9a.js`, matched by a route
// `/:company/:slug`) reaches the next handler and its 404, not an HTML page with a 200 (a MIME
// error in the browser). Two signs, either enough: the browser's `Sec-Fetch-Dest`, and a last path
// segment ending in an asset's file extension that no route's pattern ends with for that state.

import type { AnyRoute, RouteTable } from '../../routes/types.js';

/**
 * The file extensions that name an asset, lower case. A list, not any `.xyz`: a route such as
 * `/users/:name` matches `/users/john.smith` and `/books/v1.2`, which are pages.
 */
export const ASSET_EXTENSIONS: ReadonlySet<string> = new Set([
  // Scripts, style sheets and what they load.
  ...['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'css', 'map', 'wasm'],
  // Images and icons.
  ...['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'apng', 'svg', 'ico', 'bmp', 'tif', 'tiff'],
  // Fonts.
  ...['woff', 'woff2', 'ttf', 'otf', 'eot'],
  // Data and text files.
  ...['json', 'webmanifest', 'xml', 'rss', 'atom', 'txt', 'csv'],
  // Audio and video.
  ...['mp3', 'mp4', 'm4a', 'webm', 'ogg', 'wav', 'mov'],
  // Documents and archives.
  ...['pdf', 'zip', 'gz', 'tgz', 'br'],
]);

// The last path segment's extension: a dot, then letters and digits to the end of the path.
const EXTENSION = /\.([a-z0-9]+)$/i;

/**
 * True for a `Sec-Fetch-Dest` that is no page: anything but `document`, `iframe` or `empty` (fetch
 * and XMLHttpRequest); no header (an older browser, a crawler) says nothing.
 */
export function isAssetDest(dest: string | null): boolean {
  return dest !== null && dest !== 'document' && dest !== 'iframe' && dest !== 'empty';
}

/**
 * The test of a location's path (relative to base, canonical, no query) for an asset's extension,
 * made once per route table: a path whose last segment ends in one is an asset unless the route
 * that matches it has a pattern ending with that literal (`/feed.xml`, `/data/:id.json`).
 */
export function assetPathTest(routes: Pick<RouteTable, 'routes' | 'match'>): (path: string) => boolean {
  // The routes whose pattern ends with each asset extension: the only ones that may answer one.
  const literal = new Map<string, Set<AnyRoute>>();
  for (const route of routes.routes) {
    const ext = EXTENSION.exec(route.path ?? '')?.[1]?.toLowerCase();
    if (ext === undefined || !ASSET_EXTENSIONS.has(ext)) continue;
    const owners = literal.get(ext) ?? new Set<AnyRoute>();
    literal.set(ext, owners.add(route));
  }
  return (path) => {
    const ext = EXTENSION.exec(path)?.[1]?.toLowerCase();
    if (ext === undefined || !ASSET_EXTENSIONS.has(ext)) return false;
    const owners = literal.get(ext);
    // Matched only where a route could claim it: most assets cost no match at all.
    const match = owners && routes.match(path);
    return !(match && owners.has(match.route));
  };
}
