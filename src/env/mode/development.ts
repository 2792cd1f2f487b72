// The flag of a browser build whose bundler resolves the `development` condition (Vite's dev server
// and development builds, webpack's `mode: 'development'`): package.json's "#build-mode" import.

/** Long error texts and development checks are kept. */
export const DEV: boolean = true;
