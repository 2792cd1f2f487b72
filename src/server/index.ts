// crawlable-router/server (Node 20+): ugly URLs answered with snapshots of the same state, from the
// route table's render hooks, from the real app in happy-dom, or from snapshots made ahead.

export { createSnapshotHandler } from './handler.js';
export type { CacheOptions, CleanUrls, Snapshot, SnapshotClient, SnapshotHandler, SnapshotHandlerOptions } from './handler.js';
export type { IsBot } from './http/bots.js';
export { headlessRenderer } from './headless/headless.js';
export type { HeadlessRenderer, HeadlessRendererOptions } from './headless/headless.js';
export { prerender } from './build/prerender.js';
export type { PrerenderFailure, PrerenderOptions, PrerenderRedirect, PrerenderReport } from './build/prerender.js';
export type { NotFoundPage } from './build/not-found-page.js';
export { sitemap } from './build/sitemap.js';
export type { SitemapFile, SitemapOptions } from './build/sitemap.js';
export { robotsTxt } from './build/robots.js';
export type { RobotsTxtOptions } from './build/robots.js';
export { memoryStore } from './cache/memory-store.js';
export type { InvalidateTarget } from './cache/cache.js';
export type { SnapshotLock, SnapshotStore, StoredSnapshot } from './cache/store.js';
export type { MemoryStore, MemoryStoreOptions } from './cache/memory-store.js';
export { fileStore } from './cache/file-store.js';
export type { FileStoreOptions } from './cache/file-store.js';
export { redisStore } from './cache/redis-store.js';
export type { RedisClientLike, RedisStore, RedisStoreOptions } from './cache/redis-store.js';
export { SnapshotError } from './errors.js';
export type { SnapshotErrorCode } from './errors.js';
export type { NodeHandler } from './http/node.js';
export type { ProgressStream } from './build/progress.js';
export type { QueueOptions } from './render/queue.js';
export type { OutletRenderer, OutletState, RenderJob, RenderResult, SnapshotRenderer } from './render/render.js';
export type { UrlSettings } from './urls.js';
