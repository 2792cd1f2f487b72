// Replaces src/env/dev.ts in an app's browser build (package.json's "browser" field). The flag comes
// from package.json's "#build-mode" import, by the conditions the bundler resolves: `development`
// (src/env/mode/development.ts) or `production` (mode/production.ts) where it sets them, as Vite and
// webpack do; otherwise (Rollup's node-resolve, esbuild) the mode it writes into
// `process.env.NODE_ENV` (mode/read.ts), and false, not a ReferenceError, where it writes none.

/** Whether long error texts and development checks are kept: the app's build mode. */
export { DEV } from '#build-mode';
