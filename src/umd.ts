// The browser bundle behind the `CrawlableRouter` global: the core and the client router, with path-to-regexp inside.
export * from './index.js';
export { createRouter } from './client/index.js';
