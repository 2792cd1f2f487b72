import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { build } from 'vite';
import { describe, expect, it, vi } from 'vitest';

// package.json's "browser" field: an app's browser build takes the x.browser.ts of two modules that
// give the same results (test/routes/match/matcher.browser.test.ts and test/fuzz/percent.test.ts
// hold them to that), a server keeps the faster one; and the browser's development flag comes from
// package.json's "#build-mode" import, chosen by the bundler's conditions (development, production,
// else the mode it writes in process.env.NODE_ENV, else false).
const swaps = { 'routes/match/matcher': 'routes/match/matcher.browser', 'url/utf8': 'url/utf8.browser', 'env/dev': 'env/dev.browser' };
// What the flag folds to leaves no module behind in a production build: the flags are told by what a build says (below).
// An app's page script: what createRouter says of a history option that is not a history instance,
// the long text in development and the code alone in production.
const APP =
  "import { createRouter } from 'crawlable-router/client';\nimport { createRoutes } from 'crawlable-router';\n" +
  'try { createRouter({ routes: createRoutes([]), history: {} }); } catch (error) { globalThis.said = error.message; }\n';
const LONG = /^createRouter: history is not an instance of the history package/;
const matchers = { 'routes/match/matcher': 'routes/match/matcher.browser', 'url/utf8': 'url/utf8.browser' };
const modes = ['read', 'development', 'production'];

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

/**
 * What the page `entry` said when built by Rollup with node-resolve's browser option, minified, and run
 * as a script in a realm with no `process`. `mode` is the build process's NODE_ENV (node-resolve 16
 * resolves the `development` or `production` condition by it), `nodeEnv` what @rollup/plugin-replace
 * writes (none: no replace plugin), `conditionless` resolves "#build-mode" by its default condition.
 */
async function rollupSaid(
  entry: string,
  { mode, nodeEnv, conditionless = false }: { mode: string; nodeEnv?: string; conditionless?: boolean },
) {
  vi.stubEnv('NODE_ENV', mode);
  try {
    const imports = JSON.parse(readFileSync('package.json', 'utf8')).imports['#build-mode'].default.import as string;
    const bundle = await rollup({
      input: entry,
      onwarn: () => {},
      plugins: [
        ...(conditionless
          ? [{ name: 'no-mode-condition', resolveId: (id: string) => (id === '#build-mode' ? path.resolve(imports) : null) }]
          : []),
        ...(nodeEnv ? [replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) } })] : []),
        nodeResolve({ browser: true }),
      ],
    });
    // Minified as a production build is, which drops what the flag guards.
    const { output } = await bundle.generate({ format: 'iife', plugins: [terser()] });
    await bundle.close();
    const page: { said?: string } = {};
    runInNewContext(output[0].code, page);
    return [page.said, output[0].code] as const;
  } finally {
    vi.unstubAllEnvs();
  }
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
    const imports = JSON.parse(readFileSync('package.json', 'utf8')).imports as Record<string, Record<string, Record<string, string>>>;
    const targets = Object.values(imports['#build-mode'] ?? {}).flatMap((pair) => Object.values(pair));
    expect(targets.sort()).toEqual(modes.flatMap((mode) => [`./dist/env/mode/${mode}.cjs`, `./dist/env/mode/${mode}.js`]).sort());
    for (const target of targets) expect(existsSync(target)).toBe(true);
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
      expect(server).toContain('env/dev');
      for (const [serverOnly, browserOnly] of Object.entries(matchers)) {
        expect(browser).toContain(browserOnly);
        expect(browser).not.toContain(serverOnly);
        expect(server).toContain(serverOnly);
        expect(server).not.toContain(browserOnly);
      }
    });
  });

  it("keeps the development texts and checks in an app's development browser build (Vite) and drops them from its production build", async () => {
    await withApp(async (root) => {
      const entry = path.join(root, 'app.js');
      await writeFile(entry, APP);
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
      expect(development).toMatch(LONG);
      const [production, code] = await said('production');
      expect(production).toBe('no history');
      expect(code).not.toContain('is not an instance of the history package');
    });
  });
  it('loads with Rollup with and without @rollup/plugin-replace: the flag follows the mode node-resolve resolves (NODE_ENV)', async () => {
    await withApp(async (root) => {
      const entry = path.join(root, 'app.js');
      await writeFile(entry, APP);
      const [bare, bareCode] = await rollupSaid(entry, { mode: 'production' });
      expect(bare).toBe('no history');
      expect(bareCode).not.toContain('is not an instance of the history package');
      expect((await rollupSaid(entry, { mode: 'development' }))[0]).toMatch(LONG);
      const [replaced, replacedCode] = await rollupSaid(entry, { mode: 'production', nodeEnv: 'production' });
      expect(replaced).toBe('no history');
      expect(replacedCode).not.toContain('is not an instance of the history package');
      expect((await rollupSaid(entry, { mode: 'development', nodeEnv: 'development' }))[0]).toMatch(LONG);
    });
  });

  it('reads the mode written into process.env.NODE_ENV where a bundler resolves no mode condition, and false, not a throw, where none is written', async () => {
    await withApp(async (root) => {
      const entry = path.join(root, 'app.js');
      await writeFile(entry, APP);
      // A bundler that sets neither `development` nor `production` (esbuild by default) gets "#build-mode"'s default.
      const [bare] = await rollupSaid(entry, { mode: 'development', conditionless: true });
      expect(bare).toBe('no history');
      const [production, code] = await rollupSaid(entry, { mode: 'production', nodeEnv: 'production', conditionless: true });
      expect(production).toBe('no history');
      expect(code).not.toContain('is not an instance of the history package');
      // A page has no `process`: a development build without the condition reads false (docs/errors.md says so).
      expect((await rollupSaid(entry, { mode: 'development', nodeEnv: 'development', conditionless: true }))[0]).toBe('no history');
    });
  });
});
