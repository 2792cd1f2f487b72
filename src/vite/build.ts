// `vite build`, once the client's bundle is written: every listed state prerendered into the build's
// folder with the built index.html (its hashed assets) as the shell, by the server's `prerender`
// (its files, sitemap.xml, 404.html, and `.crawlable-router.json` naming the build: a hash of the
// shell); robots.txt; a progress line per hundred states and the summary on Vite's logger. The
// built shell is kept as `.crawlable-router.shell.html`, since the home page's snapshot takes the
// place of index.html: `vite preview`, or a server, gives it to a handler of the same build.

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'vite';
import type { AnyRoute, RouteTable } from '../index.js';
import { prerender, robotsTxt, sitemap, type PrerenderReport, type ProgressStream, type SnapshotRenderer } from '../server/index.js';
import { SHELL_FILE } from '../server/files/manifest.js';
import type { Settings } from './options.js';
import { namingTheOutlet } from './views.js';

/** The failures listed in a build's error, the rest counted. */
const LISTED = 20;

/**
 * The progress `prerender` writes as plain lines (one per state), cut to a line per hundred states,
 * each failure and skipped redirect, and the summary, on Vite's logger.
 */
function progressOn(logger: Logger): ProgressStream {
  return {
    write(text: string) {
      for (const line of text.split('\n')) {
        if (line === '') continue;
        const step = /^\[\s*(\d+)\/\d+\] (ok|FAILED|SKIPPED) /.exec(line);
        if (step === null) logger.info(`crawlable-router: ${line}`);
        else if (step[2] === 'FAILED') logger.warn(`crawlable-router: ${line}`);
        else if (step[2] === 'SKIPPED' || Number(step[1]) % 100 === 0) logger.info(`crawlable-router: ${line}`);
      }
    },
  };
}

/** What a build's error says of its failed states: each location and error, the first 20. */
export function failureText(report: PrerenderReport): string {
  const lines = report.failures.slice(0, LISTED).map((f) => `  ${f.location}: ${f.error}`);
  if (report.failures.length > LISTED) lines.push(`  … and ${report.failures.length - LISTED} more`);
  return `${report.failed} of ${report.total} states failed to prerender:\n${lines.join('\n')}`;
}

/** The build step: what it wrote, and the failures' text when states failed (null when none did). */
export async function buildStep(
  settings: Settings,
  { routes, renderer }: { routes: RouteTable<AnyRoute>; renderer: SnapshotRenderer | undefined },
  outDir: string,
  shell: string,
  logger: Logger,
): Promise<{ report: PrerenderReport | null; failures: string | null }> {
  const base = routes.base;
  let report: PrerenderReport | null = null;
  const step = settings.prerender;
  if (step !== false) {
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, SHELL_FILE), shell);
    report = await namingTheOutlet(settings, 'index.html', () =>
      prerender({
        routes,
        ...(renderer && { renderer }),
        outDir,
        origin: settings.origin,
        cleanUrls: settings.cleanUrls,
        shell,
        ...(settings.outlet !== undefined && { outlet: settings.outlet }),
        ...(step.concurrency !== undefined && { concurrency: step.concurrency }),
        ...(step.timeoutMs !== undefined && { timeoutMs: step.timeoutMs }),
        sitemap: settings.sitemap,
        progress: progressOn(logger),
      }),
    );
    if (report.notFoundPage?.file === null) logger.warn(`crawlable-router: no 404.html: ${report.notFoundPage.why}`);
  } else if (settings.sitemap) {
    // Nothing prerendered: the sitemap lists every state the table names, which a server renders.
    for (const { name, xml } of await sitemap(routes.locations(), {
      origin: settings.origin,
      base,
      cleanUrls: settings.cleanUrls,
      baseUrl: settings.origin + base,
    }))
      await writeFile(path.join(outDir, name), xml);
  }
  if (settings.robots !== false) {
    const file = path.join(outDir, 'robots.txt');
    // One of the app's own (Vite copies public/ into the folder) is the app's word.
    if (existsSync(file)) logger.info(`crawlable-router: robots.txt kept as the app's public folder gave it`);
    else
      await writeFile(
        file,
        // The app's `sitemaps` replace the build's own; left out, or given as undefined, they do not.
        robotsTxt({
          ...settings.robots,
          sitemaps: settings.robots.sitemaps ?? (settings.sitemap ? [`${settings.origin}${base}sitemap.xml`] : []),
          base,
        }),
      );
  }
  return { report, failures: report !== null && report.failed > 0 ? failureText(report) : null };
}
