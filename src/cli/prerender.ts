// The `prerender` and `sitemap` commands: every state of a route table written to files, and the
// sitemap of a folder gathered from sharded runs.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { UrlMode } from '../index.js';
import { headlessRenderer, prerender, SnapshotError } from '../server/index.js';
import type { CleanUrls } from '../server/types.js';
import { checkCleanUrls, checkMode, checkOrigin } from '../server/urls.js';
import { EXIT, integer, jsonReport, readArgs, SetupError, UsageError, type CliIo } from './common.js';
import { loadRoutes } from './routes-module.js';

export const PRERENDER_USAGE = `Usage: crawlable-router prerender --routes FILE --out DIR --origin URL [options]

Renders every location of the route table to DIR (one index.html per state) and writes
DIR/sitemap.xml and DIR/404.html.

Required:
  --routes FILE        a JavaScript module (.js, .mjs, .cjs) whose default or \`routes\` export is a
                       route table (createRoutes) or an array of routes; it may also export
                       \`shell\` (the app's HTML) and \`notFound\`
  --out DIR            the folder to write (created if missing)
  --origin URL         the site's origin for canonical links and the sitemap: https://example.com

Options:
  --mode MODE          the app's client mode: history or hashbang              [default: history]
  --clean-urls WHAT    what the server answers at clean URLs: bots, all or shell; any but shell
                       names clean URLs in canonical links and the sitemap, whatever the mode
                                                                                [default: bots]
  --base PATH          the app's base path; must be the table's        [default: the table's]
  --concurrency N      states rendered at once                                  [default: 4]
  --timeout MS         longest render of one state                          [default: 10000]
  --shell FILE         the app's HTML shell              [default: the module's \`shell\` export]
  --outlet SELECTOR    the shell element the state is rendered into          [default: #app]
  --headless DIR       render the real app from DIR in happy-dom instead of the render hooks
  --isolate            accepted with --headless, and changes nothing: every page has a page
                       process of its own, so a script that never yields fails only its state
  --upstream URL       with --headless, the origin that answers the page's API requests (GET
                       and HEAD) for what DIR has no file for; without it they get 404
  --no-sitemap         do not write sitemap.xml
  --no-404             do not write 404.html (the notFound view, which static hosts serve with
                       a 404 for a URL they have no file for)
  --shard K/N          render only slice K of N (a hash of each location picks its slice; no
                       sitemap): N jobs render a site together, then gather their folders into
                       one and run 'crawlable-router sitemap' there
  --json               print the report as JSON on stdout
  -h, --help           show this help

The states are the locations the routes name: a route with no params names its one location, a
route with params those its entries() lists; one with params and no entries() names none, and the
summary names it.

A state whose load throws notFound() (404) or fails (500, or the app's error view when headless)
is FAILED, and so is one whose file differs only in case from an earlier state's (/Books/1 after
/books/1: one file on macOS and Windows); one that redirects is SKIPPED (no file, not in the
sitemap; the report lists it).

Exit codes: 0 all states written or skipped as redirects, 1 some states failed, 2 bad arguments,
3 could not start (routes module, shell, app folder or output folder unusable), 4 unexpected error.`;

