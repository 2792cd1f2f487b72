// The sitemap files `prerender` writes into its `outDir`: after a run, of the states it wrote; after
// sharded runs' folders are gathered into one (`sitemapOnly`), of the states whose snapshot is there.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppLocation, UrlMode } from '../../url/location.js';
import type { AnyRoute, RouteTable } from '../../routes/types.js';
import type { CleanUrls } from '../types.js';
import { SnapshotError } from '../errors.js';
import { findCollisions } from '../files/collisions.js';
import { fileInside, writeInside } from '../files/folder.js';
import { snapshotPath } from '../files/paths.js';
import { isSitemapName, sitemap } from './sitemap.js';
import { tableStates } from './states.js';
import { isNoindex } from '../noindex.js';

/** What the sitemap's URLs are made of. */
export interface SitemapSite {
  routes: RouteTable<AnyRoute>;
  origin: string;
  mode?: UrlMode;
  cleanUrls?: CleanUrls;
}

/** Whether a snapshot's file (`sitemap.xml/index.html`) starts with a name the sitemap may take. */
export const takesSitemapName = (file: string): boolean => isSitemapName(file.split('/', 1)[0] as string);

/** Whether `file` is there and a folder (or, with `file`, a file). */
const isThere = (file: string, kind: 'folder' | 'file' = 'folder'): Promise<boolean> =>
  stat(file).then(
    (s) => (kind === 'file' ? s.isFile() : s.isDirectory()),
    () => false,
  );

/** Writes the sitemap of `locations` into `outDir`: the names of its files. */
export async function writeSitemap(site: SitemapSite, outDir: string, locations: AppLocation[]): Promise<string[]> {
  const parts = await sitemap(locations, { origin: site.origin, base: site.routes.base, mode: site.mode, cleanUrls: site.cleanUrls });
  for (const part of parts) {
    // A folder of that name (a state's snapshot left by an older version, or by a run with no sitemap) is not replaced.
    if (await isThere(path.join(outDir, part.name)))
      throw new SnapshotError(
        'PATH_COLLISION',
        `${part.name} is a folder in ${outDir}, where the sitemap goes: remove it, or use sitemap: false`,
      );
    await writeInside(outDir, part.name, part.xml);
  }
  return parts.map((part) => part.name);
}

/**
 * The sitemap step after sharded runs: the states of the table, in its order, whose snapshot is in
 * `outDir`, but those of `noindex` routes. Gives the number of states of the table, those listed, and the sitemap's files.
 */
export async function sitemapOfFolder(site: SitemapSite, outDir: string): Promise<{ total: number; listed: number; sitemaps: string[] }> {
  // A mistyped folder would otherwise get an empty sitemap, and the site's real one would never be written.
  if (!(await isThere(outDir)))
    throw new SnapshotError(
      'BAD_OPTION',
      `outDir ${outDir} is not a folder: sitemapOnly (the sitemap command) lists the snapshots prerender wrote there; sitemap() writes one from locations alone`,
    );
  const listed: AppLocation[] = [];
  // Every state, noindex ones too, as prerender decided collisions over them; those are never listed.
  const seen = await tableStates(site.routes, undefined, true);
  const collided = findCollisions(seen);
  for (const state of seen) {
    if (collided.has(state) || isNoindex(site.routes, state)) continue;
    let file: string | null;
    try {
      const relative = snapshotPath(state);
      if (takesSitemapName(relative)) continue;
      file = await fileInside(outDir, relative);
    } catch {
      continue;
    }
    if (file !== null && (await isThere(file, 'file'))) listed.push(state);
  }
  return { total: seen.size, listed: listed.length, sitemaps: await writeSitemap(site, outDir, listed) };
}
