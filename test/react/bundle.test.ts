import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { describe, expect, it, vi } from 'vitest';

// An app's browser build (Vite) of a page that uses crawlable-router/react, mount included: React
// and ReactDOM's client are in it, react-dom/server never is (it is only crawlable-router/react/server's).

const PAGE = `import { createElement as h } from 'react';
import { createRoutes } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { Link, mount, route } from 'crawlable-router/react';
const routes = createRoutes([route({ path: '/', name: 'home', view: () => h(Link, { to: 'home' }, 'Home') })]);
mount(document.getElementById('app'), { router: createRouter({ routes }), routes });
`;

describe('a browser build of an app on crawlable-router/react', () => {
  it('bundles no react-dom/server', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'crawlable-router-react-'));
    try {
      await mkdir(path.join(root, 'node_modules'));
      for (const [name, target] of [
        ['crawlable-router', process.cwd()],
        ['react', path.resolve('node_modules/react')],
        ['react-dom', path.resolve('node_modules/react-dom')],
      ] as const)
        await symlink(target, path.join(root, 'node_modules', name), 'dir');
      const entry = path.join(root, 'main.js');
      await writeFile(entry, PAGE);
      vi.stubEnv('NODE_ENV', 'production');
      const out = await build({
        configFile: false,
        logLevel: 'silent',
        root,
        mode: 'production',
        build: { write: false, rollupOptions: { input: entry } },
      }).finally(() => vi.unstubAllEnvs());
      const chunks = (Array.isArray(out) ? out : [out]).flatMap(
        (o) => (o as { output: { type: string; code?: string; modules?: Record<string, unknown> }[] }).output,
      );
      const code = chunks.map((chunk) => chunk.code ?? '').join('\n');
      const modules = chunks.flatMap((chunk) => Object.keys(chunk.modules ?? {}));
      // What it does bundle: the binding, its mount and ReactDOM's client.
      expect(modules.some((id) => id.endsWith('/dist/react/mount.js'))).toBe(true);
      expect(modules.some((id) => /react-dom[\\/]cjs[\\/]react-dom-client\./.test(id))).toBe(true);
      // And what it does not: react-dom/server's modules, by name and by what they export.
      expect(modules.filter((id) => /react-dom[\\/](server|static)|react-dom-server|dist[\\/]react[\\/]server/.test(id))).toEqual([]);
      expect(code).not.toMatch(/renderToString|renderToReadableStream|react-dom\/server/);
      expect(code).not.toContain('createSnapshotHandler');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
