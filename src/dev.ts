// The development flag. Long error texts and development-only checks sit behind `DEV`, so that an
// app's bundler, which replaces `process.env.NODE_ENV` with "production", lets the minifier drop
// them: the whole expression folds to `false`. Where there is no `process` at all (a browser with no
// bundler, a worker) the short form is used. Node, the tests and the development UMD keep the long
// texts unless NODE_ENV is "production". Every error keeps its `code` either way.
declare const process: { env: { NODE_ENV?: string } };

/** Whether long error texts and development checks are kept (false once bundled for production). */
export const DEV: boolean = typeof process > 'u' ? false : process.env.NODE_ENV !== 'production';
