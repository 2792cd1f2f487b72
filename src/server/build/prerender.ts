// `prerender`: every location the route table names, rendered ahead of time with bounded
// concurrency and written under `outDir` in the layout `fileStore` reads (files/paths.ts), plus the
// sitemap. Rendering goes through `createSnapshotHandler`, so a prerendered snapshot is byte for
// byte what the handler would serve for that state.
//
// A site too large for one job is split across N jobs with `shard` (shard.ts): each renders the
// states whose location hashes to its slice and writes no sitemap; once their folders are gathered
// into one, `sitemapOnly` writes the sitemap the unsharded run would have written.
//
// Two states whose files would be one on a case-insensitive file system (`/Books/1`, `/books/1`;
// files/collisions.ts) are found before anything is rendered, over every state of the table, so
// that every shard and every platform decides alike: the first in the table's order is written,
// the other fails, never overwriting it. So does a state whose file would stand where the sitemap
// goes (`/sitemap.xml` is the folder `sitemap.xml/`), unless no sitemap is written.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppLocation, UrlMode } from '../../url/location.js';
import type { AnyRoute, RouteTable } from '../../routes/types.js';
import { countOption, optionsOf, SnapshotError } from '../errors.js';
import { findCollisions } from '../files/collisions.js';
import { writeInside } from '../files/folder.js';
import { takesManifestName, writeManifest } from '../files/manifest.js';
import { createSnapshotHandler } from '../handler.js';
import { snapshotPath } from '../files/paths.js';
import { count, createProgress, type ProgressStream } from './progress.js';
import type { SnapshotRenderer } from '../render/render.js';
import { sitemapOfFolder, takesSitemapName, writeSitemap } from './sitemap-files.js';
import { NOT_FOUND_FILE, writeNotFoundPage, type NotFoundPage } from './not-found-page.js';
import { checkShard, inShard, type Shard } from './shard.js';
import { thrownText } from '../printable.js';
import type { CleanUrls } from '../types.js';
import { checkCleanUrls } from '../urls.js';
import { tableStates, unlisted } from './states.js';
import { isNoindex } from '../noindex.js';
import { isPrivate } from '../render/request.js';

/** Why a state whose hooks read `request` is not written. */
const PER_VISITOR =
  'its hooks read request: a page per visitor, which the server renders for each one (a file would serve one page to all)';

/** Options of `prerender`. */
export interface PrerenderOptions {
  /** The route table; every location of `routes.locations({ noindex: true })` is rendered, and those of `noindex` routes left out of the sitemap. Required. */
  routes: RouteTable<AnyRoute>;
  /** The folder snapshots and the sitemap are written to (created if missing). Required. */
  outDir: string;
  /** The site's origin, for canonical links and the sitemap. Required. */
  origin: string;
  /** The app's client mode: `'hashbang'` opens headless pages at `#!` URLs, and names `#!` URLs in canonical links and the sitemap where `cleanUrls` is `'shell'`. Default `'history'`. */
  mode?: UrlMode | undefined;
  /** What the server answers at clean URLs (`createSnapshotHandler`'s option): anything but `'shell'` names clean URLs in canonical links and the sitemap, whatever the mode. Prerendered pages carry no hydration data either way. Default `'bots'`. */
  cleanUrls?: CleanUrls | undefined;
  /** The app's base path; must be the route table's. Default: the route table's base. */
  base?: string | undefined;
  /** Renders states. Default: the routes' hooks into `shell`. */
  renderer?: SnapshotRenderer | undefined;
  /** The app's HTML shell. Default: a minimal page with `<div id="app">`. */
  shell?: string | undefined;
  /** The outlet selector in the shell. Default `'#app'`. */
  outlet?: string | undefined;
  /** Longest render of one state, in ms. Default 10000. */
  timeoutMs?: number | undefined;
  /** States rendered at once. Default 4. */
  concurrency?: number | undefined;
  /** Write `sitemap.xml` (and numbered parts past 50,000 URLs). Default `true`. */
  sitemap?: boolean | undefined;
  /** Write `404.html`, the notFound view that static hosts serve with a 404 for a URL they have no file for (by the first shard only). Default `true`. */
  notFoundPage?: boolean | undefined;
  /** Where progress goes: a bar on a TTY, plain lines otherwise. Default none. */
  progress?: ProgressStream | undefined;
  /** Render only slice `current` of `total` (1-based; a hash of each location picks its slice) and, past one slice, no sitemap. Default: every state. */
  shard?: { current: number; total: number } | undefined;
  /** Render nothing: write the sitemap of every state whose snapshot is in `outDir` (after sharded runs' folders are gathered there). Default `false`. */
  sitemapOnly?: boolean | undefined;
  /** The app's build, written into `outDir` (`.crawlable-router.json`) so that a handler of another build refuses the folder. Default: as `createSnapshotHandler`'s, a hash of the app's page. */
  build?: string | undefined;
}

