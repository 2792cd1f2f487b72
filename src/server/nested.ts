// Renders never nest. A page being rendered may fetch URLs of the server that renders it (an
// `upstream` that is the server itself, or a proxy in front of it): were one that fetches other
// states' ugly URLs to render them, each render would wait for a slot its ancestors hold, and the
// queue would stand still until their timeouts. The headless
// gate marks every request it sends upstream with RENDER_HEADER, set by the server's process whatever
// the page sent; the snapshot handler, for a request that carries it, serves a cached snapshot and
// never starts a render or waits for one (render/snapshot-answer.ts): 508 Loop Detected. A client
// outside that sends the header only denies itself renders.

import type { Ask } from './http/exchange.js';

/** The header the headless gate sets on every request a page being rendered sends to `upstream` (value `1`). */
export const RENDER_HEADER = 'crawlable-router-render';

/** Whether a request was made by a page being rendered: it carries RENDER_HEADER, whatever its value. */
export const isNested = (request: Ask): boolean => request.header(RENDER_HEADER) !== null;
