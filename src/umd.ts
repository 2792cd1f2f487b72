// The browser bundle behind the `CrawlableRouter` global: the core and the client router.
export * from './index.js';
export { createRouter } from './client/index.js';
