// Work that requests wait for, counted by who still waits: a request whose client has gone stops
// waiting at once, and when the last one has gone the work itself is aborted (its signal), so a
// render nobody will read frees its place in the queue. Without this, clients that ask for new
// states and hang up kept the render queue full, and a real crawler got 503.

import { SnapshotError } from '../errors.js';

/** Shared work per key. */
export interface Flights<T> {
  /**
   * The result of the work for `key`, started with `start` if none is under way; rejects with the
   * `signal`'s reason as soon as it aborts (the work goes on while others still wait).
   */
  join(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Keys with work under way. */
  readonly size: number;
}

interface Flight<T> {
  waiters: number;
  controller: AbortController;
  promise: Promise<T>;
}

/** True for the reason a flight is aborted with: everyone waiting for it has gone. */
export function isAbandoned(error: unknown): boolean {
  return error instanceof SnapshotError && error.code === 'ABANDONED';
}

/** Builds a set of flights. */
export function createFlights<T>(): Flights<T> {
  const flights = new Map<string, Flight<T>>();
  return {
    get size() {
      return flights.size;
    },
    join(key, start, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      let flight = flights.get(key);
      if (!flight) {
        const controller = new AbortController();
        const started: Flight<T> = { waiters: 0, controller, promise: Promise.resolve().then(() => start(controller.signal)) };
        started.promise
          .finally(() => {
            if (flights.get(key) === started) flights.delete(key);
          })
          .catch(() => {});
        flights.set(key, started);
        flight = started;
      }
      const joined = flight;
      joined.waiters++;
      return new Promise<T>((resolve, reject) => {
        let waiting = true;
        const leave = () => {
          if (!waiting) return;
          waiting = false;
          if (--joined.waiters === 0 && flights.get(key) === joined) {
            flights.delete(key);
            joined.controller.abort(new SnapshotError('ABANDONED', `every request for ${key} has gone`));
          }
          reject(signal?.reason);
        };
        const settle = (then: () => void) => {
          if (!waiting) return;
          waiting = false;
          signal?.removeEventListener('abort', leave);
          joined.waiters--;
          then();
        };
        signal?.addEventListener('abort', leave, { once: true });
        joined.promise.then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => settle(() => reject(error)),
        );
      });
    },
  };
}
