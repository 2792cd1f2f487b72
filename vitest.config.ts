import { defineConfig } from 'vitest/config';

// The core runs in the node environment so a stray `window` fails; DOM tests opt into happy-dom
// with a `// @vitest-environment happy-dom` line. `vitest --mode fuzz` (npm run fuzz) runs the
// fuzz properties with FUZZ_RUNS cases each (test/fuzz/runs.ts) and no per-test time limit.
export default defineConfig(({ mode }) => ({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: mode === 'fuzz' ? 0 : 20_000,
    env: mode === 'fuzz' ? { FUZZ_RUNS: process.env['FUZZ_RUNS'] ?? '20000' } : {},
  },
}));
