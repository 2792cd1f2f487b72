// `headlessRenderer`: the real app, run in happy-dom (an optional peer dependency, loaded by the
// page processes only) at the state's URL, one page per snapshot, at most `maxPages` at once. The
// pages run in child processes that cannot reach the server's process, its files or the network
// (headless/pool.ts, headless/child.ts); each request a page makes is answered here, from the
// app's folder, the state's shell or the upstream, and every other request is a network error
// (headless/gate.ts). See SECURITY.md, "The headless boundary".

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openAppFolder, type AppFolder } from './app-files.js';
import { countOption, optionsOf, positiveOption, SnapshotError } from '../errors.js';
import { pagePool, SPARES, type HeadlessRenderer } from './pool.js';
import { buildOf } from '../build-id.js';
import { SHELL_FILE } from '../files/manifest.js';
import { checkOrigin } from '../urls.js';
import { MAX_FRAME, MAX_SNAPSHOT_BYTES, NO_HAPPY_DOM } from './protocol.js';

/** The least `memoryLimitMb`: a page process holds about 100 MB once happy-dom is loaded. */
const MIN_MEMORY_MB = 128;
/** The resident memory a page process may reach when `memoryLimitMb` is not given. */
const DEFAULT_MEMORY_MB = 512;

export type { HeadlessRenderer } from './pool.js';

/** Options of `headlessRenderer`. */
export interface HeadlessRendererOptions {
  /** The app's built folder (its index.html, scripts, styles, data), served at `base` on the app's origin. Required. */
  root: string;
  /** The shell file in `root`, served at every state's URL. Default `'index.html'`, or the shell `vite build` kept (`.crawlable-router.shell.html`) in a folder it prerendered into, whose index.html is the home page's snapshot. */
  index?: string | undefined;
  /** Longest wait for a page to load and settle, in ms; then the page is closed and the render fails with TIMEOUT. Default 10000. */
  timeoutMs?: number | undefined;
  /** Pages open at once; more renders wait. Default 4. */
  maxPages?: number | undefined;
  /** Page processes started ahead of renders, so a render need not wait for one (each holds happy-dom, about 100 MB): one, or up to this many while renders overlap; 0 starts each with its render. Default 2. */
  spares?: number | undefined;
  /** An origin (`http://127.0.0.1:3000`) that answers the page's same-origin requests naming no file (its API). Default none: 404. */
  upstream?: string | undefined;
  /** The methods of the page's requests sent to `upstream`; any other is answered 405 without reaching it. Default `['GET', 'HEAD']`: a render reads the API, never writes to it. */
  upstreamMethods?: readonly string[] | undefined;
  /** What an uncaught error in the page's scripts does when no router then says the page settled: `'fail'` the render (500, not cached) or `'ignore'` it and snapshot the page as it stands. Default `'fail'`. */
  pageErrors?: 'fail' | 'ignore' | undefined;
  /** Kept for the renderers of earlier versions: every page now runs in a page process of its own, which ends with its render. */
  isolate?: boolean | undefined;
  /** The resident memory a page process may reach, in MB, watched from outside the process where the OS shows it (Linux), and its heap limit when given; past it the process is killed and its render fails with RENDER_FAILED. At least 128. Default 512 (and Node's own heap limit). */
  memoryLimitMb?: number | undefined;
  /** The longest snapshot a page may give, and the longest request body it may send, in bytes; a page process that sends more is killed, and its render fails (500). Default 5 MiB. */
  maxSnapshotBytes?: number | undefined;
}

// Every option's name, for the check of misspelt ones (the type keeps the list whole).
const OPTIONS: Record<keyof HeadlessRendererOptions, 1> = {
  root: 1,
  index: 1,
  timeoutMs: 1,
  maxPages: 1,
  spares: 1,
  upstream: 1,
  upstreamMethods: 1,
  pageErrors: 1,
  isolate: 1,
  memoryLimitMb: 1,
  maxSnapshotBytes: 1,
};

