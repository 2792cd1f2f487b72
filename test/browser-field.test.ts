import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'vite';
import { describe, expect, it, vi } from 'vitest';

// package.json's "browser" field: an app's browser build takes the smaller of two modules that give
// the same results (test/routes/match/matcher.browser.test.ts and test/fuzz/percent.test.ts hold them to that), a
// server keeps the faster one; and it reads its development flag from the mode its bundler writes.
const swaps = { 'routes/match/matcher': 'routes/match/matcher.browser', 'url/utf8': 'url/utf8.browser', 'env/dev': 'env/dev.browser' };

/** Runs `f` with an app folder that has the package installed, as npm installs it (a link to this checkout). */
async function withApp(f: (root: string) => Promise<void>) {
  const root = await mkdtemp(path.join(tmpdir(), 'crawlable-router-vite-'));
  try {
    await mkdir(path.join(root, 'node_modules'));
    await symlink(process.cwd(), path.join(root, 'node_modules', 'crawlable-router'), 'dir');
    await f(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The chunk Vite writes for `options`. */
async function viteBuild(options: Parameters<typeof build>[0]) {
  const out = await build({ configFile: false, logLevel: 'silent', ...options });
  return ((Array.isArray(out) ? out[0] : out) as { output: { code: string; modules?: Record<string, unknown> }[] }).output[0]!;
}

describe('the package\'s "browser" field', () => {
  it('names files the build writes, ESM and CJS', () => {
    const browser = JSON.parse(readFileSync('package.json', 'utf8')).browser as Record<string, string>;
    expect(browser).toEqual(
      Object.fromEntries(
        Object.entries(swaps).flatMap(([from, to]) => ['js', 'cjs'].map((ext) => [`./dist/${from}.${ext}`, `./dist/${to}.${ext}`])),
      ),
    );
    for (const [from, to] of Object.entries(browser)) {
      expect(existsSync(from)).toBe(true);
      expect(existsSync(to)).toBe(true);
    }
  });

  it("puts the scan in the index's place and the builtin UTF-8 reader in the loop's in an app's browser build (Vite), and a server build keeps the others", async () => {
    await withApp(async (root) => {
      const entry = path.join(root, 'app.js');
      await writeFile(entry, "export { createRouter } from 'crawlable-router/client';\nexport { createRoutes } from 'crawlable-router';\n");
      const modules = async (ssr: boolean) =>
        Object.keys(
          (await viteBuild({ root, build: { write: false, minify: false, ssr: ssr ? entry : false, lib: { entry, formats: ['es'] } } }))
            .modules ?? {},
        )
          .map((id) => id.split('/dist/').pop() ?? id)
          .map((name) => name.replace(/\.js$/, ''));
      const [browser, server] = [await modules(false), await modules(true)];
      for (const [serverOnly, browserOnly] of Object.entries(swaps)) {
        expect(browser).toContain(browserOnly);
        expect(browser).not.toContain(serverOnly);
        expect(server).toContain(serverOnly);
        expect(server).not.toContain(browserOnly);
      }
    });
  });

  it("keeps the development texts and checks in an app's development browser build (Vite) and drops them from its production build", async () => {
    await withApp(async (root) => {
      // An app's page script: what createRouter says of a history option that is not a history instance.
      const entry = path.join(root, 'app.js');
      await writeFile(
        entry,
        "import { createRouter } from 'crawlable-router/client';\nimport { createRoutes } from 'crawlable-router';\n" +
          'try { createRouter({ routes: createRoutes([]), history: {} }); } catch (error) { globalThis.said = error.message; }\n',
      );
      const said = async (mode: string) => {
        // As `NODE_ENV=development vite build` (what the dev server defines too) and `vite build`
        // (vitest's own NODE_ENV, "test", would be Vite's otherwise).
        vi.stubEnv('NODE_ENV', mode);
        const { code } = await viteBuild({
          root,
          mode,
          build: { write: false, minify: mode === 'production', rollupOptions: { input: entry, output: { format: 'iife' } } },
        }).finally(() => vi.unstubAllEnvs());
        // The page script runs as in a page: in a realm with no `process`, which Node's own would hide.
        const page: { said?: string } = {};
        runInNewContext(code, page);
        return [page.said, code] as const;
      };
      const [development] = await said('development');
      expect(development).toMatch(/^createRouter: history is not an instance of the history package/);
      const [production, code] = await said('production');
      expect(production).toBe('no history');
      expect(code).not.toContain('is not an instance of the history package');
    });
  });
});
