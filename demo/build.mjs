// Builds the demo's browser files into demo/public/build/ from the library's dist/ (run
// `npm run build` first), as an app's production browser build takes it (the package's "browser"
// field applied, process.env.NODE_ENV "production"): the pushState and server-rendered apps as ES
// modules, the #! app as a classic script on the UMD global, the client-only app as a classic
// deferred script in public/spa/, and a copy of the UMD bundle.
import { copyFile, mkdir } from 'node:fs/promises';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

const dist = new URL('../dist/', import.meta.url).pathname;
const out = new URL('./public/build/', import.meta.url).pathname;
const self = {
  name: 'crawlable-router',
  resolveId: (id) => (id === 'crawlable-router' ? `${dist}index.js` : id === 'crawlable-router/client' ? `${dist}client/index.js` : null),
};
const globals = { 'crawlable-router': 'CrawlableRouter', 'crawlable-router/client': 'CrawlableRouter' };

/** Builds every demo bundle; resolves when they are written. */
export async function buildDemo() {
  await mkdir(out, { recursive: true });
  const builds = [
    { input: 'main.js', file: 'app.js', format: 'es' },
    { input: 'ssr.js', file: 'ssr.js', format: 'es' },
    { input: 'classic.js', file: 'classic.js', format: 'iife', external: Object.keys(globals) },
    // The client-only app lives wholly in its own folder: the headless renderer serves it from there.
    { input: 'spa.js', file: '../spa/app.js', format: 'iife' },
  ];
  for (const { input, file, format, external = [] } of builds) {
    const bundle = await rollup({
      input: new URL(`./app/${input}`, import.meta.url).pathname,
      external,
      // What every app's browser build does (Vite, webpack, esbuild and Parcel by themselves; Rollup
      // with this plugin): the mode written in, so the library's development texts are dropped.
      plugins: [
        external.length ? null : self,
        nodeResolve({ browser: true, exportConditions: ['production'] }),
        commonjs(),
        replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
      ],
      onwarn: (warning, warn) => (warning.code === 'CIRCULAR_DEPENDENCY' ? undefined : warn(warning)),
    });
    await bundle.write({ file: out + file, format, globals, plugins: [terser()] });
    await bundle.close();
  }
  await copyFile(`${dist}crawlable-router.umd.min.js`, `${out}crawlable-router.umd.min.js`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildDemo();
  console.log(`built ${out}`);
}