/** Creates a renderer that loads the app itself in happy-dom and serialises the settled page. */
export function headlessRenderer(options: HeadlessRendererOptions): HeadlessRenderer {
  optionsOf(options, 'headlessRenderer', '{ root, … }', OPTIONS);
  // The page processes load happy-dom from beside this file: where it is not installed, say so now,
  // not as every render's failure (and `prerender --headless` exits 3, could not start, not 1).
  try {
    createRequire(import.meta.url).resolve('happy-dom');
  } catch (error) {
    throw new SnapshotError('BAD_OPTION', NO_HAPPY_DOM, {
      cause: error,
    });
  }
  let folder: AppFolder;
  try {
    folder = openAppFolder(options.root);
  } catch (error) {
    throw new SnapshotError('BAD_OPTION', `root must be the app's folder; ${JSON.stringify(options.root)} is not a readable directory`, {
      cause: error,
    });
  }
  const timeoutMs = positiveOption(options.timeoutMs, 10_000, 'timeoutMs', 'a number of milliseconds');
  const upstream = options.upstream === undefined ? null : checkOrigin(options.upstream, 'upstream');
  const upstreamMethods = methods(options.upstreamMethods, upstream);
  const maxPages = countOption(options.maxPages ?? 4, 'maxPages', 1);
  const spares = countOption(options.spares ?? SPARES, 'spares', 0);
  const pageErrors = options.pageErrors ?? 'fail';
  if (pageErrors !== 'fail' && pageErrors !== 'ignore')
    throw new SnapshotError('BAD_OPTION', `pageErrors must be 'fail' or 'ignore', got ${JSON.stringify(pageErrors)}`);
  const pathOf = (name: string) => '/' + name.split('/').map(encodeURIComponent).join('/');
  // A folder `vite build` prerendered into holds the home page's snapshot as index.html, and the
  // built shell beside it: that shell is the app's page, and its hash the folder's build.
  const index = options.index ?? (folder.findSync('/', pathOf(SHELL_FILE), true) ? SHELL_FILE : 'index.html');
  const indexPath = pathOf(index);
  const indexFile = folder.findSync('/', indexPath, true);
  if (!indexFile) throw new SnapshotError('BAD_OPTION', `index ${JSON.stringify(index)} is not a file in ${JSON.stringify(options.root)}`);
  // The app's build: its index.html names its hashed assets, so a new build is a new page.
  const build = buildOf(readFileSync(indexFile, 'utf8'));
  const heapLimitMb = options.memoryLimitMb;
  if (heapLimitMb !== undefined && !(typeof heapLimitMb === 'number' && heapLimitMb >= MIN_MEMORY_MB && Number.isFinite(heapLimitMb)))
    throw new SnapshotError('BAD_OPTION', `memoryLimitMb must be at least ${MIN_MEMORY_MB}, got ${String(heapLimitMb)}`);
  const maxSnapshotBytes = countOption(options.maxSnapshotBytes ?? MAX_SNAPSHOT_BYTES, 'maxSnapshotBytes', 1024);
  if (maxSnapshotBytes > MAX_FRAME)
    throw new SnapshotError('BAD_OPTION', `maxSnapshotBytes must be at most ${MAX_FRAME} (64 MiB), got ${maxSnapshotBytes}`);
  const pool = pagePool({
    gate: { folder, indexPath, upstream, upstreamMethods },
    timeoutMs,
    pageErrors,
    maxPages,
    spares,
    memoryLimitMb: heapLimitMb ?? DEFAULT_MEMORY_MB,
    heapLimitMb,
    maxSnapshotBytes,
  });
  return Object.assign(pool, { build });
}

// A method is an HTTP token; fetch refuses CONNECT, TRACE and TRACK, so they are refused here, at start.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN = /^(connect|trace|track)$/i;

function methods(given: readonly string[] | undefined, upstream: string | null): readonly string[] {
  if (given === undefined) return ['GET', 'HEAD'];
  if (upstream === null)
    throw new SnapshotError('BAD_OPTION', 'upstreamMethods needs upstream: without one no request reaches an upstream');
  if (!Array.isArray(given) || !given.every((method) => typeof method === 'string' && TOKEN.test(method) && !FORBIDDEN.test(method)))
    throw new SnapshotError('BAD_OPTION', `upstreamMethods must be HTTP methods fetch can send, got ${JSON.stringify(given)}`);
  return given.map((method) => method.toUpperCase());
}
