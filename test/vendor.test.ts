import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the build script is plain JavaScript with no types of its own
import { toEsm } from '../scripts/vendor.mjs';

// path-to-regexp ships CommonJS only; the build puts it in dist/ as an ES module (scripts/vendor.mjs)
// so that an app's bundler keeps only what the route table calls. The copy must be the package itself.
const require = createRequire(import.meta.url);
const original = require('path-to-regexp') as typeof import('path-to-regexp');
const convert = toEsm as (code: string) => string;
// The built copy, by URL (dist/ has no types of its own for it).
const esmCopy = () => import(pathToFileURL(resolve('dist/vendor/path-to-regexp.js')).href);
const patterns = ['/', '/books/:id', '/files/*path', '/list{/:page}', '/a/:x-:y.json', '/"quoted :id"/:b'];

describe('path-to-regexp in dist/', () => {
  it("holds, as an ES module and as CommonJS, the package's own code for what the route table calls", async () => {
    const esm = (await esmCopy()) as Record<string, unknown>;
    const cjs = require('../dist/vendor/path-to-regexp.cjs') as Record<string, unknown>;
    // The build drops what nothing imports (match, stringify, and compile: src/pattern.ts writes paths
    // from parse's tokens); the rest is the package's text, up to the semicolons and spacing rollup writes.
    const text = (f: unknown) => String(f).replace(/[\s;]+/g, '');
    for (const copy of [esm, cjs]) {
      expect(Object.keys(copy).sort()).toEqual(['PathError', 'TokenData', 'parse', 'pathToRegexp']);
      for (const name of Object.keys(copy)) expect(text(copy[name]), name).toBe(text(original[name as keyof typeof original]));
    }
  });

  it('compiles every pattern to the tokens, regexp and keys the package gives', async () => {
    const copy = (await esmCopy()) as typeof import('path-to-regexp');
    for (const pattern of patterns) {
      expect(copy.parse(pattern).tokens, pattern).toEqual(original.parse(pattern).tokens);
      const [ours, theirs] = [copy, original].map((p) => p.pathToRegexp(p.parse(pattern)));
      expect(String(ours?.regexp), pattern).toBe(String(theirs?.regexp));
      expect(ours?.keys).toEqual(theirs?.keys);
    }
    expect(() => copy.parse('/:')).toThrow(copy.PathError);
  });

  it('ships the package licence beside the copy, and its notice in the UMD file', () => {
    const licence = readFileSync(require.resolve('path-to-regexp').replace(/dist\/index\.js$/, 'LICENSE'), 'utf8');
    expect(readFileSync('dist/vendor/path-to-regexp.LICENSE', 'utf8')).toBe(licence);
    expect(readFileSync('dist/crawlable-router.umd.min.js', 'utf8')).toMatch(/^\/\*! crawlable-router.*path-to-regexp, MIT/);
  });

  it('fails the build on a file of another shape, naming what it found', () => {
    expect(() => convert('"use strict";\nmodule.exports = function parse() {};\n')).toThrow(/found module/);
    expect(() => convert('const x = require("y");\nexports.x = x;\n')).toThrow(/found require/);
    expect(() => convert('function parse() {}\n')).toThrow(/no exports/);
    // `export { parse }` would export the binding `parse`, not what CommonJS exported under its name.
    expect(() => convert('exports.parse = parseV2;\nfunction parse() {}\nfunction parseV2() {}\n')).toThrow(
      /found exports\.parse = parseV2/,
    );
    expect(() => convert('exports.a = void 0;\nconst a = 1;\n')).toThrow(/found exports\.a never set/);
    expect(convert('"use strict";\nexports.a = exports.b = void 0;\nexports.a = a;\nconst a = 1, b = 2;\nexports.b = b;\n')).toMatch(
      /export \{ a, b \};\n$/,
    );
  });
});
