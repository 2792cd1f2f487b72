// One table of entries. ESM and CJS keep one file per module (with "sideEffects": false an app's
// bundler drops what it does not import, the pattern compiler with the route table), and all entries
// are built in one pass so they share the core's modules instead of copying them; each entry gets a
// bundled .d.ts/.d.cts; the UMD entry is a plain and a minified browser bundle with everything inside.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import ts from 'typescript';
import { dts } from 'rollup-plugin-dts';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const entries = {
  index: 'src/index.ts',
  client: 'src/client/index.ts',
  'client/lite': 'src/client/lite.ts',
  server: 'src/server/index.ts',
  vite: 'src/vite/index.ts',
  react: 'src/react/index.ts',
  'react/server': 'src/react/server.ts',
};
// The React binding's types name the core's, the client's, the server's (and react/server the
// binding's) through the package's own entries instead of a copy each: a table of `route()` routes
// carries the core's brand, which `Link`'s types must read as the same symbol.
const publicTypes = Object.fromEntries(
  [
    ['src/index.ts', 'crawlable-router'],
    ['src/client/index.ts', 'crawlable-router/client'],
    ['src/server/index.ts', 'crawlable-router/server'],
    ['src/react/index.ts', 'crawlable-router/react'],
  ].map(([file, name]) => [resolve(file), name]),
);
const entryTypes = {
  name: 'entry-types',
  async resolveId(id, importer, options) {
    if (!importer) return null;
    const found = await this.resolve(id, importer, { ...options, skipSelf: true });
    const name = found && publicTypes[found.id];
    return name ? { id: name, external: true } : found;
  },
};
// The page process of `headlessRenderer`, started by file name, never imported.
const child = 'src/server/headless/child.ts';
// The command line (dist/cli/index.js, run by bin/crawlable-router.js) has no types of its own.
const cli = 'src/cli/index.ts';
// The modules package.json's "browser" field puts in the place of others in an app's browser build
// (the route table's first-match scan for its segment index), as sources: `{ 'src/x.ts': 'src/y.ts' }`.
const browser = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync('package.json', 'utf8')).browser)
    .filter(([from]) => from.endsWith('.js'))
    .map(([from, to]) => [from, to].map((file) => resolve(file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')))),
);
// The UMD bundle is a browser build: it takes those modules as an app's bundler would.
const browserField = {
  name: 'browser-field',
  async resolveId(id, importer, options) {
    const found = await this.resolve(id, importer, { ...options, skipSelf: true });
    const to = found && browser[found.id];
    return to ? { ...found, id: to } : found;
  },
};
// The flags package.json's "#build-mode" import chooses between: built as files of their own, and
// kept as an import in dist/ so that an app's bundler picks one by its conditions.
const modes = ['read', 'development', 'production'].map((mode) => `src/env/mode/${mode}.ts`);
// The UMD files choose for themselves: the development flag in the plain file, the production one in the min file.
const buildMode = (env) => ({ name: 'build-mode', resolveId: (id) => (id === '#build-mode' ? resolve(`src/env/mode/${env}.ts`) : null) });
const umd = { input: 'src/umd.ts', file: 'dist/crawlable-router.umd', name: 'CrawlableRouter' };
// Vite is the plugin's optional peer (src/vite/), React and react-dom the binding's (src/react/):
// imported at run time by the app, never bundled.
const external = (id) => /^(parse5|saxes|isbot|happy-dom|playwright-core|vite$|node:|#build-mode$|(react|react-dom)(\/|$))/.test(id);
// TypeScript to JavaScript file by file, as tsc emits it (`isolatedModules` holds every file to
// what one file alone can be compiled from): `npm run typecheck` checks the types, once, so the
// build makes no program of its own. A relative `./x.js` import names `./x.ts`, as tsc reads it.
const { options: compilerOptions } = ts.parseJsonConfigFileContent(
  ts.readConfigFile('tsconfig.build.json', ts.sys.readFile).config,
  ts.sys,
  process.cwd(),
);
const transpile = () => ({
  name: 'transpile',
  resolveId(id, importer) {
    if (!importer?.endsWith('.ts') || !/^\.\.?\//.test(id) || !id.endsWith('.js')) return null;
    const file = resolve(importer, '..', id.replace(/\.js$/, '.ts'));
    return existsSync(file) ? file : null;
  },
  transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const { outputText, sourceMapText } = ts.transpileModule(code, {
      compilerOptions: { ...compilerOptions, sourceMap: true },
      fileName: id,
    });
    return { code: outputText.replace(/\n\/\/# sourceMappingURL=.*$/, ''), map: sourceMapText };
  },
});
const modules = { dir: 'dist', preserveModules: true, preserveModulesRoot: 'src' };
// The UMD files are built as an app's bundler would build them (src/env/dev.browser.ts, with
// process.env.NODE_ENV written in): the min file for production, so the minifier drops the long
// error texts, and the plain file for development, so it keeps them on a page with no `process`.
// The one file a page loads carries both licences' notices (the minifier keeps a `/*!` comment):
// src/routes/pattern/syntax.ts compiles patterns after path-to-regexp's design (LICENSE holds its notice).
// The minifier may write ES2020 (the browser targets have it) and takes three passes. Not
// `unsafe_arrows`: it made the constructor of record.ts an arrow, and `new` on it threw.
const minify = terser({ ecma: 2020, compress: { passes: 3 } });
const banner = '/*! crawlable-router, MIT licence. path-to-regexp, MIT licence, (c) 2014 Blake Embrey */';
const nodeEnv = (env) => replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify(env) } });

export default [
  {
    input: [...Object.values(entries), cli, child, ...Object.values(browser), ...modes],
    external,
    plugins: [transpile()],
    output: [
      { ...modules, format: 'es', entryFileNames: '[name].js' },
      { ...modules, format: 'cjs', entryFileNames: '[name].cjs', exports: 'named' },
    ],
  },
  ...Object.entries(entries).map(([name, input]) => ({
    input,
    external,
    plugins: [...(name.startsWith('react') ? [entryTypes] : []), dts({ tsconfig: './tsconfig.build.json' })],
    output: [{ file: `dist/${name}.d.ts` }, { file: `dist/${name}.d.cts` }],
  })),
  ...['development', 'production'].map((env) => ({
    input: umd.input,
    plugins: [browserField, buildMode(env), nodeResolve(), commonjs(), transpile(), nodeEnv(env)],
    output:
      env === 'production'
        ? { file: `${umd.file}.min.js`, format: 'umd', name: umd.name, banner, plugins: [minify] }
        : { file: `${umd.file}.js`, format: 'umd', name: umd.name, banner },
  })),
];
