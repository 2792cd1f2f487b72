// The route pattern language: path-to-regexp 8's, read and compiled here to the tokens (in a leaner
// form, below) and the very regexps path-to-regexp makes, as of PATH_TO_REGEXP_VERSION below
// (test/routes/pattern/syntax.test.ts holds every pattern a property test draws to the package's own output, and
// to its errors, and fails while another version is installed). Written for this
// package alone: the delimiter is `/`, a trailing `/` is optional and the match ends with the path,
// which is all the route table asks for, so an app carries 416 B less than with the package's
// parse() and pathToRegexp().
// The regexps are path-to-regexp's design (MIT, (c) 2014 Blake Embrey): a param stops at `/` and at
// the text before it, so no pattern backtracks without bound.

import { DEV } from '../../env/dev.js';

/**
 * The path-to-regexp release whose parser and regexps this module follows: test/routes/pattern/syntax.test.ts fails
 * while another is installed, until its equality tests pass against it and this names it. Internal.
 */
export const PATH_TO_REGEXP_VERSION = '8.4.2';

/**
 * One piece of a parsed pattern: literal text (a string), a `:param` or `*wildcard` (path-to-regexp's
 * token), or an optional `{group}` (an array of its tokens). path-to-regexp writes text and groups as
 * objects with a `type` too: plain strings and arrays are told apart with no field to compare, in
 * less code. Internal.
 */
export type Token = string | Param | Token[];

/** A param or wildcard token. Internal. */
export type Param = { type: 'param' | 'wildcard'; name: string };

/** Whether `token` is a param or wildcard (of `type`, when given). Internal. */
export const isParam = (token: Token | undefined, type?: Param['type']): token is Param =>
  typeof token === 'object' && !Array.isArray(token) && (!type || token.type === type);

const ID_START = /^[$_\p{ID_Start}]$/u;
const ID_CONTINUE = /^[$\u200c\u200d\p{ID_Continue}]$/u;

/** `text` as regexp source that matches it literally. */
const escape = (text: string): string => text.replace(/[.+*?^${}()[\]|/\\]/g, '\\$&');

/**
 * The tokens of `path`, each text token's value passed through `encode`. A malformed pattern calls
 * `fail` with path-to-regexp's words for the fault (`Unexpected ( at index 2`; development builds
 * only, '' in production). Internal.
 */
export function parse(path: string, encode: (text: string) => string, fail: (message: string) => never): Token[] {
  // Code points, as path-to-regexp counts its indexes.
  const chars = [...path];
  let i = 0;
  // The tokens up to `end` (a group's `}`; the pattern's own, up to the end of the path).
  const read = (end?: string): Token[] => {
    const tokens: Token[] = [];
    let text = '';
    // Text ends where a param or a group starts, and with its group.
    const push = (token?: Token): void => {
      if (text) tokens.push(encode(text));
      text = '';
      if (token) tokens.push(token);
    };
    for (let char; (char = chars[i++]) !== end; ) {
      if (char === undefined) fail(DEV ? `Unexpected end at index ${i - 1}, expected ${end}` : '');
      else if (char === '\\') text += chars[i++] ?? fail(DEV ? `Unexpected end after \\ at index ${i - 1}` : '');
      else if (char === ':' || char === '*') {
        let name = '';
        // Past the end, `test` reads "undefined", no one character.
        while ((name ? ID_CONTINUE : ID_START).test(chars[i] as string)) name += chars[i++];
        if (!name && chars[i] === '"') {
          // A quoted name (`:"a b"`), where `\` escapes the next character.
          const start = i;
          while (chars[++i] !== '"') {
            if (i >= chars.length) fail(DEV ? `Unterminated quote at index ${start}` : '');
            name += chars[i] === '\\' ? chars[++i] : chars[i];
          }
          i++;
        }
        if (!name) fail(DEV ? `Missing parameter name at index ${i}` : '');
        push({ type: char === ':' ? 'param' : 'wildcard', name });
      } else if (char === '{') push(read('}'));
      else if ('}()[]+?!'.includes(char)) fail(DEV ? `Unexpected ${char} at index ${i - 1}` : '');
      else text += char;
    }
    push();
    return tokens;
  };
  return read();
}

/**
 * Calls `each` with every sequence of tokens that `tokens` can be, each optional group taken before
 * it is left out.
 */
