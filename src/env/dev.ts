// The development flag. Long error texts and development-only checks sit behind `DEV`, so that a
// production build's minifier drops them: the flag folds to `false`. This file is for Node (the
// server, the tests, a Node build) and for a page that imports the modules with no bundler; an app's
// browser build takes src/env/dev.browser.ts in its place (package.json's "browser" field). Every
// error keeps its `code` either way.

import { DEV as READ } from './mode/read.js';

/** Whether long error texts and development checks are kept (false once bundled for production). */
export const DEV: boolean = READ;
