// One array of entries; each is written as ESM and CJS (dependencies external) with .d.ts/.d.cts,
// and the UMD entry as a plain and a minified browser bundle with everything inside.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const entries = { index: 'src/index.ts', client: 'src/client/index.ts' };
const umd = { input: 'src/umd.ts', file: 'dist/crawlable-router.umd', name: 'CrawlableRouter' };
const external = (id) => /^(path-to-regexp|happy-dom|node:)/.test(id);
const ts = () => typescript({ tsconfig: './tsconfig.build.json' });

export default [
  ...Object.entries(entries).map(([name, input]) => ({
    input,
    external,
    plugins: [ts()],
    output: [
      { file: `dist/${name}.js`, format: 'es' },
      { file: `dist/${name}.cjs`, format: 'cjs' },
    ],
  })),
  ...Object.entries(entries).map(([name, input]) => ({
    input,
    external,
    plugins: [dts({ tsconfig: './tsconfig.build.json' })],
    output: [{ file: `dist/${name}.d.ts` }, { file: `dist/${name}.d.cts` }],
  })),
  {
    input: umd.input,
    plugins: [nodeResolve(), commonjs(), ts()],
    output: [
      { file: `${umd.file}.js`, format: 'umd', name: umd.name },
      { file: `${umd.file}.min.js`, format: 'umd', name: umd.name, plugins: [terser()] },
    ],
  },
];
