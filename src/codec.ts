// The AJAX crawling scheme's mapping between pretty (#!) and ugly (_escaped_fragment_) URLs.
// Spec: shared/spec/agreement-and-pushstate.txt, "Mapping from #! to _escaped_fragment_ format" and
// "Escaping characters in the bidirectional mapping". Every string operation here works on the URL
// as given: nothing is parsed by WHATWG URL, so host case, ports, `%7e` and `./` survive untouched.

import { escapeTable, percentEncode, strictDecode, type PercentFault } from './percent.js';

/** What a `CodecError` is about. */
export type CodecErrorCode =
  | 'MALFORMED_ESCAPE'
  | 'INVALID_UTF8'
  | 'LONE_SURROGATE'
  | 'NOT_PRETTY'
  | 'NOT_UGLY';

/** A URL or fragment the codec cannot map; `code` names the fault, `input` is what was given. */
export class CodecError extends Error {
  /** The kind of fault. */
  declare readonly code: CodecErrorCode;
  /** The text the codec was given. */
  declare readonly input: string;
  /** Where in `input` the fault is, or -1 when it is about the whole input. */
  declare readonly index: number;

  constructor(code: CodecErrorCode, message: string, input: string, index = -1) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
    this.input = input;
    this.index = index;
  }
}

const PARAM = '_escaped_fragment_';
// A `_escaped_fragment_` parameter anywhere in a query (no `?`): bare or with a value.
const HAS_PARAM = /(?:^|&)_escaped_fragment_(?:[=&]|$)/;
// What the scheme escapes: everything but printable ASCII, and # % & + (%00-20 %23 %25-26 %2B
// %7F-FF); every byte of a non-ASCII character is %80-FF.
const UNSAFE = escapeTable(/[!"$'-*,-~]/);

/** Quotes an input for an error message, cut to 100 characters around `index` when it is long. */
function quote(input: string, index: number): string {
  const long = input.length > 120;
  const from = long ? Math.max(0, Math.min(index - 50, input.length - 100)) : 0;
  const to = long ? from + 100 : input.length;
  return (from ? '…' : '') + JSON.stringify(input.slice(from, to)) + (to < input.length ? '…' : '');
}

/** The error for `what`, found at `index` of `input` (-1: about the whole input). */
function fail(code: CodecErrorCode, what: string, input: string, index = -1): CodecError {
  return new CodecError(code, `${what}${index < 0 ? '' : ' at index ' + index} in ${quote(input, index)}`, input, index);
}

/** The CodecError for a percent-encoding fault in a part of `input` that starts at `offset`. */
function faultError({ kind, index, text }: PercentFault, input: string, offset: number): CodecError {
  const what = kind === 'MALFORMED_ESCAPE' ? 'malformed escape ' : kind === 'INVALID_UTF8' ? 'invalid UTF-8 ' : 'lone surrogate ';
  return fail(kind, what + (kind === 'LONE_SURROGATE' ? text : JSON.stringify(text)), input, offset + index);
}

const raise = (fault: PercentFault): never => {
  throw fault;
};

/** Escapes `text`, a part of `input` that starts at `offset`. */
function escape(text: string, input: string, offset: number): string {
  try {
    return percentEncode(text, UNSAFE, raise);
  } catch (fault) {
    throw faultError(fault as PercentFault, input, offset);
  }
}

/** Unescapes `text`, a part of `input` that starts at `offset`. */
function unescape(text: string, input: string, offset: number): string {
  const out = strictDecode(text);
  if (typeof out === 'string') return out;
  throw faultError(out, input, offset);
}

/** Escapes a fragment for the query string: UTF-8, then exactly `%00-20 %23 %25-26 %2B %7F-FF`. */
export function escapeFragment(text: string): string {
  return escape(text, text, 0);
}

/** Reverses `escapeFragment`: decodes every `%XX` as UTF-8, strictly; `+` stays a plus. */
export function unescapeFragment(text: string): string {
  return unescape(text, text, 0);
}

/** Where `url`'s query starts (its `?`, or -1) and ends (its `#`, or its length). */
function queryOf(url: string): [query: number, end: number] {
  const hash = url.indexOf('#');
  const end = hash < 0 ? url.length : hash;
  const query = url.indexOf('?');
  return [query < end ? query : -1, end];
}

/** True when `url[from..to)`, a query without its `?`, has a `_escaped_fragment_` parameter. */
function hasParam(url: string, from: number, to: number): boolean {
  const at = url.indexOf(PARAM, from);
  return at >= 0 && at < to && HAS_PARAM.test(url.slice(from, to));
}

/** Where an ugly URL's `?` is and where its last parameter starts, or why `url` is not ugly. */
function uglyParts(url: string): [query: number, last: number] | string {
  const [query, end] = queryOf(url);
  const last = Math.max(query, url.lastIndexOf('&', end - 1)) + 1;
  const after = last + PARAM.length;
  if (query < 0 || after > end || !url.startsWith(PARAM, last) || (after < end && url.charCodeAt(after) !== 61)) {
    return query >= 0 && hasParam(url, query + 1, end) ? `${PARAM} is not the last parameter` : `no ${PARAM} parameter`;
  }
  if (hasParam(url, query + 1, last - 1)) return `${PARAM} appears more than once`;
  return end < url.length ? 'an ugly URL has no fragment' : [query, last];
}

/** True when `url` has a `#!` fragment and no `_escaped_fragment_` parameter of its own. */
export function isPrettyUrl(url: string): boolean {
  const [query, end] = queryOf(url);
  return url.charCodeAt(end + 1) === 33 && !(query >= 0 && hasParam(url, query + 1, end));
}

/** True when `url`'s query ends in its one `_escaped_fragment_` parameter and it has no fragment. */
export function isUglyUrl(url: string): boolean {
  return typeof uglyParts(url) !== 'string';
}

/**
 * Maps a pretty URL to the ugly URL a crawler requests: the `#!` fragment becomes the last query
 * parameter, escaped. A URL with no fragment maps to its meta-tag form (`?_escaped_fragment_=`).
 */
export function toUglyUrl(url: string): string {
  const [query, end] = queryOf(url);
  if (end < url.length && url.charCodeAt(end + 1) !== 33) throw fail('NOT_PRETTY', `${JSON.stringify(url.slice(end))} is not a #! fragment`, url, end);
  if (query >= 0 && hasParam(url, query + 1, end)) throw fail('NOT_PRETTY', `${PARAM} is already a parameter`, url, query);
  const value = end < url.length ? escape(url.slice(end + 2), url, end + 2) : '';
  return url.slice(0, end) + (query < 0 ? '?' : query === end - 1 ? '' : '&') + PARAM + '=' + value;
}

/** The decoded state of an ugly URL and the URL without its `_escaped_fragment_` parameter. */
export interface UglyState {
  /** The pretty URL's page: the ugly URL without the parameter and the `?`/`&` before it. */
  page: string;
  /** The unescaped fragment; `''` for the meta-tag form. */
  fragment: string;
}

/** Reads an ugly URL strictly; internal to the package (`toLocation` and the server build on it). */
export function readUglyUrl(url: string): UglyState {
  const parts = uglyParts(url);
  if (typeof parts === 'string') throw fail('NOT_UGLY', parts, url);
  const [query, last] = parts;
  const start = last + PARAM.length + 1;
  // Bing asks for `/?&_escaped_fragment_=`: parameters that are all empty are no query at all.
  let i = query + 1;
  while (i < last - 1 && url.charCodeAt(i) === 38) i++;
  return { page: url.slice(0, i < last - 1 ? last - 1 : query), fragment: unescape(url.slice(start), url, start) };
}

/**
 * Maps an ugly URL back to its pretty URL: the last parameter `_escaped_fragment_=v` leaves the
 * query and `#!` plus the unescaped `v` is appended; an empty `v` (the meta-tag form) appends nothing.
 */
export function toPrettyUrl(url: string): string {
  const { page, fragment } = readUglyUrl(url);
  return fragment === '' ? page : page + '#!' + fragment;
}
