/**
 * The cost of `work` as a ratio to `baseline`'s, each timed as the fastest of `runs` interleaved
 * runs: a test asserts the ratio, never a time, so a loaded machine (which slows both, and whose
 * pauses the fastest run leaves out) cannot fail it. A run repeats `work` `repeat` times and
 * `baseline` `baselineRepeat` times (default `repeat`): give both runs about the same length, so a
 * preemption is as likely in either, and time even work of microseconds in whole ticks.
 */
export function costRatio(
  work: () => unknown,
  baseline: () => unknown,
  { runs = 9, repeat = 1, baselineRepeat = repeat }: { runs?: number; repeat?: number; baselineRepeat?: number } = {},
): number {
  const time = (fn: () => unknown, times: number) => {
    const started = performance.now();
    for (let i = 0; i < times; i++) fn();
    return performance.now() - started;
  };
  let worked = Infinity;
  let based = Infinity;
  for (let i = 0; i < runs; i++) {
    based = Math.min(based, time(baseline, baselineRepeat));
    worked = Math.min(worked, time(work, repeat));
  }
  // Per repeat, with a floor of a microsecond: a baseline too fast to time makes no ratio infinite.
  return worked / repeat / Math.max(based / baselineRepeat, 0.001);
}
