import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

// The core runs in the node environment so a stray `window` fails; DOM tests opt into happy-dom
// with a `// @vitest-environment happy-dom` line. `vitest --mode fuzz` (npm run fuzz) runs the
// fuzz properties with FUZZ_RUNS cases each (test/fuzz/runs.ts) and no per-test time limit.
//
// Four projects, all run by `npm test`: `unit` and `unit-own-modules` (`npm run test:unit`), every
// test file that needs nothing but `npm ci` and is not one of the long checks; `heavy` and
// `heavy-own-process` (OWN_PROCESS), the files listed in HEAVY. A unit file that loads the build,
// the demo, playwright-core, puppeteer-core or redis fails at once (unitOnly), naming HEAVY: a file
// cannot pass as a unit test in a worktree that has dist/ and fail in a clean clone.

/** The test files that need the build (dist/, bin/), the demo's build, Chromium, Firefox or Redis, a worker process (not a thread), and the long checks. */
const HEAVY = [
  // The long checks: the fuzz properties (`npm run fuzz` runs them longer) and the formatting of
  // every source file (prettier over some 250 files).
  'test/fuzz/*.test.ts',
  // dist/: page processes start from dist/server/headless/child.js, and the package as published.
  'test/browser-field.test.ts',
  'test/exports.test.ts',
  'test/size.test.ts',
  'test/umd.test.ts',
  'test/faults/headless.test.ts',
  'test/fuzz/renderers-agree.test.ts',
  'test/server/outcomes.test.ts',
  'test/server/build-id.test.ts',
  'test/server/headless/boundary.test.ts',
  'test/server/headless/headless.test.ts',
  'test/server/headless/linked.test.ts',
  'test/server/headless/nested.test.ts',
  'test/server/headless/pool.test.ts',
  'test/server/headless/redirects.test.ts',
  'test/server/headless/snapshot-check.test.ts',
  'test/cli/index.test.ts',
  'test/bench/load.test.ts',
  // Chromium (and the demo's or the package's build it loads).
  'test/esm.test.ts',
  'test/client/pinned.test.ts',
  'test/demo/browser.test.ts',
  'test/demo/clean-urls.test.ts',
  'test/demo/crawl.test.ts',
  'test/demo/no-js-crawl.test.ts',
  'test/verify/browser.test.ts',
  // Firefox (Debian's firefox-esr, through puppeteer-core), and the package's build it loads.
  'test/client/firefox.test.ts',
  // Chromium and Firefox, each file's tests once in each (test/client/browsers.ts).
  'test/client/attacks.test.ts',
  'test/client/clobber.test.ts',
  'test/client/history-property.test.ts',
  'test/client/lite-parity.test.ts',
  'test/client/navigation-api.test.ts',
  'test/client/snapshot-head.test.ts',
  // The Vite plugin and the React binding, through the built package linked into an app.
  'test/vite/*.test.ts',
  'test/react/bundle.test.ts',
  'test/react/types.test.ts',
  'test/types/exact.test.ts',
  'test/docs/vite.test.ts',
  'test/docs/react.test.ts',
  // The example app (examples/), built with Vite, served by its Express server, opened in Chromium.
  'test/examples/*.test.ts',
  // Measured in the process's CPU time, which the unit project's threads would share.
  'test/server/handler-cpu.test.ts',
  // Redis (redis-server, started by the tests).
  'test/docs/deploying.test.ts',
  'test/server/cache/fleet.test.ts',
  'test/server/cache/redis-store.test.ts',
];
/**
 * Unit files that replace a module for themselves (vi.mock): the unit project's files share one module
 * registry per worker, where a replaced module would be the real one for whichever file loaded it first.
 */
const OWN_MODULES = ['test/server/html/shell.test.ts'];
/**
 * Heavy files that need a process of their own: the ones that stub NODE_ENV to "production" (the first
 * require of React in a process picks its production build, which has no `act`, for the rest of that
 * process), and the one that measures the process's CPU time.
 */
