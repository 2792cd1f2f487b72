// `prerender`: every location the route table names, rendered ahead of time with bounded
// concurrency and written under `outDir` in the layout `fileStore` reads (paths.ts), plus the
// sitemap. Rendering goes through `createSnapshotHandler`, so a prerendered snapshot is byte for
// byte what the handler would serve for that state.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppLocation, UrlMode } from '../location.js';
import type { AnyRoute, RouteTable } from '../routes.js';
import { SnapshotError } from './errors.js';
import { writeFileAtomic } from './file-store.js';
import { createSnapshotHandler } from './handler.js';
import { resolveInside, snapshotPath } from './paths.js';
import { count, createProgress, type ProgressStream } from './progress.js';
import type { SnapshotRenderer } from './render.js';
import { sitemap } from './sitemap.js';
import { stripAnchor } from './urls.js';

/** Options of `prerender`. */
export interface PrerenderOptions {
  /** The route table; every location of `routes.locations()` is rendered. Required. */
  routes: RouteTable<AnyRoute>;
  /** The folder snapshots and the sitemap are written to (created if missing). Required. */
  outDir: string;
  /** The site's origin, for canonical links and the sitemap. Required. */
  origin: string;
  /** `'hashbang'` or `'history'`: which URL canonical links and the sitemap carry. Default `'history'`. */
  mode?: UrlMode;
  /** The app's base path; must be the route table's. Default: the route table's base. */
  base?: string;
  /** Renders states. Default: the routes' hooks into `shell`. */
  renderer?: SnapshotRenderer;
  /** The app's HTML shell. Default: a minimal page with `<div id="app">`. */
  shell?: string;
  /** The outlet selector in the shell. Default `'#app'`. */
  outlet?: string;
  /** Longest render of one state, in ms. Default 10000. */
  timeoutMs?: number;
  /** States rendered at once. Default 4. */
  concurrency?: number;
  /** Write `sitemap.xml` (and numbered parts past 50,000 URLs). Default `true`. */
  sitemap?: boolean;
  /** Where progress goes: a bar on a TTY, plain lines otherwise. Default none. */
  progress?: ProgressStream;
}

/** A state that was not written. */
export interface PrerenderFailure {
  /** The location. */
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
  /** Snapshot files written, relative to `outDir`, in location order. */
  files: string[];
  /** Sitemap files written, relative to `outDir`. */
  sitemaps: string[];
  /** Time taken, in ms. */
  durationMs: number;
}

/** Renders every location of the route table to files under `outDir`, plus the sitemap. */
export async function prerender(options: PrerenderOptions): Promise<PrerenderReport> {
  const started = performance.now();
  if (typeof options.outDir !== 'string' || options.outDir === '') throw new SnapshotError('BAD_OPTION', 'outDir must name a folder');
  const outDir = path.resolve(options.outDir);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new SnapshotError('BAD_OPTION', `concurrency must be an integer of at least 1, got ${String(concurrency)}`);
  const handler = createSnapshotHandler({
    routes: options.routes,
    origin: options.origin,
    mode: options.mode,
    base: options.base,
    renderer: options.renderer,
    shell: options.shell,
    outlet: options.outlet,
    timeoutMs: options.timeoutMs,
    cache: false,
    queue: { concurrency, maxWaiting: Infinity },
    onError: () => {},
  });
  // A folder that cannot be made fails the whole run here, not each state.
  await mkdir(outDir, { recursive: true });
  const locations: AppLocation[] = [];
  const seen = new Set<AppLocation>();
  for await (const location of options.routes.locations()) {
    const state = stripAnchor(location);
    if (seen.has(state)) continue;
    seen.add(state);
    locations.push(state);
  }
  const progress = createProgress(options.progress, locations.length);
  const files: (string | null)[] = new Array<string | null>(locations.length).fill(null);
  const failures: (PrerenderFailure & { at: number })[] = [];
  const redirects: (PrerenderRedirect & { at: number })[] = [];
  let next = 0;

  async function one(location: AppLocation, at: number): Promise<string | null> {
    const file = snapshotPath(location);
    const snapshot = await handler.render(location);
    if (snapshot.redirect !== undefined) {
      redirects.push({ location, status: snapshot.status, to: snapshot.redirect, at });
      return null;
    }
    if (snapshot.status === 404) throw new Error('status 404: no such state (its load threw notFound(), or no route matches)');
    if (snapshot.status !== 200) throw new Error(`status ${snapshot.status}`);
    await writeFileAtomic(resolveInside(outDir, file), snapshot.html);
    return file;
  }

  async function worker(): Promise<void> {
    while (next < locations.length) {
      const i = next++;
      const location = locations[i] as AppLocation;
      try {
        files[i] = await one(location, i);
        const moved = files[i] === null ? redirects.find((r) => r.at === i) : undefined;
        progress.step(location, undefined, moved && `redirects (${moved.status}) to ${moved.to}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ location, error: message, at: i });
        progress.step(location, message);
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, locations.length)) }, worker));
  const written = locations.filter((_, i) => files[i] !== null);
  const sitemaps: string[] = [];
  if (options.sitemap !== false) {
    const parts = await sitemap(written, { origin: options.origin, base: options.routes.base, mode: options.mode });
    for (const part of parts) {
      await writeFileAtomic(resolveInside(outDir, part.name), part.xml);
      sitemaps.push(part.name);
    }
  }
  const report: PrerenderReport = {
    total: locations.length,
    written: written.length,
    failed: failures.length,
    failures: failures.sort((a, b) => a.at - b.at).map(({ location, error }) => ({ location, error })),
    redirects: redirects.sort((a, b) => a.at - b.at).map(({ location, status, to }) => ({ location, status, to })),
    files: files.filter((f): f is string => f !== null),
    sitemaps,
    durationMs: Math.round(performance.now() - started),
  };
  progress.end(
    `prerendered ${report.written} of ${count(report.total, 'state')} in ${report.durationMs} ms` +
      (redirects.length ? `; ${count(redirects.length, 'redirect')} skipped` : '') +
      (report.failed ? `; ${report.failed} failed` : ''),
  );
  return report;
}