/** A state that was not written. */
export interface PrerenderFailure {
  /** The location; for a record of `entries()` that names none, the route's path and the params given. */
  location: AppLocation;
  /** Why. */
  error: string;
}

/** A state that redirects: not written (a static host serves no redirect from a file), not in the sitemap. */
export interface PrerenderRedirect {
  /** The location. */
  location: AppLocation;
  /** The redirect's status. */
  status: number;
  /** The target's public URL. */
  to: string;
}

/** What `prerender` did. */
export interface PrerenderReport {
  /** States found. */
  total: number;
  /** Snapshots written. */
  written: number;
  /** States not written. */
  failed: number;
  /** Each failure: a render that failed (500), timed out, or a state that does not exist (404). */
  failures: PrerenderFailure[];
  /** States that redirect, skipped: configure these redirects on the static host. */
  redirects: PrerenderRedirect[];
  /** The paths of routes that have params and no `entries()`: they name no state, so none of theirs is written. */
  unlisted: string[];
  /** Snapshot files written, relative to `outDir`, in location order. */
  files: string[];
  /** Sitemap files written, relative to `outDir`. */
  sitemaps: string[];
  /** `404.html` as written (`file`), or why it was not (`file: null`); null when not asked for (`notFoundPage: false`, a shard past the first, `sitemapOnly`). */
  notFoundPage: NotFoundPage | null;
  /** The build the snapshots belong to, written into `outDir`'s manifest; null for `sitemapOnly`. */
  build: string | null;
  /** Time taken, in ms. */
  durationMs: number;
}

// Every option's name, for the check of misspelt ones (the type keeps the list whole).
const OPTIONS: Record<keyof PrerenderOptions, 1> = {
  routes: 1,
  outDir: 1,
  origin: 1,
  mode: 1,
  cleanUrls: 1,
  base: 1,
  renderer: 1,
  shell: 1,
  outlet: 1,
  timeoutMs: 1,
  concurrency: 1,
  sitemap: 1,
  notFoundPage: 1,
  progress: 1,
  shard: 1,
  sitemapOnly: 1,
  build: 1,
};

