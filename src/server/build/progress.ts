// Prerender progress: a bar redrawn in place on a terminal, one plain line per state otherwise
// (logs and CI). Failures always get a line of their own, their reason (and a bad record's params)
// made printable: an app's error may quote what its data holds, and no escape sequence reaches the
// terminal from there.

import { printable } from '../printable.js';

/** Where progress is written: `process.stderr`, or any object with `write`. */
export interface ProgressStream {
  write(text: string): unknown;
  /** True for a terminal: draw a bar. */
  isTTY?: boolean | undefined;
  /** The terminal's width. */
  columns?: number | undefined;
}

/** Tells progress about each state done. */
export interface Progress {
  /** One state done; `error` when it failed, `skipped` (why) when it was not written but did not fail (a redirect). */
  step(location: string, error?: string, skipped?: string): void;
  /** All done: the summary line. */
  end(summary: string): void;
}

const WIDTH = 24;

/** `n` and the noun, singular for one: `1 state`, `2 states`, `3 entries` with `plural` given. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

const REDRAW_MS = 80;

// A bad entries() record is named by its params, which the app's data chose (JSON leaves DEL and C1
// as they are): printable, and whole, as a location is.
const shown = (state: string) => printable(state, Infinity);

/** Progress over `total` states on `stream`; silent without a stream. */
export function createProgress(stream: ProgressStream | undefined, total: number): Progress {
  if (!stream) return { step() {}, end() {} };
  let done = 0;
  if (!stream.isTTY) {
    const width = String(total).length;
    return {
      step(state, error, skipped) {
        done++;
        const location = shown(state);
        const [word, why] = error !== undefined ? ['FAILED', error] : skipped !== undefined ? ['SKIPPED', skipped] : ['ok', undefined];
        stream.write(`[${String(done).padStart(width)}/${total}] ${word} ${location}${why === undefined ? '' : `: ${printable(why)}`}\n`);
      },
      end(summary) {
        stream.write(summary + '\n');
      },
    };
  }
  let drawn = 0;
  let last = '';
  const draw = () => {
    const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
    const text = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total} ${last}`;
    stream.write(`\r\x1b[2K${text.slice(0, Math.max(20, (stream.columns ?? 80) - 1))}`);
    drawn = Date.now();
  };
  return {
    step(state, error, skipped) {
      done++;
      const location = (last = shown(state));
      if (error !== undefined) stream.write(`\r\x1b[2KFAILED ${location}: ${printable(error)}\n`);
      else if (skipped !== undefined) stream.write(`\r\x1b[2KSKIPPED ${location}: ${printable(skipped)}\n`);
      if (error !== undefined || skipped !== undefined || done === total || Date.now() - drawn >= REDRAW_MS) draw();
    },
    end(summary) {
      draw();
      stream.write(`\n${summary}\n`);
    },
  };
}
