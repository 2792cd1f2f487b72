// One route pattern compiled: syntax.ts gives the tokens and the regexp; `build` is the
// inverse of matching, writing a path from params and refusing params that would make a path its
// own pattern cannot match (an empty segment, a `.` or `..` segment, a value holding a separator).

import { canonicalPathText, normalizeLocation } from '../../url/location.js';
import type { Params } from '../params.js';
import { percentDecode } from '../../url/percent.js';
import { encodeComponent } from '../../url/query.js';
import { record } from '../../url/record.js';
import { DEV } from '../../env/dev.js';
import { describe, RouteError } from '../error.js';
import { parse, toRegexp, type Param, type Token } from './syntax.js';

/** A route as far as its pattern goes. */
type Pattern = { path: string; name?: string | undefined };

/** A compiled pattern: its regexp, its captures' tokens (params and wildcards), their names, and the inverse. */
export interface Compiled {
  regexp: RegExp;
  keys: Param[];
  names: string[];
  build: (params?: Params) => string;
}

/** A compiled pattern with its tokens, as compileRoute gives it. Internal. */
export type CompiledRoute = Compiled & { tokens: Token[] };

/**
 * How a route table finds the route of a canonical path: a function of the compiled patterns that
 * gives `hit(id, params, at)` for the first pattern in declaration order that matches `path` (null
 * when none does), `at` handed through. A server's comes from match/matcher.ts, a browser's from
 * match/matcher.browser.ts. Internal.
 */
export type CreateMatcher = <A, R>(
  compiled: readonly CompiledRoute[],
  sensitive: boolean,
  hit: (id: number, params: Params, at: A) => R,
) => (path: string, at: A) => R | null;

/** A param's text from a path, decoded once; most hold no escape and are their own value, with no call into the decoder. Internal. */
export const decodeParam = (raw: string): string => (raw.includes('%') ? percentDecode(raw) : raw);

/**
 * The params `c`'s regexp reads from `path` (a canonical path), each decoded once and a wildcard's
 * split at `/`; null when it does not match. Nothing inherited, as the query's: a param named
 * `__proto__` is the URL's text, never the object's prototype. Internal.
 */
export function regexpParams(c: Compiled, path: string): Params | null {
  const m = c.regexp.exec(path);
  if (!m) return null;
  const params = record<Params>();
  // One capture a key, in order; an optional group's left out is undefined.
  c.keys.forEach((key, i) => {
    const raw = m[i + 1];
    if (raw !== undefined) params[key.name] = key.type === 'wildcard' ? raw.split('/').map(decodeParam) : decodeParam(raw);
  });
  return params;
}

/** The params a pattern cannot be written without: those outside every optional group `{…}`. Internal. */
export function requiredNames(tokens: readonly Token[]): string[] {
  // Text and groups have no name.
  return tokens.flatMap((token) => (token as Partial<Param>).name ?? []);
}

/** Every param a pattern declares, in groups too, in order. */
function paramNames(tokens: readonly Token[]): string[] {
  return tokens.flatMap((token) => (Array.isArray(token) ? paramNames(token) : typeof token === 'string' ? [] : [token.name]));
}

/** A `.` or `..` segment, which every URL parser removes, or an empty one (`//`), which a location collapses. */
const DOT_SEGMENT = /(?:^|\/)(\.\.?)(?=\/|$)|\/(?=\/)/;

/** Whether a param value writes an empty segment: `''`, or `''` inside a wildcard but at its end. */
function writesEmptySegment(value: Params[string]): boolean {
  if (value === '') return true;
  return Array.isArray(value) && value.some((part, i) => part === '' && (i === 0 || i < value.length - 1));
}

/** Why a path its params wrote is refused (development builds only). */
function unfit(path: string): string {
  const dots = DOT_SEGMENT.exec(path);
  return dots
    ? `: a ${JSON.stringify(dots[1] ?? '')} segment is not a path segment, URLs remove it`
    : ', which it does not match: a value holds the text that separates two params';
}

// Express 4 and path-to-regexp 6 wrote `:id?`, `*`, `:id+` and `(\\d+)`; version 8 refuses them all.
const OLD_SYNTAX = /[?(+]|\*(?![\w$])/;
const SYNTAX_HINT = ' (path-to-regexp 8 patterns: an optional part is {/:id}, a wildcard *name, and no regexp groups)';

/** A hint for a pattern written in an older path-to-regexp's syntax (development builds only). */
function syntaxHint(path: string): string {
  return OLD_SYNTAX.test(path) ? SYNTAX_HINT : '';
}

/** What a param's value should have been, in path-to-regexp's words (`Expected "id" to be a string`). */
function expected(token: Param, part?: number): string {
  const name = part === undefined ? token.name : `${token.name}/${part}`;
  return `Expected "${name}" to be ${part === undefined && token.type === 'wildcard' ? 'a non-empty array' : 'a string'}`;
}

/**
 * The path `tokens` write with `params`, as path-to-regexp's compile() writes it (one less function
 * of it in every app): each value `encode`d, a wildcard's parts joined by `/`, an optional group
 * left out when a param in it is missing. Null when a param outside every group is missing; a
 * value of the wrong type is an error, thrown by `wrongType` with its token (and the index of a
 * wildcard's part). Internal.
 */
export function writePath(
  tokens: readonly Token[],
  params: Params,
  encode: (value: string) => string,
  wrongType: (token: Param, part?: number) => never,
): string | null {
  let path = '';
  let missing = false;
  // Token by token, as compile() does: a wrong value after a missing one still throws.
  for (const token of tokens) {
    if (typeof token === 'string') path += token;
    else if (Array.isArray(token)) path += writePath(token, params, encode, wrongType) ?? '';
    else {
      const value = params[token.name];
      // A param's value, or a wildcard's part `i`.
      const write = (part: unknown, i?: number): string => (typeof part === 'string' ? encode(part) : wrongType(token, i));
      if (value == null) missing = true;
      else
        path +=
          token.type === 'param' ? write(value) : Array.isArray(value) && value.length ? value.map(write).join('/') : wrongType(token);
    }
  }
  return missing ? null : path;
}

// path-to-regexp 8 takes `{/:lang}/about`; a route path starts with `/`, so its group goes after it.
function leadingGroupHint(path: unknown): string {
  const group = typeof path === 'string' ? /^\{\/([^{}]*)\}(\/.*)?$/.exec(path) : null;
  if (!group) return '';
  const [, inside, rest] = group;
  return ` (an optional first segment is written "/{${inside}${rest ? `/}${rest.slice(1)}` : '}'}")`;
}

