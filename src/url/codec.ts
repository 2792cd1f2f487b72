// The AJAX crawling scheme's mapping between pretty (#!) and ugly (_escaped_fragment_) URLs.
// The rules: docs/scheme.md, "Pretty to ugly" and "Ugly to pretty". Every string operation here works on the URL
// as given: nothing is parsed by WHATWG URL, so host case, ports, `%7e` and `./` survive untouched.

import { DEV } from '../env/dev.js';
import { cleanDecode, loneFault, percentEncode, strictDecode, type PercentFault } from './percent.js';

/** What a `CodecError` is about. */
export type CodecErrorCode = 'MALFORMED_ESCAPE' | 'INVALID_UTF8' | 'LONE_SURROGATE' | 'NOT_PRETTY' | 'NOT_UGLY';

/** A URL or fragment the codec cannot map; `code` names the fault, `input` is what was given. */
export class CodecError extends Error {
  /** The kind of fault. */
  declare readonly code: CodecErrorCode;
  /** The text the codec was given. */
  declare readonly input: string;
  /** Where in `input` the fault is, or -1 when it is about the whole input. */
  declare readonly index: number;

  constructor(code: CodecErrorCode, message: string, input: string, index = -1) {
    // A production build drops the long texts (src/env/dev.ts): the message is then the code.
    super(message || code);
    this.name = 'CodecError';
    this.code = code;
    this.input = input;
    this.index = index;
  }
}

