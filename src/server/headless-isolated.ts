// `headlessRenderer({ isolate: true })`: each page on a worker thread of its own (headless-thread.ts
// runs the in-process renderer there, one page at a time). happy-dom runs a page's scripts on its
// caller's thread, so a script that never returns stops every timer on that thread; here it stops
// only its own thread, which is terminated when the render is aborted (the handler's timeoutMs) or
// passes the renderer's timeoutMs by GRACE_MS. Threads are kept for the next render, at most
// `maxPages` of them, unref'd so an idle one never keeps the process alive.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SnapshotError, type SnapshotErrorCode } from './errors.js';
import type { HeadlessRenderer, HeadlessRendererOptions } from './headless.js';
import { createQueue } from './queue.js';
import type { RenderJob, RenderResult } from './render.js';

/** How long past its own timeoutMs a page's thread may stay silent before it is terminated. */
const GRACE_MS = 1000;

/** What a page thread says: `started` once it takes a job, then `html` or `error`. */
type ThreadMessage = { started: true } | { result: RenderResult } | { error: { code: string; message: string } };

const CODES = new Set<string>(['BAD_OPTION', 'BAD_SHELL', 'UNSAFE_PATH', 'TIMEOUT', 'BUSY', 'RENDER_FAILED']);

type Checked = HeadlessRendererOptions & Required<Pick<HeadlessRendererOptions, 'timeoutMs' | 'maxPages' | 'pageErrors'>>;

/** The renderer of `isolate: true`, from options `headlessRenderer` has already checked. */
export function isolatedRenderer(options: Checked): HeadlessRenderer {
  const file = new URL('./headless-thread.js', import.meta.url);
  if (file.protocol !== 'file:' || !existsSync(fileURLToPath(file))) {
    throw new SnapshotError('BAD_OPTION', `isolate needs the built package: ${file.href} is missing (it cannot run from the TypeScript sources)`);
  }
  const { memoryLimitMb, timeoutMs } = options;
  if (memoryLimitMb !== undefined && !(memoryLimitMb >= 16)) throw new SnapshotError('BAD_OPTION', `memoryLimitMb must be at least 16, got ${String(memoryLimitMb)}`);
  const workerData = { root: options.root, index: options.index, upstream: options.upstream, timeoutMs, pageErrors: options.pageErrors };
  const pages = createQueue({ concurrency: options.maxPages, maxWaiting: Infinity });
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  let open = 0;

  function spawn(): Worker {
    const worker = new Worker(file, { workerData, resourceLimits: memoryLimitMb ? { maxOldGenerationSizeMb: memoryLimitMb } : undefined });
    worker.unref();
    all.add(worker);
    // A thread that ends on its own (its memory limit) must not stay in the pool, and an error from
    // an idle thread (no render listening) must end that thread, not the process: a Worker's
    // 'error' event with no listener is thrown in the main thread.
    worker.once('exit', () => all.delete(worker));
    worker.on('error', () => end(worker));
    return worker;
  }

  function end(worker: Worker): void {
    all.delete(worker);
    void worker.terminate();
  }

  function renderOn(worker: Worker, job: RenderJob): Promise<RenderResult> {
    const { location, url, canonical, notFound, settings } = job;
    return new Promise<RenderResult>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        job.signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: unknown) => {
        cleanup();
        end(worker);
        reject(error);
      };
      const onMessage = (message: ThreadMessage) => {
        if ('started' in message) {
          timer = setTimeout(() => fail(new SnapshotError('TIMEOUT', `the page of ${location} did not yield within ${timeoutMs} ms (a script that never returns?); its thread was stopped`)), timeoutMs + GRACE_MS);
          return;
        }
        cleanup();
        idle.push(worker);
        if ('result' in message) return resolve(message.result);
        const code = (CODES.has(message.error.code) ? message.error.code : 'RENDER_FAILED') as SnapshotErrorCode;
        reject(new SnapshotError(code, message.error.message));
      };
      const onError = (error: Error) => fail(new SnapshotError('RENDER_FAILED', `the page thread of ${location} failed: ${error.message}`, { cause: error }));
      const onExit = (exitCode: number) => fail(new SnapshotError('RENDER_FAILED', `the page thread of ${location} ended with exit code ${exitCode}`));
      const onAbort = () => fail(job.signal.reason);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      job.signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ location, url, canonical, notFound, settings: { ...settings } });
    });
  }

  async function renderPage(job: RenderJob): Promise<RenderResult> {
    job.signal.throwIfAborted();
    let worker = idle.pop();
    while (worker && !all.has(worker)) worker = idle.pop();
    open++;
    try {
      return await renderOn(worker ?? spawn(), job);
    } finally {
      open--;
    }
  }

  return {
    get openPages() {
      return open;
    },
    render: (job) => pages.run(() => renderPage(job)),
    async close() {
      idle.length = 0;
      const running = [...all];
      all.clear();
      await Promise.all(running.map((worker) => worker.terminate()));
    },
  };
}