/** Renders every location of the route table (or of its shard) to files under `outDir`, plus the sitemap. */
export async function prerender(options: PrerenderOptions): Promise<PrerenderReport> {
  const started = performance.now();
  optionsOf(options, 'prerender', '{ routes, outDir, origin, … }', OPTIONS);
  if (typeof options.outDir !== 'string' || options.outDir === '') throw new SnapshotError('BAD_OPTION', 'outDir must name a folder');
  const outDir = path.resolve(options.outDir);
  const concurrency = countOption(options.concurrency ?? 4, 'concurrency', 1);
  const shard = checkShard(options.shard);
  if (options.sitemapOnly) return sitemapOnly(options, outDir, started);
  const handler = createSnapshotHandler({
    routes: options.routes,
    origin: options.origin,
    mode: options.mode,
    // Which URLs crawlers are told; 'all' would also put each state's data in its file, which no page of a static host reads.
    cleanUrls: checkCleanUrls(options.cleanUrls) === 'shell' ? 'shell' : 'bots',
    base: options.base,
    renderer: options.renderer,
    shell: options.shell,
    outlet: options.outlet,
    timeoutMs: options.timeoutMs,
    ...(options.build !== undefined && { build: options.build }),
    cache: false,
    queue: { concurrency, maxWaiting: Infinity },
    onError: () => {},
  });
  // A folder that cannot be made fails the whole run here, not each state. It says its build first:
  // a handler serving it (fileStore) refuses it unless it serves that build.
  await mkdir(outDir, { recursive: true });
  await writeManifest(outDir, handler.build);
  // A record of entries() that names no location (a slug `..`) fails alone, before any render.
  const faults: PrerenderFailure[] = [];
  // Every state of the table, whichever shard renders it: collisions and the 404 page's name are
  // decided over all of them, alike in every shard.
  // A noindex route's states are pages a visitor reaches: written, and left out of the sitemap.
  const states = await tableStates(options.routes, (location, error) => faults.push({ location, error }), true);
  const locations = [...states].filter((state) => inShard(state, shard));
  const collided = findCollisions(states);
  // Kept from states in every shard, though only an unsharded run writes the sitemap: the sitemap
  // step after the shards writes it where the unsharded run would have.
  const sitemapNamesKept = options.sitemap !== false;
  const progress = createProgress(options.progress, locations.length + faults.length);
  for (const fault of faults) progress.step(fault.location, fault.error);
  const files: (string | null)[] = new Array<string | null>(locations.length).fill(null);
  const failures: (PrerenderFailure & { at: number })[] = [];
  const redirects: (PrerenderRedirect & { at: number })[] = [];
  // States not written that did not fail, by index: why (a redirect's target, a page per visitor).
  const skipped = new Map<number, string>();
  let next = 0;

  async function one(location: AppLocation, at: number): Promise<string | null> {
    const file = snapshotPath(location);
    const collision = collided.get(location);
    if (collision !== undefined) throw new SnapshotError('PATH_COLLISION', collision);
    if (takesManifestName(file))
      throw new SnapshotError(
        'PATH_COLLISION',
        `its file ${JSON.stringify(file)} stands where the folder's build manifest goes: rename the route`,
      );
    if (sitemapNamesKept && takesSitemapName(file))
      throw new SnapshotError(
        'PATH_COLLISION',
        `its file ${JSON.stringify(file)} stands where the sitemap goes: rename the route, or prerender with sitemap: false`,
      );
    const snapshot = await handler.render(location);
    // A page per visitor (its hooks read `request`, here undefined): a file would be the page of
    // nobody, which a handler over the folder (fileStore) serves to every visitor as a public one.
    if (isPrivate(snapshot)) {
      skipped.set(at, PER_VISITOR);
      return null;
    }
    if (snapshot.redirect !== undefined) {
      redirects.push({ location, status: snapshot.status, to: snapshot.redirect, at });
      skipped.set(at, `redirects (${snapshot.status}) to ${snapshot.redirect}`);
      return null;
    }
    if (snapshot.status === 404) throw new Error('status 404: no such state (its load threw notFound(), or no route matches)');
    if (snapshot.status !== 200) throw new Error(`status ${snapshot.status}`);
    await writeInside(outDir, file, snapshot.html);
    return file;
  }

  async function worker(): Promise<void> {
    while (next < locations.length) {
      const i = next++;
      const location = locations[i] as AppLocation;
      try {
        files[i] = await one(location, i);
        progress.step(location, undefined, skipped.get(i));
      } catch (error) {
        const message = thrownText(error);
        failures.push({ location, error: message, at: i });
        progress.step(location, message);
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, locations.length)) }, worker));
  const written = locations.filter((_, i) => files[i] !== null);
  const listed = written.filter((location) => !isNoindex(options.routes, location));
  const sitemaps = options.sitemap !== false && shard.total === 1 ? await writeSitemap(options, outDir, listed) : [];
  const notFoundPage =
    options.notFoundPage !== false && shard.current === 1 ? await writeNotFoundPage(handler.render, outDir, states) : null;
  const report: PrerenderReport = {
    total: locations.length + faults.length,
    written: written.length,
    failed: failures.length + faults.length,
    failures: [...faults, ...failures.sort((a, b) => a.at - b.at).map(({ location, error }) => ({ location, error }))],
    redirects: redirects.sort((a, b) => a.at - b.at).map(({ location, status, to }) => ({ location, status, to })),
    unlisted: await unlisted(options.routes),
    files: files.filter((f): f is string => f !== null),
    sitemaps,
    notFoundPage,
    build: handler.build,
    durationMs: Math.round(performance.now() - started),
  };
  progress.end(summary(report, shard));
  return report;
}

/** The run's last line on the progress stream: what was written, skipped and failed, and what to do next. */
function summary(report: PrerenderReport, shard: Shard): string {
  const slice =
    shard.total > 1
      ? ` (shard ${shard.current}/${shard.total}; no sitemap: once the shards are together, write it with the sitemap command or sitemapOnly)`
      : '';
  return (
    `prerendered ${report.written} of ${count(report.total, 'state')} in ${report.durationMs} ms` +
    (report.redirects.length ? `; ${count(report.redirects.length, 'redirect')} skipped` : '') +
    (report.failed ? `; ${report.failed} failed` : '') +
    (report.notFoundPage?.file === null ? `; no ${NOT_FOUND_FILE}: ${report.notFoundPage.why}` : '') +
    (report.unlisted.length
      ? `; ${count(report.unlisted.length, 'route')} with params and no entries() named no state: ${report.unlisted.join(', ')}`
      : '') +
    slice
  );
}

/** The sitemap step after sharded runs (sitemapOfFolder), as a report. */
async function sitemapOnly(options: PrerenderOptions, outDir: string, started: number): Promise<PrerenderReport> {
  const { total, listed, sitemaps } = await sitemapOfFolder(options, outDir);
  createProgress(options.progress, 0).end(
    `wrote the sitemap of ${listed} of ${count(total, 'state')} (those with a snapshot in ${outDir})`,
  );
  return {
    total,
    written: 0,
    failed: 0,
    failures: [],
    redirects: [],
    unlisted: [],
    files: [],
    sitemaps,
    notFoundPage: null,
    build: null,
    durationMs: Math.round(performance.now() - started),
  };
}
