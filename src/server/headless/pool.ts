// The page processes of `headlessRenderer`: happy-dom runs each page in a child Node process
// (headless/child.ts) started under the permission model, so a page script that climbs out of
// happy-dom's VM context is still inside a process that cannot read the server's files, write any,
// start processes or open connections. Processes are kept and reused: one for every page by
// default, or one per page at a time with `isolate`. Every request a page makes comes back here
// and is answered by the gate (headless/gate.ts). A process that stops answering (a script that
// never yields) is killed at the renderer's timeoutMs plus GRACE_MS, which fails only its pages.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SnapshotError, type SnapshotErrorCode } from '../errors.js';
import { MAX_CAUSE, printable } from '../printable.js';
import { pageProcessFlags } from './flags.js';
import { answerAsync, answerSync, UpstreamFault, type Gate } from './gate.js';
import {
  checkedResult,
  sendAnswer,
  SYNC_FD,
  validRequest,
  type ChildOptions,
  type FromChild,
  type GateAnswer,
  type ToChild,
} from './protocol.js';
import { serveSyncPipe } from './sync-pipe.js';
import { matchNoindex } from '../noindex.js';
import { createQueue } from '../render/queue.js';
import type { RenderJob, RenderResult, SnapshotRenderer } from '../render/render.js';

/** The renderer `headlessRenderer` gives: a `SnapshotRenderer` over page processes. */
export interface HeadlessRenderer extends SnapshotRenderer {
  /** Stops the page processes; a later render starts new ones. */
  close(): Promise<void>;
  /** Pages open now. */
  readonly openPages: number;
}

/** How long past its own timeoutMs a page process may stay silent before it is killed. */
const GRACE_MS = 1000;
const CODES = new Set<string>(['BAD_OPTION', 'BAD_SHELL', 'UNSAFE_PATH', 'TIMEOUT', 'BUSY', 'RENDER_FAILED']);

/** What the pool is built from: options `headlessRenderer` has checked, and the gate. */
export interface PoolOptions extends ChildOptions {
  gate: Gate;
  maxPages: number;
  isolate: boolean;
  memoryLimitMb?: number;
}

