// Renders are expensive (a headless page is tens of ms and megabytes), so only `concurrency` run at
// once and at most `maxWaiting` wait; past that the server sheds load with 503 + Retry-After
// instead of queueing without bound. A render that passed its time (or whose every client left)
// gives its slot back at once, but while its work still runs (a `load` that ignores its signal) it is
// counted: at `concurrency + maxWaiting` of those, new renders are refused too, so a slow backend and
// a visitor who asks for new states cannot pile up work without bound. Work still running
// `forgetMs` later is taken for work that never ends (a promise no one settles) and no longer
// counted, so such loads cost a while of 503s, not an outage until the process restarts.

import { countOption, SnapshotError } from '../errors.js';

/** Options of the render queue. */
export interface QueueOptions {
  /** Renders that run at once. Default 4. */
  concurrency?: number | undefined;
  /** Renders that may wait for a turn; one more is refused (503). Default 100. */
  maxWaiting?: number | undefined;
  /** What the 503's `Retry-After` says, in seconds. Default 5. */
  retryAfterSeconds?: number | undefined;
}

/** A bounded queue of async tasks. */
export interface RenderQueue {
  /** Runs `task` when a slot frees; throws `SnapshotError` BUSY at once when the queue is full. A task whose `signal` aborts while it waits leaves the queue (rejecting with the signal's reason). */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Counts `work`, a task's own promise that ran past its time, until it settles or `forgetMs` have passed. */
  overran(work: Promise<unknown>, forgetMs: number): void;
  /** Tasks running. */
  readonly active: number;
  /** Tasks waiting. */
  readonly waiting: number;
}

/** A bound of the queue: `fallback` when not given, else a whole number of at least `min`, or Infinity. */
const count = (value: number | undefined, fallback: number, name: string, min: number): number =>
  value === undefined ? fallback : countOption(value, name, min, true);

/** Builds a queue that runs at most `concurrency` tasks and holds at most `maxWaiting` more. */
export function createQueue(options: QueueOptions = {}): RenderQueue {
  const concurrency = count(options.concurrency, 4, 'queue.concurrency', 1);
  const maxWaiting = count(options.maxWaiting, 100, 'queue.maxWaiting', 0);
  const waiters: Array<() => void> = [];
  let active = 0;
  let overrunning = 0;

  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else active--;
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
    overran(work, forgetMs) {
      overrunning++;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const end = () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        timer = undefined;
        overrunning--;
      };
      // setTimeout takes at most 2^31 - 1 ms (a longer delay fires at once).
      timer = setTimeout(end, Math.min(forgetMs, 2 ** 31 - 1));
      timer.unref?.();
      work.then(end, end);
    },
    async run(task, signal) {
      signal?.throwIfAborted();
      if (overrunning >= concurrency + maxWaiting) {
        throw new SnapshotError('BUSY', `${overrunning} renders ran past their time and still run: no new render starts until they end`);
      }
      if (active >= concurrency) {
        if (waiters.length >= maxWaiting) {
          throw new SnapshotError('BUSY', `${active} snapshots are rendering and ${waiters.length} are waiting: the render queue is full`);
        }
        // The slot passes straight from the task that ends to the waiter: `active` does not change.
        // A waiter whose signal aborts leaves its place to others (its client has gone).
        await new Promise<void>((resolve, reject) => {
          const leave = () => {
            waiters.splice(waiters.indexOf(turn), 1);
            reject(signal?.reason);
          };
          const turn = () => {
            signal?.removeEventListener('abort', leave);
            resolve();
          };
          waiters.push(turn);
          signal?.addEventListener('abort', leave, { once: true });
        });
      } else active++;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
