// The development flag. Long error texts and development-only checks sit behind `DEV`, so that an
// app's bundler, which replaces `process.env.NODE_ENV` with "production", lets the minifier drop
// them: the whole expression folds to `false`. This file is for Node (the server, the tests, a
// Node build) and for a page that imports the modules with no bundler, where there is no `process`
// and the short texts are used; an app's browser build takes src/env/dev.browser.ts in its place
// (package.json's "browser" field), which reads the mode the bundler writes. Every error keeps its
// `code` either way.
declare const process: { env: { NODE_ENV?: string } };

/** Whether long error texts and development checks are kept (false once bundled for production). */
export const DEV: boolean = typeof process > 'u' ? false : process.env.NODE_ENV !== 'production';
