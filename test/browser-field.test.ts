import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

// package.json's "browser" field: an app's browser build takes the smaller of two modules that give
// the same results (test/route-scan.test.ts and test/fuzz/percent.test.ts hold them to that), a
// server keeps the faster one.
const swaps = { 'route-index': 'route-scan', 'utf8-loop': 'utf8-builtin' };

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
    // An app in its own folder with the package installed, as npm installs it (a link to this checkout).
    const root = await mkdtemp(path.join(tmpdir(), 'crawlable-router-vite-'));
    try {
      await mkdir(path.join(root, 'node_modules'));
      await symlink(process.cwd(), path.join(root, 'node_modules', 'crawlable-router'), 'dir');
      const entry = path.join(root, 'app.js');
      await writeFile(entry, "export { createRouter } from 'crawlable-router/client';\nexport { createRoutes } from 'crawlable-router';\n");
      const modules = async (ssr: boolean) => {
        const out = await build({
          root,
          configFile: false,
          logLevel: 'silent',
          build: { write: false, minify: false, ssr: ssr ? entry : false, lib: { entry, formats: ['es'] } },
        });
        const chunk = (Array.isArray(out) ? out[0] : out) as { output: { modules?: Record<string, unknown> }[] };
        return Object.keys(chunk.output[0]?.modules ?? {})
          .map((id) => path.basename(id))
          .map((name) => name.replace(/\.js$/, ''));
      };
      const [browser, server] = [await modules(false), await modules(true)];
      for (const [serverOnly, browserOnly] of Object.entries(swaps)) {
        expect(browser).toContain(browserOnly);
        expect(browser).not.toContain(serverOnly);
        expect(server).toContain(serverOnly);
        expect(server).not.toContain(browserOnly);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
