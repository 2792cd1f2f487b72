// The browser bundle behind the `CrawlableRouter` global: the core, with path-to-regexp inside.
export * from './index.js';
