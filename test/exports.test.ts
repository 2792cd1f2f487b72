import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The names each entry point exports, from the built files, through the package's own exports map.
const core = [
  'CodecError',
  'RouteError',
  'createRoutes',
  'escapeFragment',
  'isPrettyUrl',
  'isUglyUrl',
  'notFound',
  'redirect',
  'route',
  'toLocation',
  'toPrettyUrl',
  'toUglyUrl',
  'toUrl',
  'unescapeFragment',
];

const client = ['createRouter'];
const server = [
  'SnapshotError',
  'createSnapshotHandler',
  'fileStore',
  'headlessRenderer',
  'memoryStore',
  'prerender',
  'redisStore',
  'robotsTxt',
  'sitemap',
];
const react = ['Link', 'Outlet', 'RouterProvider', 'mount', 'route', 'useCurrent', 'useRouter'];
const reactServer = ['reactRenderer'];

const vite = ['crawlableRouter'];

const require = createRequire(import.meta.url);
const names = (module: object) =>
  Object.keys(module)
    .filter((k) => k !== 'default' && k !== '__esModule')
    .sort();

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

  it('crawlable-router/client/lite exports the lite router, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/client/lite'))).toEqual(client);
    expect(names(require('crawlable-router/client/lite') as object)).toEqual(client);
    expect(readFileSync('dist/client/lite.d.ts', 'utf8')).toContain('declare function createRouter');
    expect(readFileSync('dist/client/lite.d.cts', 'utf8')).toContain('declare function createRouter');
  });

  it('crawlable-router/server exports the snapshot server, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/server'))).toEqual(server);
    expect(names(require('crawlable-router/server') as object)).toEqual(server);
    expect(readFileSync('dist/server.d.ts', 'utf8')).toContain('declare function createSnapshotHandler');
    expect(readFileSync('dist/server.d.cts', 'utf8')).toContain('declare function createSnapshotHandler');
  });

  it('crawlable-router/vite exports the Vite plugin, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/vite'))).toEqual(vite);
    expect(names(require('crawlable-router/vite') as object)).toEqual(vite);
    expect(readFileSync('dist/vite.d.ts', 'utf8')).toContain('declare function crawlableRouter');
    expect(readFileSync('dist/vite.d.cts', 'utf8')).toContain('declare function crawlableRouter');
    // Vite is the app's (an optional peer): imported by name, never bundled.
    expect(readFileSync('dist/vite/preview.js', 'utf8')).toMatch(/from 'vite'/);
  });

  it('crawlable-router/react exports the React binding, and /react/server its renderer, as ESM and as CJS', async () => {
    expect(names(await import('crawlable-router/react'))).toEqual(react);
    expect(names(require('crawlable-router/react') as object)).toEqual(react);
    expect(names(await import('crawlable-router/react/server'))).toEqual(reactServer);
    expect(names(require('crawlable-router/react/server') as object)).toEqual(reactServer);
    for (const file of ['dist/react.d.ts', 'dist/react.d.cts'])
      // The core's types by name, not a copy: `Link` reads the brand of the app's `route()` routes.
      expect(readFileSync(file, 'utf8')).toMatch(
        /declare function Link[\s\S]*from 'crawlable-router';|from 'crawlable-router';[\s\S]*declare function Link/,
      );
    for (const file of ['dist/react/server.d.ts', 'dist/react/server.d.cts'])
      expect(readFileSync(file, 'utf8')).toContain('declare function reactRenderer');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string | { optional: boolean }>>;
    expect([pkg['peerDependencies']?.['react'], pkg['peerDependenciesMeta']?.['react']]).toEqual(['>=19', { optional: true }]);
    expect([pkg['peerDependencies']?.['react-dom'], pkg['peerDependenciesMeta']?.['react-dom']]).toEqual(['>=19', { optional: true }]);
  });

  it("reaches the client, client/lite, server, vite and react entries without the exports map too, through their folders (Parcel by default, TypeScript's node10)", () => {
    type Conditions = { import: { types: string; default: string }; require: { default: string } };
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[]; exports: Record<string, Conditions> };
    for (const [entry, exported] of [
      ['client', client],
      ['client/lite', client],
      ['server', server],
      ['vite', vite],
      ['react', react],
      ['react/server', reactServer],
    ] as const) {
      const folder = JSON.parse(readFileSync(`${entry}/package.json`, 'utf8')) as Record<string, string>;
      const via = (field: string) => './' + path.join(entry, folder[field] as string);
      const conditions = pkg.exports[`./${entry}`] as Conditions;
      expect([via('main'), via('module'), via('types')]).toEqual([
        conditions.require.default,
        conditions.import.default,
        conditions.import.types,
      ]);
      expect(pkg.files).toContain(entry.split('/')[0]);
      // A require of the folder itself, as a resolver that reads no exports map finds it.
      expect(names(require(path.resolve(entry)) as object)).toEqual(exported);
    }
  });

  it('reaches the UMD bundle through the exports map, minified and plain', () => {
    expect(require.resolve('crawlable-router/umd')).toMatch(/dist\/crawlable-router\.umd\.min\.js$/);
    expect(require.resolve('crawlable-router/umd/dev')).toMatch(/dist\/crawlable-router\.umd\.js$/);
    expect(readFileSync(require.resolve('crawlable-router/umd'), 'utf8')).toContain('CrawlableRouter');
  });

  it('ships what the README links to, with a license and a repository', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[]; repository: { url: string }; license: string };
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^MIT License/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    const readme = readFileSync('README.md', 'utf8');
    const local = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1] as string).filter((href) => !/^[a-z]+:/.test(href));
    for (const href of local) {
      expect(existsSync(href), `README links to ${href}`).toBe(true);
      expect(
        pkg.files.some((f) => href === f || href.startsWith(`${f}/`)) && !pkg.files.includes(`!${href}`),
        `${href} is in the package's files`,
      ).toBe(true);
    }
  });

  it('every link between the docs names a file of the repository', () => {
    for (const name of readdirSync('docs').filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(`docs/${name}`, 'utf8');
      for (const [, href] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(href as string)) continue;
        expect(existsSync(path.join('docs', href as string)), `docs/${name} links to ${href}`).toBe(true);
      }
    }
  });

  it('the package.json points unpkg at the minified UMD file and declares no side effects', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
    expect(pkg['unpkg']).toBe('./dist/crawlable-router.umd.min.js');
    expect(pkg['sideEffects']).toBe(false);
    expect(readFileSync('dist/index.d.ts', 'utf8')).toContain('declare function createRoutes');
    expect(readFileSync('dist/index.d.cts', 'utf8')).toContain('declare function createRoutes');
  });
});
