// A page process of `headlessRenderer` (started by headless/page-process.ts, never imported):
// happy-dom runs one page of the app here, then the server kills the process. It runs under Node's
// permission model (no file read but this package's code and its dependencies', no file write, no
// child process, no worker, no addon), with code generation from strings refused and intrinsics
// frozen in this realm, and, where the OS allows, in network and PID namespaces of its own
// (isolation.ts). Before any page runs, it gives up its network in Node too: a socket's connect
// fails, nothing listens, and the ways to reach other modules from `process` are removed. Every
// request a page makes is sent to the server (headless/requests.ts), which decides
// (headless/gate.ts); the page's own scripts run in happy-dom's VM context, and if they climb out of
// it they are still here, in a process that renders nothing else.

import { Socket } from 'node:net';
import type { Browser, BrowserPage, BrowserWindow, IOptionalBrowserSettings } from 'happy-dom';
import { SnapshotError } from '../errors.js';
import { MAX_CAUSE } from '../printable.js';
import { SETTLED_EVENT, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../settled.js';
import { rejectNetworkErrors } from './follow.js';
import { harden } from './harden.js';
import { failureText, pageOutcome, serializePage, waitUntilSettled, watchWindow, type PageSignals } from './page.js';
import { encodeFrame, frameReader } from './frames.js';
import {
  MAX_FRAME,
  PART,
  sendAnswer,
  type ChildOptions,
  type FromChild,
  type PlainJob,
  type PlainResult,
  type ToChild,
} from './protocol.js';
import { pageRequests, type PageJob } from './requests.js';

// The channel to the server (fd 3, a pipe: frames.ts); made before harden(), which closes the network.
const channel = new Socket({ fd: 3, readable: true, writable: true });
harden();

const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
/** Sends a message to the server: true once it has gone. */
const send = (message: FromChild) =>
  new Promise<boolean>((resolve) => {
    const parts = encodeFrame(message);
    const last = parts.pop()!;
    for (const part of parts) channel.write(part);
    channel.write(last, (error) => resolve(!error));
  });

/** Each open page's job, found by its window for the page's requests. */
const opened = new Map<BrowserPage, PageJob>();
const signals = new WeakMap<BrowserWindow, PageSignals>();

function jobOf(window: BrowserWindow): PageJob | undefined {
  for (const [page, job] of opened) if (page.mainFrame.window === window) return job;
  return undefined;
}

/** The warm-up page's job (start()): its requests are answered here from WARM_FILES, never sent to the server. */
const WARM: PageJob = { id: -1 };
const requests = pageRequests(
  (message) => (message.type === 'request' && message.id === WARM.id ? warmAnswer(message.rid, message.request.url) : send(message)),
  jobOf,
  options.maxSnapshotBytes,
);

// The warm-up page, at an origin no page has: a shell, a deferred script, a stylesheet and a JSON
// fetch, then the DOM work of a client-rendered view and the router's settled signal. It runs what
// a render runs (the interceptor and its answers, scripts, the parser, DOM building, the settle
// wait, serialisation) once before the process says it is ready, so a render's first call of each
// is not compiled on the request path.
const WARM_ORIGIN = 'http://warm-up.invalid';
const WARM_FILES: Record<string, [string, string]> = {
  '/': [
    'text/html; charset=utf-8',
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>warm</title><link rel="stylesheet" href="/warm.css">' +
      '<script defer src="/warm.js"></script></head><body><header><a href="/">home</a></header><main id="app"></main>' +
      '<footer>warm</footer></body></html>',
  ],
  '/warm.css': ['text/css', 'main { display: block }'],
  '/warm.json': [
    'application/json',
    JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: String(i), name: `Item ${i}`, year: 1800 + i })) }),
  ],
  '/warm.js': [
    'text/javascript',
    `(async () => {
  const root = document.documentElement;
  root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, 'busy');
  const data = await fetch('/warm.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
  history.replaceState({ at: 1 }, '', location.pathname + '?q=1');
  addEventListener('popstate', () => {});
  document.addEventListener('click', (event) => event.target.closest('a') && event.preventDefault());
  const section = document.createElement('section');
  section.innerHTML = '<h1>Items &amp; more</h1><ul>' + data.items.map((item) =>
    '<li><a href="/items/' + encodeURIComponent(item.id) + '">' + item.name + '</a> <span class="by">' + item.year + '</span></li>').join('') + '</ul>';
  document.getElementById('app').replaceChildren(section);
  const meta = document.createElement('meta');
  meta.setAttribute('name', 'description');
  meta.setAttribute('content', 'warm');
  const link = document.createElement('link');
  link.rel = 'canonical';
  link.href = location.origin + '/';
  document.head.append(meta, link);
  document.title = section.querySelector('h1').textContent + ' ' + section.querySelectorAll('a[href]').length;
  await new Promise((resolve) => setTimeout(resolve, 0));
  root.setAttribute(${JSON.stringify(STATUS_ATTRIBUTE)}, '200');
  root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, 'settled');
  dispatchEvent(new CustomEvent(${JSON.stringify(SETTLED_EVENT)}, { detail: {} }));
})();`,
  ],
};

