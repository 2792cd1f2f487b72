import { defineConfig } from 'vitest/config';

// The core runs in the node environment so a stray `window` fails; DOM tests opt into happy-dom
// with a `// @vitest-environment happy-dom` line.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
