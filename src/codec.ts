// The AJAX crawling scheme's mapping between pretty (#!) and ugly (_escaped_fragment_) URLs.
// Spec: shared/spec/agreement-and-pushstate.txt, "Mapping from #! to _escaped_fragment_ format" and
// "Escaping characters in the bidirectional mapping". Every string operation here works on the URL
// as given: nothing is parsed by WHATWG URL, so host case, ports, `%7e` and `./` survive untouched.

import { escapeTable, percentDecode, percentEncode, type PercentFault } from './percent.js';

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
  readonly code: CodecErrorCode;
  /** The text the codec was given. */
  readonly input: string;
  /** Where in `input` the fault is, or -1 when it is about the whole input. */
  readonly index: number;

  constructor(code: CodecErrorCode, message: string, input: string, index = -1) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
    this.input = input;
    this.index = index;
  }
}

const PARAM = '_escaped_fragment_';
const PARAM_EQ = PARAM + '=';

// What the scheme escapes: everything but printable ASCII, and # % & + (%00-20 %23 %25-26 %2B
// %7F-FF); non-ASCII goes through encodeURIComponent, which writes exactly those bytes in UTF-8.
const UNSAFE = escapeTable(/[!"$'-*,-~]/);

/** Quotes an input for an error message, cut around `index` when it is long. */
function quote(input: string, index: number): string {
  if (input.length <= 120) return JSON.stringify(input);
  const from = Math.max(0, Math.min(index < 0 ? 0 : index - 50, input.length - 100));
  const cut = input.slice(from, from + 100);
  return (from > 0 ? '…' : '') + JSON.stringify(cut) + (from + 100 < input.length ? '…' : '');
}

function faultError(input: string, offset: number) {
  return (fault: PercentFault): never => {
    const index = fault.index + offset;
    const what =
      fault.kind === 'MALFORMED_ESCAPE'
        ? `malformed escape ${JSON.stringify(fault.text)}`
        : fault.kind === 'INVALID_UTF8'
          ? `invalid UTF-8 ${JSON.stringify(fault.text)}`
          : `lone surrogate ${fault.text}`;
    throw new CodecError(fault.kind, `${what} at index ${index} in ${quote(input, index)}`, input, index);
  };
}

/** Escapes a fragment for the query string: UTF-8, then exactly `%00-20 %23 %25-26 %2B %7F-FF`. */
export function escapeFragment(text: string): string {
  return percentEncode(text, UNSAFE, faultError(text, 0));
}

/** Reverses `escapeFragment`: decodes every `%XX` as UTF-8, strictly; `+` stays a plus. */
export function unescapeFragment(text: string): string {
  return percentDecode(text, 0, text.length, faultError(text, 0));
}

/** Where an ugly URL's parts are, or why the URL is not ugly. */
interface UglyParts {
  /** The URL before its query (`?` excluded). */
  page: string;
  /** The parameters before `_escaped_fragment_`, as written. */
  rest: string;
  /** Index of the escaped value's first character. */
  valueStart: number;
}

/** Splits `url` into page, query and fragment positions without parsing anything else. */
function split(url: string): { query: number; hash: number } {
  const hash = url.indexOf('#');
  const query = url.indexOf('?');
  return { query: query >= 0 && (hash < 0 || query < hash) ? query : -1, hash };
}

function isParam(query: string, at: number): boolean {
  return query.startsWith(PARAM, at) && (query.length === at + PARAM.length || query[at + PARAM.length] === '=' || query[at + PARAM.length] === '&');
}

/** Counts `_escaped_fragment_` parameters in a query and finds the last one's start. */
function findParams(query: string): { count: number; last: number } {
  let count = 0;
  let last = -1;
  for (let at = 0; at <= query.length; ) {
    if (isParam(query, at)) (count++, (last = at));
    const amp = query.indexOf('&', at);
    if (amp < 0) break;
    at = amp + 1;
  }
  return { count, last };
}

/** Reads an ugly URL's parts, or returns the reason it is not ugly. */
function uglyParts(url: string): UglyParts | string {
  const { query, hash } = split(url);
  if (query < 0) return `no ${PARAM} parameter in ${quote(url, -1)}`;
  const end = hash < 0 ? url.length : hash;
  const q = url.slice(query + 1, end);
  const { count, last } = findParams(q);
  if (count === 0) return `no ${PARAM} parameter in ${quote(url, -1)}`;
  if (count > 1) return `${PARAM} appears ${count} times in ${quote(url, -1)}; the scheme allows one`;
  if (q.indexOf('&', last) >= 0) return `${PARAM} is not the last parameter in ${quote(url, -1)}`;
  if (hash >= 0) return `an ugly URL has no fragment, but ${quote(url, -1)} has one`;
  const valueStart = query + 1 + last + PARAM.length + 1;
  return { page: url.slice(0, query), rest: q.slice(0, Math.max(0, last - 1)), valueStart: Math.min(valueStart, url.length) };
}

/** True when `url` has a `#!` fragment and no `_escaped_fragment_` parameter of its own. */
export function isPrettyUrl(url: string): boolean {
  const { query, hash } = split(url);
  if (hash < 0 || url.charCodeAt(hash + 1) !== 33) return false;
  return query < 0 || findParams(url.slice(query + 1, hash)).count === 0;
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
  const { query, hash } = split(url);
  if (hash >= 0 && url.charCodeAt(hash + 1) !== 33) {
    throw new CodecError('NOT_PRETTY', `${JSON.stringify(url.slice(hash))} is not a #! fragment in ${quote(url, hash)}`, url, hash);
  }
  const end = hash < 0 ? url.length : hash;
  if (query >= 0 && findParams(url.slice(query + 1, end)).count > 0) {
    throw new CodecError('NOT_PRETTY', `${quote(url, query)} already has an ${PARAM} parameter`, url, query);
  }
  const value = hash < 0 ? '' : percentEncode(url.slice(hash + 2), UNSAFE, faultError(url, hash + 2));
  const separator = query < 0 ? '?' : query === end - 1 ? '' : '&';
  return url.slice(0, end) + separator + PARAM_EQ + value;
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
  if (typeof parts === 'string') throw new CodecError('NOT_UGLY', parts, url);
  const fragment = percentDecode(url, parts.valueStart, url.length, faultError(url, 0));
  // Bing asks for `/?&_escaped_fragment_=`: parameters that are all empty are no query at all.
  const page = /^&*$/.test(parts.rest) ? parts.page : parts.page + '?' + parts.rest;
  return { page, fragment };
}

/**
 * Maps an ugly URL back to its pretty URL: the last parameter `_escaped_fragment_=v` leaves the
 * query and `#!` plus the unescaped `v` is appended; an empty `v` (the meta-tag form) appends nothing.
 */
export function toPrettyUrl(url: string): string {
  const { page, fragment } = readUglyUrl(url);
  return fragment === '' ? page : page + '#!' + fragment;
}