const OWN_PROCESS = [
  'test/browser-field.test.ts',
  'test/react/bundle.test.ts',
  'test/examples/react-vite.test.ts',
  // It measures the process's CPU time (process.cpuUsage), which an earlier file's leftovers (its
  // garbage, its closing servers) would share in a worker's process.
  'test/server/handler-cpu.test.ts',
];

for (const file of [...HEAVY, ...OWN_MODULES, ...OWN_PROCESS])
  if (!file.includes('*') && !existsSync(file)) throw new Error(`vitest.config.ts lists ${file}, which is not there`);

/** How long one test may take before it is taken for hung (test/liveness.ts waits less, so its own message fails first). */
const TEST_LIMIT_MS = 120_000;

const root = fileURLToPath(new URL('.', import.meta.url));
/** What a unit test may not load: the build, the demo (its server runs on the build), Chromium's and Firefox's drivers, Redis's client. */
const OFF_LIMITS = [
  { what: 'the build', path: `${root}dist/` },
  { what: 'the demo', path: `${root}demo/` },
  { what: 'bin/ (the build)', path: `${root}bin/` },
  { what: 'playwright-core (Chromium)', path: '/node_modules/playwright-core/' },
  { what: 'puppeteer-core (Firefox)', path: '/node_modules/puppeteer-core/' },
  { what: 'redis', path: '/node_modules/redis/' },
  { what: 'redis', path: '/node_modules/@redis/' },
];

/** Fails a unit test file that loads what `npm ci` alone does not give (or what needs a program it does not install). */
function unitOnly(): Plugin {
  return {
    name: 'unit-only',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const id = resolved?.id ?? source;
      const off =
        OFF_LIMITS.find(({ path }) => id.includes(path)) ??
        (/^crawlable-router(\/|$)/.test(source)
          ? { what: 'the build' }
          : /^(playwright-core|puppeteer-core|redis|@redis\/)/.test(source)
            ? { what: source }
            : null);
      if (off)
        throw new Error(
          `a unit test may not load ${off.what} (${source}, from ${importer}): list the test file in vitest.config.ts's HEAVY`,
        );
      return resolved;
    },
  };
}

export default defineConfig(({ mode }) => ({
  test: {
    environment: 'node',
    // A test's time limit is for liveness only: a hang fails, a busy machine (load 20 on two cores) does not.
    testTimeout: mode === 'fuzz' ? 0 : TEST_LIMIT_MS,
    // And a hook's (beforeAll starting a server, a browser, a build): vitest's default is 10 s.
    hookTimeout: mode === 'fuzz' ? 0 : TEST_LIMIT_MS,
    // Two files at once. Vitest's default is a worker fewer than the CPUs: one file at a time on the
    // two cores the suite is measured on, where most files wait on child processes, Chromium or Redis.
    maxWorkers: 2,
    env: mode === 'fuzz' ? { FUZZ_RUNS: process.env['FUZZ_RUNS'] ?? '20000' } : {},
    projects: [
      // Threads: a file's worker starts faster than a process, and unit tests need no process of their
      // own. Not isolated: each worker loads the sources and test helpers once for all its files (a third
      // of the project's time went to loading them again per file), so a unit file restores what it
      // changes (spies, globals, timers), and one that replaces a module is in OWN_MODULES.
      {
        extends: true,
        plugins: [unitOnly()],
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...HEAVY, ...OWN_MODULES], pool: 'threads', isolate: false },
      },
      { extends: true, plugins: [unitOnly()], test: { name: 'unit-own-modules', include: OWN_MODULES, pool: 'threads' } },
      // A process per worker (forks: the default), for the files that start servers, browsers and
      // children. Not isolated either, for the same reason: a fresh process per file loaded vitest,
      // the sources and playwright-core again each time. A heavy file stops what it starts and puts
      // back what it changes (process.env through vi.unstubAllEnvs, the working directory), but for
      // what outlives it in the process: those files are in OWN_PROCESS.
      { extends: true, test: { name: 'heavy', include: HEAVY, exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'heavy-own-process', include: OWN_PROCESS } },
    ],
  },
}));
