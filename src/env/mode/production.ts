// The flag of a browser build whose bundler resolves the `production` condition (Vite's and
// webpack's production builds): package.json's "#build-mode" import. The minifier drops what it guards.

/** Long error texts and development checks are dropped. */
export const DEV: boolean = false;
