import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The names each entry point exports, from the built files, through the package's own exports map.
const core = [
  'CodecError',
  'RouteError',
  'createRoutes',
  'escapeFragment',
  'isPrettyUrl',
  'isUglyUrl',
  'route',
  'toLocation',
  'toPrettyUrl',
  'toUglyUrl',
  'toUrl',
  'unescapeFragment',
];

const client = ['createRouter'];
const server = ['SnapshotError', 'createSnapshotHandler', 'fileStore', 'headlessRenderer', 'memoryStore', 'prerender', 'redisStore', 'robotsTxt', 'sitemap'];

const require = createRequire(import.meta.url);
const names = (module: object) => Object.keys(module).filter((k) => k !== 'default' && k !== '__esModule').sort();

describe('entry points', () => {
  it('crawlable-router exports the core, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router'))).toEqual(core);
    expect(names(require('crawlable-router') as object)).toEqual(core);
  });

  it('crawlable-router/client exports the router, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/client'))).toEqual(client);
    expect(names(require('crawlable-router/client') as object)).toEqual(client);
    expect(readFileSync('dist/client.d.ts', 'utf8')).toContain('declare function createRouter');
    expect(readFileSync('dist/client.d.cts', 'utf8')).toContain('declare function createRouter');
  });

  it('crawlable-router/server exports the snapshot server, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/server'))).toEqual(server);
    expect(names(require('crawlable-router/server') as object)).toEqual(server);
    expect(readFileSync('dist/server.d.ts', 'utf8')).toContain('declare function createSnapshotHandler');
    expect(readFileSync('dist/server.d.cts', 'utf8')).toContain('declare function createSnapshotHandler');
  });

  it('the package.json points unpkg at the minified UMD file and declares no side effects', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
    expect(pkg['unpkg']).toBe('./dist/crawlable-router.umd.min.js');
    expect(pkg['sideEffects']).toBe(false);
    expect(readFileSync('dist/index.d.ts', 'utf8')).toContain('declare function createRoutes');
    expect(readFileSync('dist/index.d.cts', 'utf8')).toContain('declare function createRoutes');
  });
});
