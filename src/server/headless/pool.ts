// The page processes of `headlessRenderer`: happy-dom runs each page in a child Node process
// (headless/child.ts, started by headless/page-process.ts) that renders that one page and is then
// killed, so nothing a page changes in its process (a prototype, happy-dom's shared classes)
// reaches another state's snapshot. Spares are started ahead (once the first render's process is
// ready, then kept: one, or up to `spares` while renders overlap), so a render does not wait for a
// start; with `spares` 0, each render starts its own. A render that takes a ready spare has its
// replacement started once it is over, not while its page runs.
// Every request a page makes comes back here and is answered by the gate (headless/gate.ts). The server holds at most one frame of
// `maxSnapshotBytes` and request bodies of as much again per page process; a process that asks
// for more, stays silent past the renderer's timeoutMs plus GRACE_MS, or whose resident memory
// passes `memoryLimitMb` (memory-watch.ts) is killed, and only its render fails.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SnapshotError, type SnapshotErrorCode } from '../errors.js';
import { MAX_CAUSE, printable } from '../printable.js';
import { pageProcessFlags } from './flags.js';
import { answerAsync, answerSync, UpstreamFault, type Gate } from './gate.js';
import { startPageProcess, type PageProcess } from './page-process.js';
import { isolation } from './isolation.js';
import { watchMemory } from './memory-watch.js';
import { checkSnapshot } from './snapshot-check.js';
import {
  checkedResult,
  PART,
  requestParts,
  sendAnswer,
  type ChildOptions,
  type FromChild,
  type GateAnswer,
  type GateRequest,
} from './protocol.js';
import { serveSyncPipe } from './sync-pipe.js';
import { matchNoindex } from '../noindex.js';
import { createQueue } from '../render/queue.js';
import type { RenderJob, RenderResult, SnapshotRenderer } from '../render/render.js';

export { deathCause } from './page-process.js';

/** The renderer `headlessRenderer` gives: a `SnapshotRenderer` over page processes. */
export interface HeadlessRenderer extends SnapshotRenderer {
  /** Stops the page processes; a later render starts new ones. */
  close(): Promise<void>;
  /** Pages open now. */
  readonly openPages: number;
}

/** How long past its own timeoutMs a page process may stay silent before it is killed. */
const GRACE_MS = 1000;
/** The most page processes started ahead of the renders that will take them, by default. */
export const SPARES = 2;
/** A page's requests in flight at once before the server stops reading its process (it waits). */
const IN_FLIGHT = 32;
/** How the render of a page process that sent what is not a message fails. */
const PROTOCOL = 'broke the protocol and was stopped';
const CODES = new Set<string>(['BAD_OPTION', 'BAD_SHELL', 'UNSAFE_PATH', 'TIMEOUT', 'BUSY', 'RENDER_FAILED']);

/** What the pool is built from: options `headlessRenderer` has checked, and the gate. */
export interface PoolOptions extends ChildOptions {
  gate: Gate;
  maxPages: number;
  /** The most page processes started ahead of renders (0: none). */
  spares: number;
  /** The resident memory a page process may reach, in MB, and its heap limit when given by the user. */
  memoryLimitMb: number;
  heapLimitMb?: number;
}

/** A started process, and who hears it: nobody while it is a spare, its render once taken. */
interface Slot {
  process: PageProcess;
  /** True once its process said it is ready. */
  ready: boolean;
  message(message: FromChild): void;
  ended(why: string): void;
}

