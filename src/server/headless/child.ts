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

import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import type { Browser, BrowserPage, BrowserWindow, IOptionalBrowserSettings } from 'happy-dom';
import { SnapshotError } from '../errors.js';
import { MAX_CAUSE } from '../printable.js';
import { rejectNetworkErrors } from './follow.js';
import { harden } from './harden.js';
import { failureText, pageOutcome, serializePage, useIsValueKey, waitUntilSettled, watchWindow, type PageSignals } from './page.js';
import { frameReader, writeFrame } from './frames.js';
import {
  MAX_FRAME,
  NO_HAPPY_DOM,
  PART,
  sendAnswer,
  type ChildOptions,
  type FromChild,
  type PlainJob,
  type PlainResult,
  type ToChild,
} from './protocol.js';
import { pageRequests, type PageJob } from './requests.js';
import { warmAnswer, warmUp, WARM_JOB } from './warm-up.js';

// The channel to the server (fd 3, a pipe: frames.ts); made before harden(), which closes the network.
const channel = new Socket({ fd: 3, readable: true, writable: true });
harden();

const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
/** Sends a message to the server: true once it has gone. */
const send = (message: FromChild) => writeFrame(channel, message);

/** Each open page's job, found by its window for the page's requests. */
const opened = new Map<BrowserPage, PageJob>();
const signals = new WeakMap<BrowserWindow, PageSignals>();

function jobOf(window: BrowserWindow): PageJob | undefined {
  for (const [page, job] of opened) if (page.mainFrame.window === window) return job;
  return undefined;
}

// The warm-up page's requests (warm-up.ts) are answered here, never sent to the server.
const requests = pageRequests(
  (message) => (message.type === 'request' && message.id === WARM_JOB.id ? answerWarm(message.rid, message.request.url) : send(message)),
  jobOf,
  options.maxSnapshotBytes,
);

/** Answers a request of the warm-up page from its files, on a later turn, as an answer from the server comes (in parts). */
async function answerWarm(rid: number, url: string): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  await sendAnswer(async (message) => (requests.answer(message), true), rid, warmAnswer(url));
  return true;
}

/**
 * happy-dom's 600 modules, loaded by require() where Node loads ES modules that way (20.19+, 22.12+):
 * its synchronous loader takes about a fifth less CPU than import()'s, and every page process pays it.
 */
async function loadHappyDom(): Promise<typeof import('happy-dom')> {
  const { require_module } = process.features as { require_module?: boolean };
  return require_module ? (createRequire(import.meta.url)('happy-dom') as typeof import('happy-dom')) : import('happy-dom');
}

async function start(): Promise<Browser> {
  const happy = await loadHappyDom();
  const symbols = await import('happy-dom/lib/PropertySymbol.js');
  useIsValueKey(symbols.isValue);
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
  await warmUp(browser, { opened, signals, timeoutMs: options.timeoutMs });
  return browser;
}

/** Renders the one page of this process in `page`; the server kills the process once it has the result. */
async function renderPage(page: BrowserPage, id: number, job: PlainJob): Promise<PlainResult & { html: string }> {
  const { timeoutMs, pageErrors } = options;
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
  // The page is opened now, before the process says it is ready: a page's blank window (a VM
  // context, happy-dom's classes bound to it) is made off the render's path. It stays blank until
  // the render's navigation, which makes the window of the state's URL.
  const page = browser.newPage();
  const read = frameReader(
    MAX_FRAME + PART,
    (received) => {
      const message = received as ToChild;
      if (message.type === 'answer' || message.type === 'part') return requests.answer(message);
      if (message.type !== 'render' || rendering) return;
      // One page a process: the server kills it once the page is done.
      rendering = true;
      const { id, job } = message;
      renderPage(page, id, job).then(
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
  // require() (where Node loads ES modules that way) says MODULE_NOT_FOUND, import() ERR_MODULE_NOT_FOUND.
  const missing = (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && String(message).includes("'happy-dom");
  process.stderr.write(
    missing
      ? `${NO_HAPPY_DOM}\n`
      : // One line: the server names the last, and require()'s message goes on with its require stack.
        `the page process could not start: ${String(message ?? error).split('\n')[0]}\n`,
  );
  process.exit(70);
});
