// Timing helpers: warm-up, several rounds, medians. Every figure the benchmarks print is a ratio
// between two such medians taken in the same run on the same machine.
import os from 'node:os';

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Nanoseconds per call of `fn(i)`: `warmup` calls first, then `rounds` rounds of `iterations` calls,
 * the median round reported. `fn` gets the call's index so it can walk a list of inputs.
 */
export function nsPerCall(fn, { iterations = 20_000, rounds = 7, warmup = iterations } = {}) {
  let sink = 0;
  for (let i = 0; i < warmup; i++) sink ^= fn(i) ? 1 : 0;
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink ^= fn(i) ? 1 : 0;
    times.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  if (sink === 2) console.log('');
  return median(times);
}

/** One line describing this machine, for the header of every result. */
export function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

/** Formats a number of nanoseconds, or bytes, for a table. */
export function fmt(n) {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}