/** Starts the pool of page processes behind a `HeadlessRenderer`. */
export function pagePool(options: PoolOptions): HeadlessRenderer {
  const file = new URL('./child.js', import.meta.url);
  if (file.protocol !== 'file:' || !existsSync(fileURLToPath(file))) {
    throw new SnapshotError(
      'BAD_OPTION',
      `headlessRenderer needs the built package: ${file.href} is missing (it cannot run from the TypeScript sources)`,
    );
  }
  const entry = fileURLToPath(file);
  // Found now, once (it starts a process to find out), not on a request's path.
  isolation();
  const { gate, timeoutMs, pageErrors, maxPages, spares: mostSpares, memoryLimitMb, heapLimitMb, maxSnapshotBytes } = options;
  const child: ChildOptions = { timeoutMs, pageErrors, maxSnapshotBytes };
  const args = [...pageProcessFlags(entry, heapLimitMb), entry, JSON.stringify(child)];
  const pages = createQueue({ concurrency: maxPages, maxWaiting: Infinity });
  const spares: Slot[] = [];
  const taken = new Set<Slot>();
  let nextId = 0;
  let open = 0;
  /** Set by close(): no spare is started until the next render. */
  let closed = false;

  function start(): Slot {
    const slot: Slot = {
      ready: false,
      message: () => {},
      ended: () => void spares.splice(spares.indexOf(slot) >>> 0, 1),
      process: startPageProcess(args, Math.max(maxSnapshotBytes, PART), {
        message: (message) => slot.message(message),
        ended: (why) => slot.ended(why),
      }),
    };
    slot.process.ready.then(
      () => void (slot.ready = true),
      () => {},
    );
    return slot;
  }

  /** Starts spares up to one per render in flight, at least one, at most `spares` (and maxPages). */
  function topUp(): void {
    const wanted = Math.min(mostSpares, maxPages, Math.max(1, taken.size));
    while (!closed && spares.length < wanted) spares.push(start());
  }

  function take(): Slot {
    closed = false;
    const slot = spares.shift() ?? start();
    taken.add(slot);
    // Spares start once this one is ready: a render that waits for a start does not share the CPU
    // with them. A spare taken ready is replaced once its render is over (finish, in renderOn): a
    // process start is a core's worth of CPU for most of a second, and the spawn itself holds the
    // server's event loop, which the render's page waits on for every request it makes.
    if (!slot.ready) void slot.process.ready.catch(() => {}).then(topUp);
    return slot;
  }

  function renderOn(slot: Slot, job: RenderJob): Promise<RenderResult> {
    const { location, url, canonical, notFound, settings } = job;
    const id = nextId++;
    const page = slot.process;
    const ends = new AbortController();
    const gather = requestParts(maxSnapshotBytes);
    let inFlight = 0;
    let fault: string | undefined;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWatch = () => {};
    return new Promise<RenderResult>((resolve, reject) => {
      const finish = (error: SnapshotError | null, result?: RenderResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopWatch();
        ends.abort();
        job.signal.removeEventListener('abort', onAbort);
        taken.delete(slot);
        // One page a process: whatever its page did to it ends here.
        page.kill('its render is over');
        // Spares are topped up once the render's result has gone on its way (a later turn).
        setImmediate(topUp);
        const cause = fault && ` (${printable(fault, MAX_CAUSE)})`;
        if (error === null && result)
          resolve(cause && (result.status ?? 200) >= 500 ? { ...result, error: (result.error ?? '') + cause } : result);
        else reject(cause && error ? new SnapshotError(error.code, error.message + cause, { cause: error }) : error);
      };
      const failed = (code: SnapshotErrorCode, message: string) => finish(new SnapshotError(code, message));
      const broken = (why: string) => failed('RENDER_FAILED', `the page process of ${location} ${why}`);
      const onAbort = () => {
        const reason = job.signal.reason as unknown;
        finish(reason instanceof SnapshotError ? reason : new SnapshotError('TIMEOUT', `the render of ${location} was aborted`));
      };
      job.signal.addEventListener('abort', onAbort, { once: true });
      slot.ended = (why) => broken(why.includes('protocol') ? why : `failed: ${why}`);

      const answered = () => {
        if (--inFlight < IN_FLIGHT) page.resume();
      };
      const ask = (rid: number, request: GateRequest) => {
        const answer = (reply: GateAnswer) =>
          sendAnswer(
            (part) => page.send(part),
            rid,
            reply,
            () => !settled,
          ).finally(answered);
        if (++inFlight >= IN_FLIGHT) page.pause();
        // The answer goes within the request's turn (gate.ts); a request that failed or never had a turn gets a network error.
        void answerAsync(gate, job, request, ends.signal, answer).catch((error: unknown) => {
          if (error instanceof UpstreamFault) fault ??= error.message;
          return answer(null);
        });
      };

      slot.message = (message) => {
        if (settled) return;
        if (typeof message !== 'object' || message === null) return broken(PROTOCOL);
        if (message.type === 'request' || message.type === 'part') {
          if (message.type === 'request' && message.id !== id) return broken(PROTOCOL);
          const taken = gather(message);
          if (typeof taken === 'string') return broken(taken);
          return taken && ask(taken.rid, taken.request);
        }
        if (message.type === 'ready' || message.id !== id) return broken(PROTOCOL);
        if (message.type === 'failed') {
          const code = typeof message.code === 'string' && CODES.has(message.code) ? (message.code as SnapshotErrorCode) : 'RENDER_FAILED';
          return failed(code, printable(String(message.message)));
        }
        if (message.type !== 'done' || !(message.html instanceof Uint8Array)) return broken(PROTOCOL);
        if (message.html.byteLength > maxSnapshotBytes) return broken(`sent a snapshot past ${maxSnapshotBytes} bytes`);
        const result = checkedResult({ ...message.result, html: Buffer.from(message.html).toString('utf8') });
        if (!result) return broken(PROTOCOL);
        const wrong =
          result.redirect === undefined
            ? checkSnapshot(result.html, { status: result.status ?? 200, noindex: matchNoindex(job.match) })
            : null;
        if (wrong) return broken(`sent a snapshot that breaks the renderer's rules (${wrong})`);
        finish(null, result);
      };

      serveSyncPipe(
        page.syncPipe,
        (asked) =>
          asked.id === id && !settled
            ? answerSync(gate, job, { url: String(asked.url), method: String(asked.method), headers: [], body: null })
            : null,
        () => broken('broke the protocol and was stopped'),
      );

      const started = () => {
        if (settled) return;
        page.hold(true);
        stopWatch = watchMemory(page.pid ?? 0, memoryLimitMb * 1024 * 1024, (bytes) =>
          broken(`failed: its resident memory reached ${Math.round(bytes / 2 ** 20)} MB, past memoryLimitMb ${memoryLimitMb}`),
        );
        timer = setTimeout(
          () =>
            failed(
              'TIMEOUT',
              `the page of ${location} did not yield within ${timeoutMs} ms (a script that never returns?); its process was stopped`,
            ),
          timeoutMs + GRACE_MS,
        );
        const plain = { location, url, canonical, notFound, noindex: matchNoindex(job.match), settings: { ...settings } };
        void page.send({ type: 'render', id, job: plain });
      };
      page.ready.then(started, (error: unknown) =>
        failed('RENDER_FAILED', `the page process could not start: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
  }

  async function renderPage(job: RenderJob): Promise<RenderResult> {
    job.signal.throwIfAborted();
    open++;
    try {
      return await renderOn(take(), job);
    } finally {
      open--;
    }
  }

  return {
    get openPages() {
      return open;
    },
    async render(job) {
      return pages.run(() => renderPage(job));
    },
    async close() {
      closed = true;
      const all = [...spares.splice(0), ...taken];
      for (const slot of all) {
        // Its exit is awaited: the server's event loop stays alive until it comes.
        slot.process.hold(true);
        slot.process.kill('the renderer was closed');
      }
      await Promise.all(all.map((slot) => slot.process.exited));
    },
  };
}
