// crawlable-router/server (Node 20+): ugly URLs answered with snapshots of the same state, from the
// route table's render hooks, from the real app in happy-dom, or from snapshots made ahead.

export { createSnapshotHandler } from './handler.js';
export type { CacheOptions, CleanUrls, Snapshot, SnapshotClient, SnapshotHandler, SnapshotHandlerOptions } from './handler.js';
export type { IsBot } from './bots.js';
export { headlessRenderer } from './headless.js';
export type { HeadlessRenderer, HeadlessRendererOptions } from './headless.js';
export { prerender } from './prerender.js';
export type { PrerenderFailure, PrerenderOptions, PrerenderRedirect, PrerenderReport } from './prerender.js';
export { sitemap } from './sitemap.js';
export type { SitemapFile, SitemapOptions } from './sitemap.js';
export { robotsTxt } from './robots.js';
export type { RobotsTxtOptions } from './robots.js';
export { memoryStore } from './cache.js';
export type { InvalidateTarget, MemoryStore, MemoryStoreOptions, SnapshotLock, SnapshotStore, StoredSnapshot } from './cache.js';
export { fileStore } from './file-store.js';
export type { FileStoreOptions } from './file-store.js';
export { redisStore } from './redis-store.js';
export type { RedisClientLike, RedisStore, RedisStoreOptions } from './redis-store.js';
export { SnapshotError } from './errors.js';
export type { SnapshotErrorCode } from './errors.js';
export type { NodeHandler } from './node.js';
export type { ProgressStream } from './progress.js';
export type { QueueOptions } from './queue.js';
export type { RenderJob, RenderResult, SnapshotRenderer } from './render.js';
export type { UrlSettings } from './urls.js';