function parseShard(value: string | undefined): { current: number; total: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2]))
    throw new UsageError(`--shard must be K/N with 1 <= K <= N, such as 2/4; got ${JSON.stringify(value)}`);
  return { current: Number(match[1]), total: Number(match[2]) };
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new SetupError(`cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** A file system error of the output folder as a SetupError (exit 3); anything else as it is. */
function writeFailure(error: unknown, out: string | undefined): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code && typeof syscall === 'string' ? new SetupError(`cannot write ${out}: ${(error as Error).message}`) : error;
}

/** The arguments prerender and sitemap share, checked, and the routes module loaded. */
async function prerenderSetup(
  values: { routes?: string; out?: string; origin?: string; mode?: string; 'clean-urls'?: string; base?: string },
  io: CliIo,
) {
  for (const name of ['routes', 'out', 'origin'] as const) if (!values[name]) throw new UsageError(`--${name} is required`);
  // The server's own checks, as usage errors: a bad value is told before anything loads.
  let mode: UrlMode;
  let cleanUrls: CleanUrls;
  try {
    mode = checkMode(values.mode, '--mode');
    cleanUrls = checkCleanUrls(values['clean-urls'], '--clean-urls');
    checkOrigin(values.origin, '--origin');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { mode, cleanUrls, ...(await loadRoutes(path.resolve(io.cwd, values.routes as string), values.base)) };
}

// The options prerender and sitemap share: which table, where, and in which URL form.
const TABLE_OPTIONS = {
  routes: { type: 'string' },
  out: { type: 'string' },
  origin: { type: 'string' },
  mode: { type: 'string' },
  'clean-urls': { type: 'string' },
  base: { type: 'string' },
} as const;

/** `crawlable-router prerender`. */
export async function runPrerender(args: string[], io: CliIo): Promise<number> {
  const parsed = readArgs(
    args,
    {
      ...TABLE_OPTIONS,
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      shell: { type: 'string' },
      outlet: { type: 'string' },
      headless: { type: 'string' },
      isolate: { type: 'boolean' },
      upstream: { type: 'string' },
      'no-sitemap': { type: 'boolean' },
      'no-404': { type: 'boolean' },
      shard: { type: 'string' },
      json: { type: 'boolean' },
    },
    PRERENDER_USAGE,
    io,
  );
  if (!parsed) return EXIT.OK;
  const { values } = parsed;
  const shard = parseShard(values.shard);
  const concurrency = integer(values.concurrency, 'concurrency', 4);
  const timeoutMs = integer(values.timeout, 'timeout', 10_000);
  const resolve = (file: string) => path.resolve(io.cwd, file);
  const { mode, cleanUrls, ...loaded } = await prerenderSetup(values, io);
  const shell = values.shell !== undefined ? readText(resolve(values.shell), 'shell') : loaded.shell;
  for (const option of ['isolate', 'upstream'] as const)
    if (values[option] !== undefined && values.headless === undefined) throw new UsageError(`--${option} needs --headless`);
  let renderer;
  try {
    renderer =
      values.headless === undefined
        ? undefined
        : headlessRenderer({
            root: resolve(values.headless),
            timeoutMs,
            isolate: Boolean(values.isolate),
            ...(values.upstream !== undefined && { upstream: values.upstream }),
          });
  } catch (error) {
    throw new SetupError((error as Error).message);
  }
  try {
    const report = await prerender({
      routes: loaded.routes,
      outDir: resolve(values.out as string),
      origin: values.origin as string,
      mode,
      cleanUrls,
      ...(values.base !== undefined && { base: values.base }),
      ...(renderer && { renderer }),
      ...(shell !== undefined && { shell }),
      ...(values.outlet !== undefined && { outlet: values.outlet }),
      timeoutMs,
      concurrency,
      sitemap: !values['no-sitemap'],
      notFoundPage: !values['no-404'],
      ...(shard && { shard }),
      progress: io.stderr,
    });
    if (values.json) io.stdout.write(jsonReport(report) + '\n');
    // A client-only app run headless fails every state that reads its API when no upstream is given
    // (each request the folder cannot answer is a 404), and what the page then says names no cause.
    if (report.failed > 0 && values.headless !== undefined && values.upstream === undefined)
      io.stderr.write(
        `with --headless and no --upstream, the page's requests for what ${values.headless} does not hold (its API) are answered 404: pass --upstream URL, the origin of the app's API\n`,
      );
    return report.failed > 0 ? EXIT.FAILURES : EXIT.OK;
  } catch (error) {
    if (error instanceof SnapshotError && (error.code === 'BAD_OPTION' || error.code === 'BAD_SHELL')) throw new SetupError(error.message);
    throw writeFailure(error, values.out);
  } finally {
    await renderer?.close();
  }
}

export const SITEMAP_USAGE = `Usage: crawlable-router sitemap --routes FILE --out DIR --origin URL [options]

Writes DIR/sitemap.xml listing, in the route table's order, every state whose snapshot is in DIR:
the step after 'prerender --shard K/N' jobs whose folders were gathered into DIR. The files are
those one unsharded prerender would have written.

Required:
  --routes FILE        the routes module given to prerender
  --out DIR            the folder holding every shard's snapshots
  --origin URL         the site's origin: https://example.com

Options:
  --mode MODE          the app's client mode: history or hashbang              [default: history]
  --clean-urls WHAT    what the server answers at clean URLs: bots, all or shell; any but shell
                       names clean URLs in canonical links and the sitemap, whatever the mode
                                                                                [default: bots]
  --base PATH          the app's base path; must be the table's        [default: the table's]
  -h, --help           show this help

Exit codes: 0 written, 2 bad arguments, 3 could not start, 4 unexpected error.`;

/** `crawlable-router sitemap`. */
export async function runSitemap(args: string[], io: CliIo): Promise<number> {
  const parsed = readArgs(args, TABLE_OPTIONS, SITEMAP_USAGE, io);
  if (!parsed) return EXIT.OK;
  const { values } = parsed;
  const { routes, mode, cleanUrls } = await prerenderSetup(values, io);
  try {
    await prerender({
      routes,
      outDir: path.resolve(io.cwd, values.out as string),
      origin: values.origin as string,
      mode,
      cleanUrls,
      ...(values.base !== undefined && { base: values.base }),
      sitemapOnly: true,
      progress: io.stderr,
    });
    return EXIT.OK;
  } catch (error) {
    // The folder of gathered snapshots is missing: nothing to list, so the command cannot start.
    if (error instanceof SnapshotError && error.code === 'BAD_OPTION') throw new SetupError(error.message);
    throw writeFailure(error, values.out);
  }
}
