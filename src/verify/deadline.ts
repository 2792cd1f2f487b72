// The longest one state may take (`verify --timeout`): one deadline for all its work, its fetches
// (aborted through `signal`) and its browser loads (given what is left), so a slow state is
// reported and the crawl goes on.

/** The error a state past its deadline ends with. */
export class StateTimeout extends Error {}

/** One state's deadline. */
export interface Deadline {
  /** Aborts, with a StateTimeout, when the time is up. */
  signal: AbortSignal;
  /** Milliseconds left, at least 1. */
  remaining(): number;
  /** `work`, or a StateTimeout once the time is up, whichever comes first. */
  within<T>(work: Promise<T>): Promise<T>;
  /** Stops the clock. */
  end(): void;
}

/** The longest a timer waits: a longer setTimeout fires at once. */
const TIMER_MAX = 2 ** 31 - 1;

/** A deadline `ms` milliseconds from now. */
export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const until = Date.now() + ms;
  const timer = setTimeout(
    () => controller.abort(new StateTimeout(`the state took longer than ${ms} ms, the longest one state may take (verify --timeout)`)),
    Math.min(ms, TIMER_MAX),
  );
  const late = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason)));
  // Nobody may be racing it when the time is up.
  late.catch(() => {});
  return {
    signal: controller.signal,
    remaining: () => Math.max(1, Math.min(until - Date.now(), TIMER_MAX)),
    within: (work) => Promise.race([work, late]),
    end: () => clearTimeout(timer),
  };
}
