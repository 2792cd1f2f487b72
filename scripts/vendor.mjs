// path-to-regexp 8 is published as CommonJS only, and no bundler can drop part of a CommonJS file:
// every app would carry its match() and stringify(), which this package never calls. The build
// turns that one file into an ES module (its `exports.x = x` lines become one export statement),
// emits it as dist/vendor/path-to-regexp.js with its licence beside it, and an app's bundler keeps
// only what the route table imports (parse and pathToRegexp). A path-to-regexp whose file has another shape fails the
// build here, never at an app's runtime.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const file = require.resolve('path-to-regexp');
const licence = join(dirname(file), '..', 'LICENSE');

/** The output name of the converted file, under dist/. */
export const vendored = 'vendor/path-to-regexp';

/** path-to-regexp's CommonJS text as an ES module, or an error naming what it did not expect. */
export function toEsm(code) {
  const names = new Set();
  const set = new Set();
  const fail = (found) => {
    throw new Error(`path-to-regexp: cannot turn ${file} into an ES module (found ${found})`);
  };
  const body = code
    .replace(/^"use strict";\n/m, '')
    .replace(/^Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);\n/m, '')
    .replace(/^((?:exports\.\w+ = )+)(void 0|\w+);\n/gm, (line, targets, value) => {
      // `export { x }` exports the binding `x`: only `exports.x = x` (and `void 0` before it) says the same.
      for (const [, name] of targets.matchAll(/exports\.(\w+) = /g)) {
        if (value !== 'void 0' && value !== name) fail(`exports.${name} = ${value}`);
        names.add(name);
        if (value === name) set.add(name);
      }
      return '';
    })
    .replace(/^\/\/# sourceMappingURL=.*$/m, '');
  const left = /\b(?:exports|require|module)\b/.exec(body);
  if (left || names.size === 0) fail(left ? left[0] : 'no exports');
  const unset = [...names].find((name) => !set.has(name));
  if (unset) fail(`exports.${unset} never set`);
  return `// path-to-regexp (MIT, Blake Embrey; see path-to-regexp.LICENSE), as an ES module.\n${body}\nexport { ${[...names].join(', ')} };\n`;
}

/** The rollup plugin: `path-to-regexp` resolves to its converted file, and the licence goes beside it. */
export function vendorPathToRegexp() {
  return {
    name: 'vendor-path-to-regexp',
    resolveId: (id) => (id === 'path-to-regexp' ? file : null),
    load: (id) => (id === file ? toEsm(readFileSync(file, 'utf8')) : null),
    generateBundle(options) {
      if (options.dir) this.emitFile({ type: 'asset', fileName: `${vendored}.LICENSE`, source: readFileSync(licence, 'utf8') });
    },
  };
}

/** True for the converted file's module id (so the build can name its output). */
export const isVendored = (id) => id === file;
