// How long each property runs. In `npm test` every property has its own fixed seed and a run count
// sized to take a few seconds at most; `npm run fuzz` (vitest's `fuzz` mode, vitest.config.ts) runs
// the same properties with FUZZ_RUNS cases each (default 20,000). FUZZ_SEED shifts every seed, to
// explore new cases; a failure prints the seed and path that replay it.

const longRuns = Number(process.env['FUZZ_RUNS']);
const seedShift = Number(process.env['FUZZ_SEED'] ?? 0);

/** True when FUZZ_RUNS asks for a long run. */
export const fuzzing = Number.isInteger(longRuns) && longRuns > 0;

/**
 * fast-check parameters for one property: `runs` cases in `npm test`, FUZZ_RUNS under `npm run fuzz`.
 * `cost` is how many cheap cases one case of this property is worth (a 50 kB input, a recheck call):
 * a long run gives it FUZZ_RUNS / cost cases, never fewer than `npm test` does.
 */
export function fuzz(seed: number, runs: number, cost = 1): { seed: number; numRuns: number } {
  if (!Number.isInteger(seedShift)) throw new TypeError(`FUZZ_SEED must be an integer, got ${process.env['FUZZ_SEED']}`);
  return { seed: seed + seedShift, numRuns: fuzzing ? Math.max(runs, Math.ceil(longRuns / cost)) : runs };
}
