// Renders are expensive (a headless page is tens of ms and megabytes), so only `concurrency` run at
// once and at most `maxWaiting` wait; past that the server sheds load with 503 + Retry-After
// instead of queueing without bound.

import { SnapshotError } from './errors.js';

/** Options of the render queue. */
export interface QueueOptions {
  /** Renders that run at once. Default 4. */
  concurrency?: number;
  /** Renders that may wait for a turn; one more is refused (503). Default 100. */
  maxWaiting?: number;
  /** What the 503's `Retry-After` says, in seconds. Default 5. */
  retryAfterSeconds?: number;
}

/** A bounded queue of async tasks. */
export interface RenderQueue {
  /** Runs `task` when a slot frees; throws `SnapshotError` BUSY at once when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running. */
  readonly active: number;
  /** Tasks waiting. */
  readonly waiting: number;
}

function count(value: number | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined) return fallback;
  if (!(value >= min) || (value !== Infinity && !Number.isInteger(value))) {
    throw new SnapshotError('BAD_OPTION', `${name} must be an integer of at least ${min}, got ${String(value)}`);
  }
  return value;
}

/** Builds a queue that runs at most `concurrency` tasks and holds at most `maxWaiting` more. */
export function createQueue(options: QueueOptions = {}): RenderQueue {
  const concurrency = count(options.concurrency, 4, 'queue.concurrency', 1);
  const maxWaiting = count(options.maxWaiting, 100, 'queue.maxWaiting', 0);
  const waiters: Array<() => void> = [];
  let active = 0;

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
    async run(task) {
      if (active >= concurrency) {
        if (waiters.length >= maxWaiting) {
          throw new SnapshotError('BUSY', `${active} snapshots are rendering and ${waiters.length} are waiting: the render queue is full`);
        }
        // The slot passes straight from the task that ends to the waiter: `active` does not change.
        await new Promise<void>((resolve) => waiters.push(resolve));
      } else active++;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
