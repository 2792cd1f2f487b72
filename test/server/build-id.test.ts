import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/routes/table.js';
import { prerender } from '../../src/server/build/prerender.js';
import { fileStore } from '../../src/server/cache/file-store.js';
import { memoryStore } from '../../src/server/cache/memory-store.js';
import { redisStore } from '../../src/server/cache/redis-store.js';
import { MANIFEST } from '../../src/server/files/manifest.js';
import { createSnapshotHandler } from '../../src/server/handler.js';
// The page processes run the built package: the headless renderer is imported from it.
import { headlessRenderer } from 'crawlable-router/server';
import { useRedis } from './cache/redis.js';

// A snapshot belongs to a build: a deploy changes the app's hashed assets, and a snapshot of the old
// build names them. None is ever served to a handler of another build, from any store.

const ORIGIN = 'https://example.com';
const shellOf = (asset: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><title>Jobs</title><script type="module" src="/assets/${asset}"></script></head><body><main id="app"></main></body></html>\n`;
const OLD = shellOf('index-BOYfyMYL.js');
const NEW = shellOf('index-Cq81xQ2v.js');
const routes = createRoutes([{ path: '/acme', title: 'Acme', render: () => '<h1>Acme</h1>' }]);
const ugly = (handler: { fetch(request: Request): Promise<Response | null> }) =>
  handler.fetch(new Request(`${ORIGIN}/?_escaped_fragment_=/acme`)).then((response) => response?.text() ?? '');

let dir: string;
const { connect } = useRedis();
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('build', () => {
  it('defaults to a hash of the shell, so a rebuilt shell is another build', () => {
    const old = createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD });
    expect(old.build).toMatch(/^[\w-]{16}$/);
    expect(createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD }).build).toBe(old.build);
    expect(createSnapshotHandler({ routes, origin: ORIGIN, shell: NEW }).build).not.toBe(old.build);
    expect(createSnapshotHandler({ routes, origin: ORIGIN, shell: NEW, build: 'v42' }).build).toBe('v42');
  });

  it.each([[''], [42], ['a\nb'], ['x'.repeat(201)], [{}]])('refuses the build %j with BAD_OPTION', (build) => {
    expect(() => createSnapshotHandler({ routes, origin: ORIGIN, build: build as string })).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION', message: expect.stringContaining('build must be a non-empty string') }),
    );
  });

  it('never serves a snapshot of another build from a shared memoryStore', async () => {
    const store = memoryStore();
    const before = createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD, cache: { store } });
    expect(await ugly(before)).toContain('index-BOYfyMYL.js');
    const after = createSnapshotHandler({ routes, origin: ORIGIN, shell: NEW, cache: { store } });
    expect(await ugly(after)).toContain('index-Cq81xQ2v.js');
    expect(await ugly(after)).not.toContain('index-BOYfyMYL.js');
  });

  it('serves the new assets from the first request after a deploy behind one redis-server, the old process its own', async () => {
    const prefix = `deploy${Date.now()}:`;
    const rendered: string[] = [];
    const table = (name: string) => createRoutes([{ path: '/acme', title: 'Acme', render: () => (rendered.push(name), '<h1>Acme</h1>') }]);
    const handler = async (name: string, shell: string) =>
      createSnapshotHandler({
        routes: table(name),
        origin: ORIGIN,
        shell,
        cache: { store: redisStore({ client: await connect(), prefix }), ttlMs: 3_600_000 },
        onError: () => {},
      });
    const first = await handler('old', OLD);
    expect(await ugly(first)).toContain('index-BOYfyMYL.js');
    // A second process of the old build shares the old render.
    expect(await ugly(await handler('old', OLD))).toContain('index-BOYfyMYL.js');
    expect(rendered).toEqual(['old']);
    const deployed = await handler('new', NEW);
    expect(await ugly(deployed)).toContain('index-Cq81xQ2v.js');
    // Another process of the new build shares its render; one of the old build still serves its own
    // build's page, rendered again (the cost of a rolling deploy: each build renders over the other's).
    expect(await ugly(await handler('new', NEW))).toContain('index-Cq81xQ2v.js');
    expect(rendered).toEqual(['old', 'new']);
    expect(await ugly(first)).toContain('index-BOYfyMYL.js');
    expect(rendered).toEqual(['old', 'new', 'old']);
  });

  it('writes the build into a prerendered folder, which a handler of another build refuses at start and one of that build serves', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cr-build-'));
    const report = await prerender({ routes, outDir: dir, origin: ORIGIN, shell: OLD, sitemap: false, notFoundPage: false });
    expect(report.build).toBe(createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD }).build);
    expect(JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8'))).toEqual({ build: report.build });
    expect(() => createSnapshotHandler({ routes, origin: ORIGIN, shell: NEW, cache: { store: fileStore(dir), ttlMs: Infinity } })).toThrow(
      expect.objectContaining({ code: 'BUILD_MISMATCH', message: expect.stringContaining(`build ${JSON.stringify(report.build)}`) }),
    );
    // The folder's page is served as it was written: the file, not a new render.
    writeFileSync(path.join(dir, 'acme/index.html'), '<!DOCTYPE html><p>prerendered</p>');
    const same = createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD, cache: { store: fileStore(dir), ttlMs: Infinity } });
    expect(await ugly(same)).toBe('<!DOCTYPE html><p>prerendered</p>');
  });

  it('never serves a snapshot of a folder that names no build (written before builds): it is rendered again and kept in its place', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cr-build-'));
    await prerender({ routes, outDir: dir, origin: ORIGIN, shell: OLD, sitemap: false, notFoundPage: false });
    rmSync(path.join(dir, MANIFEST));
    writeFileSync(path.join(dir, 'acme/index.html'), '<p>from before builds</p>');
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, shell: OLD, cache: { store: fileStore(dir), ttlMs: Infinity } });
    expect(await ugly(handler)).toContain('<h1>Acme</h1>');
    expect(readFileSync(path.join(dir, 'acme/index.html'), 'utf8')).toContain('<h1>Acme</h1>');
    // Its last unknown snapshot gone, the folder is this build's.
    expect(JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8'))).toEqual({ build: handler.build });
  });

  it("defaults to a hash of the headless renderer's index.html", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cr-build-'));
    writeFileSync(path.join(dir, 'index.html'), OLD);
    const one = headlessRenderer({ root: dir });
    writeFileSync(path.join(dir, 'index.html'), NEW);
    const two = headlessRenderer({ root: dir });
    try {
      expect(one.build).not.toBe(two.build);
      expect(createSnapshotHandler({ routes, origin: ORIGIN, renderer: two }).build).toBe(two.build);
      expect(createSnapshotHandler({ routes, origin: ORIGIN, shell: NEW }).build).toBe(two.build);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
