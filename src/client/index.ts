// crawlable-router/client: the browser router. pushState with a `#!` fallback over the same route
// table the snapshot server uses. Builds on the core; never on the server.

import { uglyState } from '../url/codec.js';
import { historyNav } from './history.js';
import { makeRouter } from './router.js';
import type { Router, RouterOptions } from './types.js';
import { createView } from './view.js';

/** Creates a router over the route table; nothing happens until `start()`. */
export function createRouter(options: RouterOptions): Router {
  return makeRouter(createView, uglyState, historyNav)(options);
}

// The public types, all of types.ts's.
export type * from './types.js';