/** The query parameter that carries an escaped fragment: the scheme's one name for it. */
export const PARAM = '_escaped_fragment_';
const PARAM_IS = PARAM + '=';
const NEW_PARAM = '?' + PARAM_IS;
const AND_PARAM = '&' + PARAM_IS;
// What the scheme keeps: printable ASCII but # % & +, so it escapes %00-20 %23 %25-26 %2B %7F-FF;
// every byte of a non-ASCII character is %80-FF.
const SAFE = /[!"$'-*,-~]/;

/**
 * The error for `what` is wrong at `index` of `input` (-1: the whole input), with the input quoted
 * around it: when it is longer than 100 characters, the 100 from 50 before the fault. The text is
 * for development only (`what` is written `DEV && …`): a production build keeps code, input, index.
 */
function fail(code: CodecErrorCode, what: string | false, input: string, index: number): CodecError {
  let message = '';
  if (DEV) {
    const from = Math.max(0, Math.min(index - 50, input.length - 100));
    const cut = (from ? '…' : '') + JSON.stringify(input.slice(from, from + 100)) + (from + 100 < input.length ? '…' : '');
    message = `${what}${index < 0 ? '' : ' at index ' + index} in ${cut}`;
  }
  return new CodecError(code, message, input, index);
}

/** The scheme's escaping of `text` from `from`; a lone surrogate's fault is thrown, for `code`, which knows the whole input. */
const encode = (text: string, from: number): string => {
  const out = percentEncode(text, SAFE, from);
  if (out === null) throw loneFault(text, from);
  return out;
};

/**
 * Escapes or unescapes (`run`) `text` from `from`, a part of `input` that starts at `offset`; a fault is a
 * CodecError. `run` is passed in so that an app which only reads URLs bundles no encoder.
 */
function code(run: (text: string, from: number) => string | PercentFault, text: string, input: string, offset: number, from = 0): string {
  let out: string | PercentFault;
  try {
    out = run(text, from);
  } catch (fault) {
    out = fault as PercentFault;
  }
  if (typeof out === 'string') return out;
  throw faultError(out, input, offset);
}

/** The CodecError for `fault`, found in the text at `offset` of `input`. */
function faultError(fault: PercentFault, input: string, offset: number): CodecError {
  // MALFORMED_ESCAPE is "malformed escape", INVALID_UTF8 "invalid utf8", LONE_SURROGATE "lone surrogate".
  return fail(
    fault.kind,
    DEV && fault.kind.toLowerCase().replace('_', ' ') + ' ' + JSON.stringify(fault.text),
    input,
    offset + fault.index,
  );
}

/** Escapes a fragment for the query string: UTF-8, then exactly `%00-20 %23 %25-26 %2B %7F-FF`. */
export function escapeFragment(text: string): string {
  return code(encode, text, text, 0);
}

/** Reverses `escapeFragment`: decodes every `%XX` as UTF-8, strictly; `+` stays a plus. */
export function unescapeFragment(text: string): string {
  return code(strictDecode, text, text, 0);
}

/** Where `url`'s query ends: its `#`, or its length. Internal: also where a location's anchor starts. */
export function endOf(url: string): number {
  const hash = url.indexOf('#');
  return hash < 0 ? url.length : hash;
}

/** Where `url`'s query starts, its `?` before `end`, or -1. */
function queryAt(url: string, end: number): number {
  const query = url.indexOf('?');
  return query < end ? query : -1;
}

const AMPERSAND = 38; // '&'
const EQUALS = 61; // '='

/**
 * Where the first `_escaped_fragment_` parameter of `url`'s query starts, or -1. The query runs from
 * `query` (its `?`, or -1 for none; found when not given) to `end`; the parameter is bare (`_escaped_fragment_`) or has a
 * value (`_escaped_fragment_=…`), and starts right after the `?` or after an `&`.
 */
function paramAt(url: string, end: number, query = queryAt(url, end)): number {
  if (query < 0) return -1;
  for (let at = query; (at = url.indexOf(PARAM, at + 1)) > 0 && at + PARAM.length <= end; ) {
    const startsParam = at === query + 1 || url.charCodeAt(at - 1) === AMPERSAND;
    const after = at + PARAM.length;
    const endsName = after === end || url.charCodeAt(after) === EQUALS || url.charCodeAt(after) === AMPERSAND;
    if (startsParam && endsName) return at;
  }
  return -1;
}

/**
 * Where an ugly URL's one, last parameter starts; or, when `url` is not ugly, why: -1 it has no
 * `_escaped_fragment_` parameter, -2 the parameter is not the last, -3 a fragment follows it.
 */
function uglyAt(url: string): number {
  const end = endOf(url);
  const at = paramAt(url, end);
  if (at < 0) return -1;
  const amp = url.indexOf('&', at);
  return amp >= 0 && amp < end ? -2 : end < url.length ? -3 : at;
}

/** The error for a URL that is not ugly, `reason` as `uglyAt` gave it. */
function notUgly(url: string, reason: number): CodecError {
  const end = endOf(url);
  return reason === -1
    ? fail('NOT_UGLY', DEV && `no ${PARAM} parameter`, url, -1)
    : reason === -2
      ? fail('NOT_UGLY', DEV && `${PARAM} is not the last parameter`, url, paramAt(url, end))
      : fail('NOT_UGLY', DEV && `fragment ${JSON.stringify(url.slice(end))} after ${PARAM}`, url, end);
}

/**
 * True when `url`'s query has an `_escaped_fragment_` parameter: an ugly URL, or (the parameter not
 * the single, last one, or a fragment after it) one malformed for the scheme, never a clean URL.
 * The one test of the parameter's presence, for the codec, locations, the server and `verify`.
 */
export function hasEscapedFragment(url: string): boolean {
  const end = endOf(url);
  return paramAt(url, end) >= 0;
}

/** True when `url` has a `#!` fragment and no `_escaped_fragment_` parameter of its own. */
export function isPrettyUrl(url: string): boolean {
  const end = endOf(url);
  return url.charCodeAt(end + 1) === 33 && paramAt(url, end) < 0;
}

/** True when `url`'s query ends in its one `_escaped_fragment_` parameter and it has no fragment. */
export function isUglyUrl(url: string): boolean {
  return uglyAt(url) >= 0;
}

/**
 * Maps a pretty URL to the ugly URL a crawler requests: the `#!` fragment becomes the last query
 * parameter, escaped. A URL with no fragment maps to its meta-tag form (`?_escaped_fragment_=`).
 */
export function toUglyUrl(url: string): string {
  const end = endOf(url);
  if (end < url.length && url.charCodeAt(end + 1) !== 33)
    throw fail('NOT_PRETTY', DEV && `${JSON.stringify(url.slice(end))} is not a #! fragment`, url, end);
  const query = queryAt(url, end);
  const at = paramAt(url, end, query);
  if (at >= 0) throw fail('NOT_PRETTY', DEV && `${PARAM} is already a parameter`, url, at);
  // The fragment is escaped where it is in `url`: no slice to read through, and when nothing in it
  // needs escaping, one slice out.
  const value = end < url.length ? code(encode, url, url, 0, end + 2) : '';
  return url.slice(0, end) + (query < 0 ? NEW_PARAM : query === end - 1 ? PARAM_IS : AND_PARAM) + value;
}

/** The decoded state of an ugly URL and the URL without its `_escaped_fragment_` parameter. */
export interface UglyState {
  /** The pretty URL's page: the ugly URL without the parameter and the `?`/`&` before it. */
  page: string;
  /** The unescaped fragment; `''` for the meta-tag form. */
  fragment: string;
}

/** The state of the ugly URL `url`, whose parameter starts at `last`, with its fragment decoded. */
function withPage(url: string, last: number, fragment: string): UglyState {
  // An ugly URL has no fragment: its query starts at its first `?`.
  const query = url.indexOf('?');
  // Bing asks for `/?&_escaped_fragment_=`: parameters that are all empty are no query at all.
  let i = query + 1;
  while (i < last - 1 && url.charCodeAt(i) === AMPERSAND) i++;
  return { page: url.slice(0, i < last - 1 ? last - 1 : query), fragment };
}

/** Reads an ugly URL strictly; internal to the package (`toLocation` and the server build on it). */
export function readUglyUrl(url: string): UglyState {
  const last = uglyAt(url);
  if (last < 0) throw notUgly(url, last);
  // The meta-tag form's empty value decodes to ''.
  return withPage(url, last, code(strictDecode, url, url, 0, last + PARAM.length + 1));
}

/**
 * `readUglyUrl` with null for a URL it would throw for. Internal: the client reads URLs with it,
 * so that it bundles no CodecError.
 */
export function uglyState(url: string): UglyState | null {
  const last = uglyAt(url);
  const fragment = last < 0 ? null : cleanDecode(url, last + PARAM.length + 1);
  return fragment !== null ? withPage(url, last, fragment) : null;
}

/**
 * Maps an ugly URL back to its pretty URL: the last parameter `_escaped_fragment_=v` leaves the
 * query and `#!` plus the unescaped `v` is appended; an empty `v` (the meta-tag form) appends nothing.
 */
export function toPrettyUrl(url: string): string {
  const { page, fragment } = readUglyUrl(url);
  return fragment === '' ? page : page + '#!' + fragment;
}
