// `headlessRenderer`: the real app, run in happy-dom (an optional peer dependency, imported on the
// first render only) at the state's URL. One Browser; a fresh incognito context and page per
// snapshot, always closed; at most `maxPages` open at once. The page's requests go through an
// interceptor that serves the app's folder and refuses everything else (app-files.ts).
// happy-dom runs the page's scripts in a Node VM context, which is not a security boundary: only
// ever point this at your own app's files. Files are served in-process because happy-dom loads a
// classic <script src> with a synchronous fetch that spawns a child `node` per script (~100 ms a
// snapshot instead of ~15 ms), and never finishes when the server of that script is this process.

import type { Browser, BrowserPage, BrowserWindow, IOptionalBrowserSettings, ISyncResponse } from 'happy-dom';
import { openAppFolder, contentType, type AppFolder } from './app-files.js';
import { SnapshotError } from './errors.js';
import { pageOutcome, serializePage, waitUntilSettled, watchWindow, type PageSignals } from './headless-page.js';
import { isolatedRenderer } from './headless-isolated.js';
import { createQueue } from './queue.js';
import type { RenderJob, RenderResult, SnapshotRenderer } from './render.js';
import { checkOrigin } from './urls.js';

/** Options of `headlessRenderer`. */
export interface HeadlessRendererOptions {
  /** The app's built folder (its index.html, scripts, styles, data), served at `base` on the app's origin. Required. */
  root: string;
  /** The shell file in `root`, served at every state's URL. Default `'index.html'`. */
  index?: string;
  /** Longest wait for a page to load and settle, in ms; then the page is closed and the render fails with TIMEOUT. Default 10000. */
  timeoutMs?: number;
  /** Pages open at once; more renders wait. Default 4. */
  maxPages?: number;
  /** An origin (`http://127.0.0.1:3000`) that answers the page's same-origin requests naming no file (its API). Default none: 404. */
  upstream?: string;
  /** What an uncaught error in the page's scripts does when no router then says the page settled: `'fail'` the render (500, not cached) or `'ignore'` it and snapshot the page as it stands. Default `'fail'`. */
  pageErrors?: 'fail' | 'ignore';
  /** Runs each page on a worker thread of its own, ended when the render times out or is aborted, so a script that never yields cannot stop the server. Needs the built package. Default false. */
  isolate?: boolean;
  /** With `isolate`, the heap a page's thread may use, in MB; past it the thread ends and the render fails. Default Node's own limit. */
  memoryLimitMb?: number;
}

/** A renderer that runs the app in happy-dom. */
export interface HeadlessRenderer extends SnapshotRenderer {
  /** Closes the browser; a later render opens a new one. */
  close(): Promise<void>;
  /** Pages open now. */
  readonly openPages: number;
}

const HTML_TYPE = 'text/html; charset=utf-8';

function stripHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** Creates a renderer that loads the app itself in happy-dom and serialises the settled page. */
export function headlessRenderer(options: HeadlessRendererOptions): HeadlessRenderer {
  let folder: AppFolder;
  try {
    folder = openAppFolder(options.root);
  } catch (error) {
    throw new SnapshotError('BAD_OPTION', `root must be the app's folder; ${JSON.stringify(options.root)} is not a readable directory`, { cause: error });
  }
  const index = options.index ?? 'index.html';
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0)) throw new SnapshotError('BAD_OPTION', `timeoutMs must be above 0, got ${String(timeoutMs)}`);
  const upstream = options.upstream === undefined ? null : checkOrigin(options.upstream, 'upstream');
  const maxPages = options.maxPages ?? 4;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new SnapshotError('BAD_OPTION', `maxPages must be an integer of at least 1, got ${String(maxPages)}`);
  const pageErrors = options.pageErrors ?? 'fail';
  if (pageErrors !== 'fail' && pageErrors !== 'ignore') throw new SnapshotError('BAD_OPTION', `pageErrors must be 'fail' or 'ignore', got ${JSON.stringify(pageErrors)}`);
  const pages = createQueue({ concurrency: maxPages, maxWaiting: Infinity });
  // The jobs being rendered: their origin is the only one a page may reach.
  const jobs = new Set<RenderJob>();
  // Each open page with a signal that ends with it (or its job), so an upstream request still in
  // flight is aborted when the page that made it closes, never when another page does.
  const opened = new Map<BrowserPage, AbortSignal>();
  const signals = new WeakMap<BrowserWindow, PageSignals>();
  let browser: Promise<Browser> | null = null;
  let open = 0;

  const jobFor = (url: URL): RenderJob | undefined => {
    for (const job of jobs) if (job.settings.origin === url.origin) return job;
    return undefined;
  };

  const indexPath = '/' + index.split('/').map(encodeURIComponent).join('/');
  if (!folder.findSync('/', indexPath)) throw new SnapshotError('BAD_OPTION', `index ${JSON.stringify(index)} is not a file in ${JSON.stringify(options.root)}`);
  if (options.isolate) return isolatedRenderer({ ...options, timeoutMs, maxPages, pageErrors });

  /** The page's asynchronous requests: the shell at the state's URL, files, the upstream, or refusal. */
  async function answerAsync(request: Request, window: BrowserWindow): Promise<InstanceType<BrowserWindow['Response']>> {
    const url = new URL(request.url);
    const job = jobFor(url);
    if (!job) return window.Response.error();
    if ([...jobs].some((j) => stripHash(j.url) === stripHash(url.href))) {
      // The state's own URL is the app's page: the shell, whatever the path (an SPA's fallback).
      const shell = await folder.find('/', indexPath);
      return shell ? new window.Response(await folder.read(shell), { headers: { 'Content-Type': HTML_TYPE } }) : new window.Response('', { status: 404 });
    }
    const file = request.method === 'GET' ? await folder.find(job.settings.base, url.pathname) : null;
    if (file) return new window.Response(await folder.read(file), { headers: { 'Content-Type': contentType(file) } });
    if (!upstream) return new window.Response('', { status: 404, statusText: 'Not Found' });
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    headers.delete('host');
    let signal = job.signal;
    for (const [page, ends] of opened) if (page.mainFrame.window === window) signal = ends;
    const answer = await globalThis.fetch(upstream + url.pathname + url.search, { method: request.method, headers, body, redirect: 'manual', signal });
    const kept: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!/^(content-encoding|content-length|set-cookie|transfer-encoding|connection)$/i.test(name)) kept[name] = value;
    });
    return new window.Response(await answer.arrayBuffer(), { status: answer.status, statusText: answer.statusText, headers: kept });
  }

  /** The page's synchronous requests (classic scripts, sync XHR): files only. */
  function answerSync(request: Request, window: BrowserWindow): ISyncResponse {
    const url = new URL(request.url);
    const job = jobFor(url);
    const file = job && request.method === 'GET' ? folder.findSync(job.settings.base, url.pathname) : null;
    const answer = (status: number, body: Buffer | null, type?: string): ISyncResponse => ({
      status,
      statusText: status === 200 ? 'OK' : status === 404 ? 'Not Found' : '',
      ok: status === 200,
      url: request.url,
      redirected: false,
      headers: new window.Headers(type ? { 'Content-Type': type } : {}),
      body,
    });
    if (!job) return answer(0, null);
    return file ? answer(200, folder.readSync(file), contentType(file)) : answer(404, Buffer.from(''));
  }

  // An interceptor that throws leaves happy-dom's request task open and the page never idle: every
  // failure (an upstream that is down, a file removed meanwhile) becomes a network error instead.
  const interceptor = {
    async beforeAsyncRequest({ request, window }: { request: Request; window: BrowserWindow }) {
      if (/^(data|blob):/.test(request.url)) return undefined;
      return answerAsync(request, window).catch(() => window.Response.error());
    },
    beforeSyncRequest({ request, window }: { request: Request; window: BrowserWindow }): ISyncResponse | undefined {
      if (/^(data|blob):/.test(request.url)) return undefined;
      try {
        return answerSync(request, window);
      } catch {
        return { status: 0, statusText: '', ok: false, url: request.url, redirected: false, headers: new window.Headers(), body: null };
      }
    },
  };

  async function start(): Promise<Browser> {
    let happy: typeof import('happy-dom');
    try {
      happy = await import('happy-dom');
    } catch (error) {
      throw new SnapshotError('RENDER_FAILED', 'headlessRenderer needs the optional peer dependency happy-dom: npm install happy-dom', { cause: error });
    }
    const settings: IOptionalBrowserSettings = {
      enableJavaScriptEvaluation: true,
      // The code run is the app's own, from `root`; the page cannot fetch anything else.
      suppressInsecureJavaScriptEnvironmentWarning: true,
      fetch: { interceptor: interceptor as unknown as NonNullable<IOptionalBrowserSettings['fetch']>['interceptor'] },
      navigation: {
        disableChildPageNavigation: true,
        disableChildFrameNavigation: true,
        crossOriginPolicy: happy.BrowserNavigationCrossOriginPolicyEnum.sameOrigin,
        beforeContentCallback: (window: BrowserWindow) => void signals.set(window, watchWindow(window)),
      },
    };
    return new happy.Browser({ settings });
  }

  async function renderPage(job: RenderJob): Promise<RenderResult> {
    job.signal.throwIfAborted();
    browser ??= start().catch((error: unknown) => {
      browser = null;
      throw error;
    });
    const context = (await browser).newIncognitoContext();
    const page = context.newPage();
    const closed = new AbortController();
    jobs.add(job);
    opened.set(page, AbortSignal.any([job.signal, closed.signal]));
    open++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        const fail = (reason: unknown) => {
          if (reason instanceof SnapshotError) return reject(reason);
          // What the page logged is the likeliest reason it never settled.
          const logged = page.virtualConsolePrinter.readAsString().trim().slice(-500);
          reject(new SnapshotError('TIMEOUT', `the page of ${job.location} did not settle within ${timeoutMs} ms` + (logged ? `; its console said: ${logged}` : '')));
        };
        timer = setTimeout(() => fail(null), timeoutMs);
        onAbort = () => fail(job.signal.reason);
        job.signal.addEventListener('abort', onAbort, { once: true });
      });
      await Promise.race([page.goto(job.url), deadline]);
      const window = page.mainFrame.window;
      let found = signals.get(window);
      if (!found) signals.set(window, (found = watchWindow(window)));
      await Promise.race([waitUntilSettled(page, found), deadline]);
      if (found.error !== undefined && !found.settled && pageErrors === 'fail') {
        const thrown = found.error instanceof Error ? `${found.error.name}: ${found.error.message}` : String(found.error);
        throw new SnapshotError('RENDER_FAILED', `the page of ${job.location} threw before it settled: ${thrown.slice(0, 500)}`, { cause: found.error });
      }
      // The router's outcome: a redirect needs no page, a 404 no canonical link, a 500 fails in the handler.
      const outcome = pageOutcome(window, job);
      if (outcome.redirect !== undefined) return { html: '', ...outcome };
      return { html: serializePage(window, { ...job, notFound: outcome.status !== 200 }), ...outcome };
    } finally {
      clearTimeout(timer);
      if (onAbort) job.signal.removeEventListener('abort', onAbort);
      jobs.delete(job);
      opened.delete(page);
      closed.abort();
      open--;
      // Closing aborts the page's timers and requests; a failure to close must not hide the result.
      await context.close().catch(() => {});
    }
  }

  return {
    get openPages() {
      return open;
    },
    render: (job) => pages.run(() => renderPage(job)),
    async close() {
      const running = browser;
      browser = null;
      if (running) await (await running).close();
    },
  };
}