function flatten(tokens: readonly Token[], from: number, sequence: Token[], each: (sequence: Token[]) => void): void {
  for (let i = from; i < tokens.length; ) {
    const token = tokens[i++] as Token;
    if (Array.isArray(token)) {
      const length = sequence.length;
      flatten(token, 0, sequence, (taken) => flatten(tokens, i, taken, each));
      sequence.length = length;
    } else sequence.push(token);
  }
  each(sequence);
}

/**
 * A regexp class of one character that does not start `text` (and is no `/`, with `not` the `\/`
 * that says so): path-to-regexp's negate() of `text` and `''`, or of `'/'` and `text`, the only ways
 * toSource calls it. A param's `text` is text of its own segment, never a `/`: the `/` that
 * path-to-regexp's negate() drops when both name it never comes.
 */
function negate(text: string, not: '\\/' | ''): string {
  // A class leaves out characters, not texts: a longer text is a lookahead in front of it.
  if (text.length > 1) return `(?:(?!${escape(text)})[^${not}])`;
  return `[^${not}${escape(text)}]`;
}

/** The regexp source of one sequence of tokens (no groups), each capture's token added to `keys`. */
function toSource(tokens: readonly Token[], keys: Param[], fail: (message: string) => never): string {
  let source = '';
  // The text since the last capture, and since the last wildcard.
  let back = '';
  let wildBack = '';
  // 1: the last capture was a param, 2: a wildcard; `seen` holds both kinds met in this segment.
  let last = 0;
  let seen = 0;
  // When a wildcard comes later in this segment, the text that comes next (path-to-regexp's
  // hasInSegment() and peekText()); null when none does.
  const beforeWildcard = (from: number): string | null => {
    let text = '';
    let next = true;
    for (let i = from; i < tokens.length; i++) {
      const token = tokens[i] as string | Param;
      if (typeof token !== 'string') {
        if (token.type === 'wildcard') return text;
        next = false;
      } else if (token.includes('/')) break;
      else if (next) text += token;
    }
    return null;
  };
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i++] as string | Param;
    if (typeof token === 'string') {
      source += escape(token);
      back += token;
      if (last === 2) wildBack += token;
      if (token.includes('/')) seen = 0;
      continue;
    }
    if (last && !back) fail(DEV ? `Missing text before "${token.name}" ${token.type}` : '');
    // Each capture is a run of characters that do not start the text it stops at (`stop`), or
    // another choice (`or`), path-to-regexp's cases one for one.
    let stop: string;
    // A param holds no `/`; a wildcard may.
    let not: '\\/' | '' = '\\/';
    let or = '';
    if (token.type === 'param') {
      // Within its segment: after a wildcard, it stops at the text before it; before one, at the
      // text after it; after a param, at the text before it, or it is that text.
      const ahead = seen & 2 ? null : beforeWildcard(i);
      stop = ahead ?? (seen ? back : '');
      if (seen === 1 && ahead === null) or = '|' + escape(back);
      seen |= last = 1;
    } else {
      // After a wildcard in its segment, it stops at the text before it; else after a wildcard in
      // another, at the text since that one, or it is one segment; else it takes anything.
      not = '';
      stop = seen & 2 ? back : wildBack;
      if (!(seen & 2) && wildBack) or = '|[^\\/]+';
      wildBack = '';
      seen |= last = 2;
    }
    source += `(${negate(stop, not)}+${or})`;
    keys.push(token);
    back = '';
  }
  return source;
}

/**
 * The regexp that matches a path against `tokens` (a trailing `/` optional, case-insensitive unless
 * `sensitive`) and its captures' tokens, in order. Internal.
 */
export function toRegexp(
  tokens: readonly Token[],
  sensitive: boolean,
  fail: (message: string) => never,
): { regexp: RegExp; keys: Param[] } {
  const keys: Param[] = [];
  let source = '';
  let count = 0;
  flatten(tokens, 0, [], (sequence) => {
    // Each optional group doubles the alternatives: 8 groups make 256, the most there may be.
    if (count >= 256) fail(DEV ? 'Too many path combinations' : '');
    source += (count++ ? '|' : '') + toSource(sequence, keys, fail);
  });
  return { regexp: new RegExp(`^(?:${source})(?:\\/$)?$`, sensitive ? '' : 'i'), keys };
}
