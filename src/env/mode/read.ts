// The mode as `process.env.NODE_ENV` gives it where there is a `process`: a Node process, or a
// browser build whose bundler wrote the mode into the text (the guard then folds away with the rest).
// Where there is none (a page with no bundler, a bundle made without writing the mode) the flag is
// false and nothing throws.
declare const process: { env: { NODE_ENV?: string } };

/** Whether long error texts and development checks are kept: NODE_ENV is not "production". */
export const DEV: boolean = typeof process > 'u' ? false : process.env.NODE_ENV !== 'production';
