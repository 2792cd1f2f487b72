// The development flag of an app's browser build, which package.json's "browser" field puts in the
// place of src/env/dev.ts. Every browser bundler (Vite, webpack, esbuild, Parcel; Rollup with
// @rollup/plugin-replace) replaces `process.env.NODE_ENV` with the build's mode: "development" keeps
// the long error texts and the development checks, "production" folds `DEV` to `false` and the
// minifier drops them. src/env/dev.ts guards against a missing `process`, which a browser never has,
// so under a bundler it read false in development builds too.
declare const process: { env: { NODE_ENV?: string } };

/** Whether long error texts and development checks are kept: the app's build mode, as its bundler writes it. */
export const DEV: boolean = process.env.NODE_ENV !== 'production';
