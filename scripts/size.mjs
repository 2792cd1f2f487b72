// Min+gzip sizes of the built files, as an app's bundler would see them: each case bundles a small
// entry that imports from dist/ (tree-shaken, path-to-regexp inside), minifies with terser and
// gzips at level 9, with `process.env.NODE_ENV` set to "production" as every app bundler (Vite,
// webpack, esbuild) sets it for a production build. Used by test/size.test.ts (budgets) and printed by `node scripts/size.mjs`.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { minify } from 'terser';
import { rollup } from 'rollup';

const dist = resolve('dist');
// The entry in memory, and `crawlable-router[/entry]` resolved to dist/ with the package's own
// "sideEffects": false applied, as an app's bundler would.
const virtual = (code) => ({
  name: 'virtual-entry',
  resolveId(id, importer) {
    if (id === 'entry') return id;
    if (id === 'crawlable-router') return { id: `${dist}/index.js`, moduleSideEffects: false };
    if (id.startsWith('crawlable-router/')) return { id: `${dist}/${id.slice(17)}/index.js`, moduleSideEffects: false };
    if (importer?.startsWith(dist) && id.startsWith('.')) return { id: resolve(dirname(importer), id), moduleSideEffects: false };
    return null;
  },
  load: (id) => (id === 'entry' ? code : null),
});

// What an app's production build does to `process.env.NODE_ENV` (see src/dev.ts).
const production = {
  name: 'node-env-production',
  transform: (code) => (code.includes('process.env.NODE_ENV') ? code.replaceAll('process.env.NODE_ENV', '"production"') : null),
};

/** Bytes of `code` bundled, minified and gzipped. */
export async function bundleSize(code, { external = [] } = {}) {
  const bundle = await rollup({
    input: 'entry',
    external,
    plugins: [virtual(code), production, nodeResolve({ browser: true }), commonjs()],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  const min = (await minify(output[0].code, { module: true, compress: { passes: 2 } })).code ?? '';
  return { min: min.length, gzip: gzipSync(min, { level: 9 }).length };
}

/** Bytes of a built file, minified as it is and gzipped. */
export async function fileSize(file) {
  const min = await readFile(file, 'utf8');
  return { min: min.length, gzip: gzipSync(min, { level: 9 }).length };
}

export const cases = {
  'codec alone': `export { toUglyUrl, toPrettyUrl, isPrettyUrl, isUglyUrl, escapeFragment, unescapeFragment, CodecError } from 'crawlable-router';`,
  'core (codec, URL forms, route table)': `export * from 'crawlable-router';`,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, code] of Object.entries(cases)) console.log(name, await bundleSize(code));
  console.log('UMD min', await fileSize('dist/crawlable-router.umd.min.js'));
}