/** Answers a request of the warm-up page from WARM_FILES, as the server's answers come (in parts). */
async function warmAnswer(rid: number, url: string): Promise<boolean> {
  const { origin, pathname } = new URL(url);
  const file = origin === WARM_ORIGIN ? WARM_FILES[pathname] : undefined;
  const answer = file && {
    status: 200,
    statusText: 'OK',
    headers: [['content-type', file[0]]] as Array<[string, string]>,
    body: Buffer.from(file[1]),
  };
  // Answered on a later turn, as an answer from the server is.
  await new Promise((resolve) => setImmediate(resolve));
  await sendAnswer(async (message) => (requests.answer(message), true), rid, answer ?? null);
  return true;
}

async function start(): Promise<Browser> {
  const happy = await import('happy-dom');
  const symbols = await import('happy-dom/lib/PropertySymbol.js');
  // An iframe's page, `src` or `srcdoc`, is never loaded: a srcdoc's scripts would run in a frame
  // of their own, and no snapshot needs one. happy-dom loads srcdoc whatever its iframe settings say,
  // so its element's hooks are replaced by its parent class's, which load nothing.
  const iframe = happy.HTMLIFrameElement.prototype as unknown as Record<symbol, unknown>;
  const element = Object.getPrototypeOf(iframe) as Record<symbol, (...args: unknown[]) => unknown>;
  for (const hook of [symbols.connectedToDocument, symbols.onSetAttribute, symbols.onRemoveAttribute]) {
    if (typeof iframe[hook] !== 'function' || typeof element[hook] !== 'function')
      throw new Error('this happy-dom cannot be kept from loading iframes');
    iframe[hook] = function (this: unknown, ...args: unknown[]) {
      return element[hook]!.apply(this, args);
    };
  }
  const settings: IOptionalBrowserSettings = {
    enableJavaScriptEvaluation: true,
    // The page's scripts run in this process, which has no network, no files and no way out.
    suppressInsecureJavaScriptEnvironmentWarning: true,
    fetch: { interceptor: requests.interceptor as unknown as NonNullable<IOptionalBrowserSettings['fetch']>['interceptor'] },
    navigation: {
      disableChildPageNavigation: true,
      disableChildFrameNavigation: true,
      crossOriginPolicy: happy.BrowserNavigationCrossOriginPolicyEnum.sameOrigin,
      beforeContentCallback: (window: BrowserWindow) => {
        // No popups, as with a browser's popup blocker: a snapshot is of one page.
        Object.defineProperty(window, 'open', { value: () => null, configurable: true, writable: true });
        rejectNetworkErrors(window);
        signals.set(window, watchWindow(window));
      },
    },
  };
  const browser = new happy.Browser({ settings });
  await warmUp(browser);
  return browser;
}

/**
 * Renders the warm-up page (WARM_FILES) as a page is rendered, so that a render's time is spent on
 * its own page. It only warms up: if it fails or does not settle within timeoutMs, the process
 * goes on and says it is ready all the same.
 */
async function warmUp(browser: Browser): Promise<void> {
  const warm = browser.newPage();
  opened.set(warm, WARM);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = async () => {
    await warm.goto(`${WARM_ORIGIN}/`);
    const window = warm.mainFrame.window;
    await waitUntilSettled(warm, signals.get(window) ?? watchWindow(window));
    const plain: PlainJob = {
      location: '/',
      url: `${WARM_ORIGIN}/`,
      canonical: `${WARM_ORIGIN}/`,
      notFound: false,
      noindex: false,
      settings: { origin: WARM_ORIGIN, base: '/', mode: 'history' },
    };
    const job = { ...plain, match: null, signal: new AbortController().signal };
    pageOutcome(window, job);
    serializePage(window, job, WARM.source ?? '');
  };
  try {
    await Promise.race([render(), new Promise((resolve) => (timer = setTimeout(resolve, options.timeoutMs)))]);
  } catch {
    // Nothing of a render depends on it.
  } finally {
    clearTimeout(timer);
    opened.delete(warm);
    await warm.close().catch(() => {});
  }
}