/** Compiles one route's pattern. Internal to the package; the fuzz tests check every regexp it makes. */
export function compileRoute(route: Pattern, sensitive: boolean): CompiledRoute {
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
    throw new RouteError(
      'BAD_PATTERN',
      DEV ? `a route path must be a string starting with "/", got ${JSON.stringify(route.path)}${leadingGroupHint(route.path)}` : '',
    );
  }
  const fail = (message: string): never => {
    throw new RouteError(
      'BAD_PATTERN',
      DEV ? `bad pattern ${JSON.stringify(route.path)}: ${message}: ${route.path}${syntaxHint(route.path)}` : '',
    );
  };
  // Literal text is written in canonical location spelling (`/café` is `/caf%C3%A9`), as paths are.
  // A pattern past the engine's own limits (groups nested thousands deep overflow the stack, a regexp
  // too large is refused) is as bad a pattern as any other: a RouteError, never a RangeError.
  let tokens: Token[], regexp: RegExp, keys: Param[];
  try {
    tokens = parse(route.path, canonicalPathText, fail);
    ({ regexp, keys } = toRegexp(tokens, sensitive, fail));
  } catch (x) {
    if (x instanceof RouteError) throw x;
    return fail(DEV ? `too large to compile (${String(x)})` : '');
  }
  const names = keys.map((k) => k.name);
  // A param named twice is one value for two places, and a literal `//`, `.` or `..` segment is one
  // no location has: such a route would never work as written. A development check, as React's are:
  // a production build (0 B of it) lets the route be, never matching.
  if (DEV) {
    const declared = paramNames(tokens);
    const twice = declared.find((name, i) => declared.indexOf(name) !== i);
    // The text as the regexp reads it (escapes of `.` decoded, `\.` unescaped), each param or group one character.
    const text = tokens.map((token) => (typeof token === 'string' ? token : 'x')).join('');
    if (twice !== undefined || DOT_SEGMENT.test(text))
      throw new RouteError(
        'BAD_PATTERN',
        `bad pattern ${JSON.stringify(route.path)}: ${twice === undefined ? 'a "//", "." or ".." segment, which no URL keeps' : `the param "${twice}" is named twice`}`,
      );
  }
  const required = requiredNames(tokens);
  // A param value as it goes into a path: every character but the unreserved and `!'()*` escaped.
  const encode = (value: string): string =>
    encodeComponent(value, (index) => {
      throw new RouteError('BAD_PARAM', DEV ? `a param of ${describe(route)} has a lone surrogate at index ${index}` : '');
    });
  const wrongType = (token: Param, part?: number): never => {
    throw new RouteError('BAD_PARAM', DEV ? `${expected(token, part)} for ${describe(route)}` : '');
  };

  const build = (given?: Params): string => {
    // Own params only: a param named `constructor` or `toString` that is not given is missing, not
    // Object's. None given (undefined or null) is none at all.
    const params = Object.assign(record<Params>(), given);
    // An empty param makes `//`, which a location collapses; a wildcard may end with one
    // (`['a', '']` is `a/`, as match reads a trailing slash).
    if (names.some((name) => writesEmptySegment(params[name])))
      throw new RouteError('BAD_PARAM', DEV ? `a param of ${describe(route)} cannot be "": it is not a path segment` : '');
    const missing = (name: string) => params[name] == null;
    if (required.some(missing))
      throw new RouteError('MISSING_PARAM', DEV ? `missing param ${required.filter(missing).join(', ')} for ${describe(route)}` : '');
    // With every required param there, nothing outside a group is missing.
    const path = writePath(tokens, params, encode, wrongType) as string;
    // A `.` or `..` segment, whichever params wrote it (`/:a` with `..`, `/.:b` with `.`), or an
    // empty one: a location removes it, so the path is not its own location. The path's text is
    // canonical (params escaped, the pattern's text canonical), so the location differs for these
    // alone (a `.` inside a segment is text). And `/:a.:b` never matches a `b` holding a `.`, and
    // `.` `-` `~` cannot be escaped (a location decodes them): a location its own route cannot
    // match would be a link to nowhere.
    if (normalizeLocation(path) !== path || !regexp.test(path))
      throw new RouteError('BAD_PARAM', DEV ? `the params of ${describe(route)} make ${JSON.stringify(path)}${unfit(path)}` : '');
    return path;
  };
  return { regexp, tokens: tokens, keys, names, build };
}
