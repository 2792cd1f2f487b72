// One array of entries; each is written as ESM and CJS (dependencies external) with .d.ts/.d.cts,
// and the UMD entry as a plain and a minified browser bundle with everything inside.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const entries = ['index', 'server'];
// The core is src/index.ts; every other entry is src/<name>/index.ts.
const input = (name) => (name === 'index' ? 'src/index.ts' : `src/${name}/index.ts`);
const umd = { input: 'src/umd.ts', file: 'dist/crawlable-router.umd', name: 'CrawlableRouter' };
const external = (id) => /^(path-to-regexp|parse5|happy-dom|node:)/.test(id);
const ts = () => typescript({ tsconfig: './tsconfig.build.json' });

export default [
  ...entries.map((name) => ({
    input: input(name),
    external,
    plugins: [ts()],
    output: [
      { file: `dist/${name}.js`, format: 'es' },
      { file: `dist/${name}.cjs`, format: 'cjs' },
    ],
  })),
  ...entries.map((name) => ({
    input: input(name),
    external,
    plugins: [dts({ tsconfig: './tsconfig.build.json' })],
    output: [{ file: `dist/${name}.d.ts` }, { file: `dist/${name}.d.cts` }],
  })),
  // The command line: dist/cli.js, run by bin/crawlable-router.js.
  { input: 'src/cli.ts', external, plugins: [ts()], output: { file: 'dist/cli.js', format: 'es' } },
  {
    input: umd.input,
    plugins: [nodeResolve(), commonjs(), ts()],
    output: [
      { file: `${umd.file}.js`, format: 'umd', name: umd.name },
      { file: `${umd.file}.min.js`, format: 'umd', name: umd.name, plugins: [terser()] },
    ],
  },
];