/** Renders the one page of this process; the server kills the process once it has the result. */
async function renderPage(browser: Browser, id: number, job: PlainJob): Promise<PlainResult & { html: string }> {
  const { timeoutMs, pageErrors } = options;
  const page = browser.newPage();
  const signal = new AbortController().signal;
  opened.set(page, { id });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      const fail = (reason: unknown) => {
        if (reason instanceof SnapshotError) return reject(reason);
        // What the page logged is the likeliest reason it never settled.
        const logged = page.virtualConsolePrinter.readAsString().trim().slice(-500);
        reject(
          new SnapshotError(
            'TIMEOUT',
            `the page of ${job.location} did not settle within ${timeoutMs} ms` + (logged ? `; its console said: ${logged}` : ''),
          ),
        );
      };
      timer = setTimeout(() => fail(null), timeoutMs);
    });
    await Promise.race([page.goto(job.url), deadline]);
    const window = page.mainFrame.window;
    let found = signals.get(window);
    if (!found) signals.set(window, (found = watchWindow(window)));
    await Promise.race([waitUntilSettled(page, found), deadline]);
    if (found.error !== undefined && !found.settled && pageErrors === 'fail') {
      const thrown = failureText(found.error);
      throw new SnapshotError('RENDER_FAILED', `the page of ${job.location} threw before it settled: ${thrown.slice(0, MAX_CAUSE)}`);
    }
    // The router's outcome: a redirect needs no page, a 404 no canonical link, a 500 fails in the
    // handler, which says why: what its `load` threw, else what the page threw (a view hook's error).
    const outcome = pageOutcome(window, { ...job, match: null, signal });
    if (outcome.redirect !== undefined) return { html: '', ...outcome };
    const html = serializePage(window, { ...job, match: null, signal, notFound: outcome.status !== 200 }, opened.get(page)?.source ?? '');
    // A longer page is not sent: the server takes no frame past maxSnapshotBytes.
    if (Buffer.byteLength(html) > options.maxSnapshotBytes)
      throw new SnapshotError(
        'RENDER_FAILED',
        `the page of ${job.location} is longer than maxSnapshotBytes (${options.maxSnapshotBytes} bytes)`,
      );
    if (outcome.status === 500) return { html, ...outcome, error: failureText(found.failure ?? found.error).slice(0, MAX_CAUSE) };
    return { html, ...outcome };
  } finally {
    // The page is not closed: its process ends with it.
    clearTimeout(timer);
    opened.delete(page);
  }
}

function serve(browser: Browser): void {
  let rendering = false;
  const read = frameReader(
    MAX_FRAME + PART,
    (received) => {
      const message = received as ToChild;
      if (message.type === 'answer' || message.type === 'part') return requests.answer(message);
      if (message.type !== 'render' || rendering) return;
      // One page a process: the server kills it once the page is done.
      rendering = true;
      const { id, job } = message;
      renderPage(browser, id, job).then(
        ({ html, ...result }) => void send({ type: 'done', id, result, html: Buffer.from(html) }),
        (error: unknown) => {
          const { code, message: text } = error as { code?: unknown; message?: unknown };
          void send({
            type: 'failed',
            id,
            code: typeof code === 'string' ? code : 'RENDER_FAILED',
            message: typeof text === 'string' ? text : String(error),
          });
        },
      );
    },
    () => process.exit(70),
  );
  channel.on('data', read);
  void send({ type: 'ready' });
}

// The server gone, this process has nothing to do.
channel.on('end', () => process.exit(0));
channel.on('error', () => process.exit(0));
// What happy-dom itself leaves unhandled (its sendBeacon does not catch the fetch it starts) must
// not end the process while its page renders; a page that goes wrong still ends at its timeout.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', () => {});
start().then(serve, (error: unknown) => {
  // The server names the last line of stderr in the failure of the jobs it had for this process.
  const { code, message } = error as { code?: unknown; message?: unknown };
  const missing = code === 'ERR_MODULE_NOT_FOUND' && String(message).includes("'happy-dom");
  process.stderr.write(
    missing
      ? 'headlessRenderer needs the optional peer dependency happy-dom: npm install happy-dom\n'
      : `the page process could not start: ${String(message ?? error)}\n`,
  );
  process.exit(70);
});
