import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPathText } from '../../../src/url/location.js';
import { parse, PATH_TO_REGEXP_VERSION, toRegexp } from '../../../src/routes/pattern/syntax.js';
import { fuzz } from '../../fuzz/runs.js';
import { ptrTokens } from './ptr-tokens.js';

// src/routes/pattern/syntax.ts reads and compiles the pattern language itself, where the package once carried
// path-to-regexp 8's own parse() and pathToRegexp(). It must give what path-to-regexp (the
// devDependency, as installed) gives for every pattern: the same tokens (ours written as its objects
// by ptrTokens), regexp and keys, and an error exactly where it throws, in its words. A path-to-regexp
// upgrade that changes either fails here.
const require = createRequire(import.meta.url);
const ptr = require('path-to-regexp') as typeof import('path-to-regexp');

const fail = (message: string): never => {
  throw new SyntaxError(message);
};

/** What our reading gives: tokens, regexp and keys, or the fault's words. */
function ours(path: string, sensitive: boolean, encode: (text: string) => string) {
  try {
    const tokens = parse(path, encode, fail);
    const { regexp, keys } = toRegexp(tokens, sensitive, fail);
    return { tokens: ptrTokens(tokens), regexp: String(regexp), keys };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What path-to-regexp gives, its messages without the path and link it appends. */
function theirs(path: string, sensitive: boolean, encode: (text: string) => string) {
  try {
    const data = ptr.parse(path, { encodePath: encode });
    const { regexp, keys } = ptr.pathToRegexp(data, { sensitive });
    return { tokens: data.tokens, regexp: String(regexp), keys };
  } catch (error) {
    if (!(error instanceof ptr.PathError)) throw error;
    return { error: error.message.replace(/(: .*)?; visit .*$/s, '') };
  }
}

describe('the path-to-regexp it follows', () => {
  it('is the one installed, so an upgrade cannot slip past the equality tests below', () => {
    const installed = JSON.parse(
      readFileSync(new URL('../../../node_modules/path-to-regexp/package.json', import.meta.url), 'utf8'),
    ).version;
    expect(
      installed,
      `src/routes/pattern/syntax.ts follows path-to-regexp ${PATH_TO_REGEXP_VERSION}, but ${installed} is installed: run ` +
        '`npx vitest run test/routes/pattern/syntax.test.ts`, make src/routes/pattern/syntax.ts give what the installed version gives, ' +
        `then set PATH_TO_REGEXP_VERSION in src/routes/pattern/syntax.ts to '${installed}'`,
    ).toBe(PATH_TO_REGEXP_VERSION);
  });
});

const same = (path: string, sensitive = false, encode = (text: string) => text) =>
  expect(ours(path, sensitive, encode), path).toEqual(theirs(path, sensitive, encode));

// Pieces of patterns: the syntax's every special character, names, quoted names, escapes, and text
// that the regexps treat apart (`/`, `.`, `-`, letters, non-ASCII, astral).
const piece = fc.constantFrom(
  '/',
  '/',
  '/',
  ':',
  '*',
  '{',
  '}',
  '\\',
  '"',
  '.',
  '-',
  '~',
  'a',
  'b',
  'x',
  'id',
  '$',
  '_',
  '1',
  ':id',
  ':a',
  '*p',
  '*rest',
  ':"a b"',
  ':"q\\"t"',
  '{/',
  '{.',
  '}',
  '(',
  ')',
  '[',
  ']',
  '+',
  '?',
  '!',
  'é',
  '𝒳',
  '\u200c',
  '%',
  '%2F',
  ' ',
  '|',
  '^',
);
const pattern = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));

describe('the pattern language', () => {
  it('reads and compiles the patterns of the docs and tests as path-to-regexp does', () => {
    for (const path of [
      '/',
      '/books/:id',
      '/files/*path',
      '/list{/:page}',
      '/a/:x-:y.json',
      '/"quoted :id"/:b',
      '/:a-:b-:c-:d',
      '/*a/c/*d.json',
      '/*a-*b-*c~',
      '/x{/:a}{/:b}{/:c}/*d.json',
      '/:a{/:b{/:c{/:d}}}',
      '/café/:x',
      '/\\:literal/\\{x\\}',
      '/:"name with \\" quote"',
    ]) {
      same(path);
      same(path, true);
      same(path, false, canonicalPathText);
    }
  });

  it('refuses what path-to-regexp refuses, in its words', () => {
    for (const [path, message] of [
      ['/a/:', 'Missing parameter name at index 4'],
      ['/a{', 'Unexpected end at index 3, expected }'],
      ['/a(b)', 'Unexpected ( at index 2'],
      ['/books/:id?', 'Unexpected ? at index 10'],
      ['/a\\', 'Unexpected end after \\ at index 3'],
      ['/:"abc', 'Unterminated quote at index 2'],
      ['/:a:b', 'Missing text before "b" param'],
      ['/{a}{b}{c}{d}{e}{f}{g}{h}{i}', 'Too many path combinations'],
    ] as const) {
      expect(
        ours(path, false, (t) => t),
        path,
      ).toEqual({ error: message });
      same(path);
    }
  });

  it('gives the tokens, regexp, keys and errors path-to-regexp gives, for any pattern', () => {
    fc.assert(
      fc.property(pattern, fc.boolean(), (path, sensitive) => {
        same(path, sensitive);
        same(`/${path}`, sensitive, canonicalPathText);
      }),
      fuzz(9101, 3000),
    );
  });

  it('gives them for any text at all, escapes and lone surrogates too', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (path) => {
        same(path);
      }),
      fuzz(9102, 2000),
    );
  });
});
