// The server's one error type. On the wire the HTTP status is the error; this class is what
// `render()`, `prerender()` and the option checks throw, with a `code` to branch on. The checks
// every entry of the server shares live here too: an options object and its names, numbers.

import { misspeltOption } from '../contract/option-names.js';

/** What a `SnapshotError` is about. */
export type SnapshotErrorCode =
  | 'BAD_OPTION'
  | 'BAD_SHELL'
  | 'UNSAFE_PATH'
  | 'PATH_COLLISION'
  | 'TIMEOUT'
  | 'BUSY'
  | 'ABANDONED'
  | 'LIMITED'
  | 'RENDER_FAILED'
  | 'DATA_NOT_JSON'
  | 'BUILD_MISMATCH'
  | 'REQUEST_ENDED'
  | 'BAD_NONCE';

/**
 * A numeric option above 0 (Infinity too), or `fallback` when it is not given. Text is refused, not
 * coerced: an environment variable's '5000' would make `'5000' + 1000` a lock of 50001000 ms. Internal.
 */
export function positiveOption(value: unknown, fallback: number, name: string, what = 'a number'): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0))
    throw new SnapshotError(
      'BAD_OPTION',
      `${name} must be ${what} above 0, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  return value;
}

/**
 * `value` when it is a whole number of at least `min` (or, where `infinite`, Infinity: no bound),
 * else a BAD_OPTION naming the option. Internal.
 */
export function countOption(value: number, name: string, min: number, infinite = false): number {
  if (!(value >= min) || !(Number.isInteger(value) || (infinite && value === Infinity)))
    throw new SnapshotError('BAD_OPTION', `${name} must be an integer of at least ${min}, got ${String(value)}`);
  return value;
}

/**
 * `options` when it is an object, else a BAD_OPTION saying what `call` takes: a call from JavaScript
 * with none (or null) gets that, not a destructuring TypeError. Given every option's name (`known`),
 * a misspelt one is a BAD_OPTION too, naming the option meant (src/contract/option-names.ts). Internal.
 */
export function optionsOf<T>(options: T, call: string, takes: string, known?: Record<string, unknown>): T {
  if (typeof options !== 'object' || options === null)
    throw new SnapshotError('BAD_OPTION', `${call} takes an options object (${takes}), got ${options === null ? 'null' : typeof options}`);
  const slip = known && misspeltOption(options, known);
  if (slip) throw new SnapshotError('BAD_OPTION', `${call}: ${slip}`);
  return options;
}

/** A snapshot that could not be made, or an option that cannot work; `code` names which. */
export class SnapshotError extends Error {
  /** The kind of error. */
  readonly code: SnapshotErrorCode;

  constructor(code: SnapshotErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SnapshotError';
    this.code = code;
  }
}