interface Running {
  job: RenderJob;
  resolve(result: RenderResult): void;
  reject(error: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
  /** Aborted when the render ends: the page's upstream requests stop with it. */
  ends: AbortController;
  settled: boolean;
  /** True once the job was sent to its process. */
  sent: boolean;
  /** The first of its page's requests the upstream did not answer: named when the render fails. */
  fault?: string;
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  jobs: Map<number, Running>;
  /** The end of what it wrote to stderr: why it died, if it did. */
  stderr: string;
  dead: boolean;
}

/**
 * Why a page process died, from the end of its stderr: the error's line (Node ends a crash with
 * its stack and its own version), and the file an access the permission model refused names.
 */
export function deathCause(stderr: string): string {
  if (/heap out of memory/i.test(stderr)) return 'JavaScript heap out of memory';
  const lines = stderr.split('\n').map((l) => l.trim());
  const said = lines.filter((l) => l && !/ExperimentalWarning|--trace-warnings|^Node\.js v\d|^at |^[{}^]$/.test(l));
  const error = said.filter((l) => /^[\w.]*Error\b/.test(l)).at(-1) ?? said.at(-1);
  const resource = said.find((l) => l.startsWith('resource: '));
  return error ? printable(error + (resource ? ` (${resource})` : '')) : 'no reason given';
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
  const { gate, timeoutMs, pageErrors, maxPages, isolate, memoryLimitMb } = options;
  const args = [...pageProcessFlags(entry, memoryLimitMb), entry, JSON.stringify({ timeoutMs, pageErrors } satisfies ChildOptions)];
  const pages = createQueue({ concurrency: maxPages, maxWaiting: Infinity });
  const children = new Set<Child>();
  let nextId = 0;
  let open = 0;

  function kill(child: Child, why: (running: Running) => SnapshotError): void {
    if (!child.dead) {
      child.dead = true;
      child.process.kill('SIGKILL');
    }
    children.delete(child);
    for (const running of child.jobs.values()) finish(running, why(running));
    child.jobs.clear();
  }

  function finish(running: Running, error: unknown, result?: RenderResult): void {
    clearTimeout(running.timer);
    running.ends.abort();
    if (running.settled) return;
    running.settled = true;
    const fault = running.fault && ` (${printable(running.fault, MAX_CAUSE)})`;
    if (error === null && result)
      running.resolve(fault && (result.status ?? 200) >= 500 ? { ...result, error: (result.error ?? '') + fault } : result);
    else
      running.reject(
        fault && error instanceof SnapshotError ? new SnapshotError(error.code, error.message + fault, { cause: error }) : error,
      );
  }

  function startChild(): Child {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'], serialization: 'advanced', env: {} });
    let onReady!: () => void;
    let onFail!: (error: Error) => void;
    const child: Child = {
      process: proc,
      jobs: new Map(),
      stderr: '',
      dead: false,
      ready: new Promise((resolve, reject) => ((onReady = resolve), (onFail = reject))),
    };
    child.ready.catch(() => {});
    children.add(child);
    const why = () => deathCause(child.stderr);
    const ended = (reason: string) => {
      onFail(new SnapshotError('RENDER_FAILED', `the page process could not start: ${reason}`));
      kill(child, (r) => new SnapshotError('RENDER_FAILED', `the page process of ${r.job.location} failed: ${reason}`));
    };
    proc.stderr?.setEncoding('utf8').on('data', (text: string) => void (child.stderr = (child.stderr + text).slice(-2000)));
    proc.on('error', (error) => ended(error.message));
    proc.on('exit', (code, signal) => {
      child.dead = true;
      ended(`${why()} (${signal ?? `exit code ${String(code)}`})`);
    });
    proc.on('message', (message: FromChild) => onMessage(child, message, onReady));
    serveSyncPipe(
      proc.stdio[SYNC_FD] as Readable & Writable,
      (asked) => {
        const running = typeof asked.id === 'number' ? child.jobs.get(asked.id) : undefined;
        return running
          ? answerSync(gate, running.job, { url: String(asked.url), method: String(asked.method), headers: [], body: null })
          : null;
      },
      () => broken(child),
    );
    proc.unref();
    proc.channel?.unref();
    for (const stream of [proc.stderr, proc.stdio[SYNC_FD]]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  }

  /** A process with renders keeps the server's event loop alive until it answers; an idle one never does. */
  function holdOpen(child: Child): void {
    if (child.dead) return;
    if (child.jobs.size > 0) child.process.channel?.ref();
    else child.process.channel?.unref();
  }

  /**
   * Sends to a process that may have ended meanwhile (its exit fails its renders): true once the
   * message has gone, false when it could not.
   */
  function post(child: Child, message: ToChild): Promise<boolean> {
    return new Promise((resolve) => {
      try {
        if (child.dead || !child.process.connected) return resolve(false);
        child.process.send(message, (error) => resolve(!error));
      } catch {
        resolve(false);
      }
    });
  }

  /** A process that breaks the protocol is not trusted further. */
  function broken(child: Child): void {
    kill(child, (r) => new SnapshotError('RENDER_FAILED', `the page process of ${r.job.location} broke the protocol and was stopped`));
  }

  function onMessage(child: Child, message: FromChild, onReady: () => void): void {
    if (typeof message !== 'object' || message === null) return broken(child);
    if (message.type === 'ready') return onReady();
    const running = typeof message.id === 'number' ? child.jobs.get(message.id) : undefined;
    if (message.type === 'request') {
      // A body's parts stop once the render is over: its page is closed, and no one gathers them.
      const live = () => !running?.settled;
      const answer = (reply: GateAnswer) => sendAnswer((part) => post(child, part), message.rid, reply, live);
      if (!running || !validRequest(message.request)) return void answer(null);
      // The answer goes within the request's turn (gate.ts); a request that failed or never had a turn gets a network error.
      void answerAsync(gate, running.job, message.request, running.ends.signal, answer).catch((error: unknown) => {
        if (error instanceof UpstreamFault) running.fault ??= error.message;
        return answer(null);
      });
      return;
    }
    if (message.type !== 'done' && message.type !== 'failed') return broken(child);
    if (!running) return;
    const result = message.type === 'done' ? checkedResult(message.result) : null;
    if (message.type === 'done' && !result) return broken(child);
    child.jobs.delete(message.id);
    holdOpen(child);
    if (result || message.type === 'done') return finish(running, null, result ?? undefined);
    const code = typeof message.code === 'string' && CODES.has(message.code) ? (message.code as SnapshotErrorCode) : 'RENDER_FAILED';
    finish(running, new SnapshotError(code, printable(String(message.message))));
  }

  async function renderOn(child: Child, job: RenderJob): Promise<RenderResult> {
    const id = nextId++;
    const { location } = job;
    return new Promise<RenderResult>((resolve, reject) => {
      const running: Running = { job, resolve, reject, ends: new AbortController(), settled: false, sent: false };
      child.jobs.set(id, running);
      holdOpen(child);
      const stopped = () =>
        kill(child, (r) =>
          r === running
            ? new SnapshotError(
                'TIMEOUT',
                `the page of ${location} did not yield within ${timeoutMs} ms (a script that never returns?); its process was stopped`,
              )
            : new SnapshotError('RENDER_FAILED', `the page process of ${r.job.location} was stopped: another page on it stopped answering`),
        );
      const onAbort = () => {
        const reason = job.signal.reason as unknown;
        finish(running, reason instanceof Error ? reason : new SnapshotError('TIMEOUT', `the render of ${location} was aborted`));
        if (!running.sent) {
          child.jobs.delete(id);
          return holdOpen(child);
        }
        if (isolate) return kill(child, () => new SnapshotError('RENDER_FAILED', 'aborted'));
        // The process closes the page; one that cannot within GRACE_MS is stuck, and is killed.
        void post(child, { type: 'abort', id });
        running.timer = setTimeout(stopped, GRACE_MS);
      };
      job.signal.addEventListener('abort', onAbort, { once: true });
      running.ends.signal.addEventListener('abort', () => job.signal.removeEventListener('abort', onAbort), { once: true });
      const { url, canonical, notFound, settings } = job;
      const started = () => {
        if (running.settled || child.dead) return;
        running.sent = true;
        running.timer = setTimeout(stopped, timeoutMs + GRACE_MS);
        void post(child, {
          type: 'render',
          id,
          job: { location, url, canonical, notFound, noindex: matchNoindex(job.match), settings: { ...settings } },
        });
      };
      child.ready.then(started, (error: unknown) => finish(running, error));
    });
  }

  function childFor(): Child {
    for (const child of children) if (!child.dead && (!isolate || child.jobs.size === 0)) return child;
    return startChild();
  }

  async function renderPage(job: RenderJob): Promise<RenderResult> {
    job.signal.throwIfAborted();
    open++;
    try {
      return await renderOn(childFor(), job);
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
      const running = [...children];
      await Promise.all(
        running.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.dead || child.process.exitCode !== null) return resolve();
              child.process.once('exit', () => resolve());
              child.process.ref();
              kill(child, (r) => new SnapshotError('RENDER_FAILED', `the renderer was closed while ${r.job.location} rendered`));
            }),
        ),
      );
    },
  };
}
