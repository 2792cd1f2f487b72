/**
 * The cost of `work` as a ratio to `baseline`'s, each timed as the fastest of `runs` interleaved
 * runs: a test asserts the ratio, never a time, so a loaded machine (which slows both, and whose
 * pauses the fastest run leaves out) cannot fail it. A run repeats its work `repeat` times, so that
 * even work of microseconds is timed in whole ticks of the clock.
 */
export function costRatio(work: () => unknown, baseline: () => unknown, { runs = 7, repeat = 1 } = {}): number {
  const time = (fn: () => unknown) => {
    const started = performance.now();
    for (let i = 0; i < repeat; i++) fn();
    return performance.now() - started;
  };
  let worked = Infinity;
  let based = Infinity;
  for (let i = 0; i < runs; i++) {
    based = Math.min(based, time(baseline));
    worked = Math.min(worked, time(work));
  }
  // A floor of a microsecond a repeat: a baseline too fast to time cannot make any ratio infinite.
  return worked / Math.max(based, 0.001 * repeat);
}
