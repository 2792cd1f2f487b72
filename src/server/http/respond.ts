// Building the answer for a page: conditional requests (RFC 9110 §13: If-None-Match with the
// weak comparison, If-Modified-Since only when there is no If-None-Match), gzip when the client
// accepts it, and the headers every answer carries. Nothing from the request reaches a header.

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Answer, Ask } from './exchange.js';

const gzip = promisify(gzipCallback);

/** A page to answer with. */
export interface Page {
  status: number;
  body: string;
  /** Strong ETag of `body`, quoted; none for error pages. */
  etag?: string;
  /** Last-Modified, in ms since the epoch. */
  lastModified?: number;
  cacheControl: string;
  /** Extra headers (Retry-After). */
  headers?: Record<string, string>;
  /** Request headers the answer depends on besides Accept-Encoding (`User-Agent`), for `Vary`. */
  vary?: string | undefined;
}

/** A strong ETag over a body: the quoted base64url SHA-1 of its UTF-8 bytes. */
export function etagOf(body: string): string {
  return '"' + createHash('sha1').update(body).digest('base64url') + '"';
}

function gzipTag(etag: string): string {
  return etag.slice(0, -1) + '-gz"';
}

/** True when the request's validators say the client's copy is current (only for 200 pages). */
export function isNotModified(request: Pick<Ask, 'header'>, etag: string | undefined, lastModified: number | undefined): boolean {
  const match = request.header('if-none-match');
  if (match !== null) {
    if (etag === undefined) return false;
    if (match.trim() === '*') return true;
    const tags = match.match(/(?:W\/)?"[^"]*"/g) ?? [];
    return tags.some((tag) => {
      const strong = tag.replace(/^W\//, '');
      return strong === etag || strong === gzipTag(etag);
    });
  }
  const since = request.header('if-modified-since');
  if (since === null || lastModified === undefined) return false;
  const date = Date.parse(since);
  // HTTP dates have whole seconds: compare at that precision.
  return !Number.isNaN(date) && Math.floor(lastModified / 1000) * 1000 <= date;
}

/** True when `Accept-Encoding` admits gzip (named with q > 0, or `*` with q > 0 and gzip not refused). */
export function acceptsGzip(request: Pick<Ask, 'header'>): boolean {
  const header = request.header('accept-encoding');
  if (!header) return false;
  let star = false;
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name.trim() === 'gzip' || name.trim() === 'x-gzip') return weight > 0;
    if (name.trim() === '*') star = weight > 0;
  }
  return star;
}

/** Bodies under this many bytes are sent as they are: gzip would not pay for its header. */
const GZIP_MIN = 1024;
const encoder = new TextEncoder();

/** Options of `respond`. */
export interface RespondOptions {
  /** gzip bodies for clients that accept it, and say `Vary: Accept-Encoding`. */
  compress: boolean;
  /** An object whose lifetime the prepared answer may be kept for (a stored snapshot, the shell). */
  memo?: object;
}

/** The headers and bytes of a 200-style answer, the same for every request that wants it. */
interface Prepared {
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

// Per memo object: the plain answer and the gzipped one, each prepared once, not once per request
// (the gzipped one is a promise until gzip is done).
const preparedFor = new WeakMap<object, [plain?: Prepared, zipped?: Prepared | Promise<Prepared>]>();

function headersOf(page: Page, compress: boolean, zip: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': page.cacheControl,
    'X-Content-Type-Options': 'nosniff',
    ...page.headers,
  };
  const vary = [page.vary, compress ? 'Accept-Encoding' : undefined].filter((name) => name !== undefined);
  if (vary.length) headers['Vary'] = vary.join(', ');
  if (page.lastModified !== undefined) headers['Last-Modified'] = new Date(page.lastModified).toUTCString();
  if (page.etag !== undefined) headers['ETag'] = zip ? gzipTag(page.etag) : page.etag;
  return headers;
}

function finish(headers: Record<string, string>, body: Uint8Array): Prepared {
  headers['Content-Length'] = String(body.byteLength);
  return { headers: Object.freeze(headers), body };
}

function preparePlain(page: Page, compress: boolean): Prepared {
  return finish(headersOf(page, compress, false), encoder.encode(page.body));
}

async function prepareZipped(page: Page, compress: boolean): Promise<Prepared> {
  const headers = headersOf(page, compress, true);
  const body = new Uint8Array(await gzip(encoder.encode(page.body)));
  headers['Content-Encoding'] = 'gzip';
  return finish(headers, body);
}

function answerWith(request: Ask, page: Page, { headers, body }: Prepared): Answer {
  if (page.status === 200 && isNotModified(request, page.etag, page.lastModified)) {
    const kept: Record<string, string> = {};
    for (const name of ['Cache-Control', 'ETag', 'Last-Modified', 'Vary'])
      if (headers[name] !== undefined) kept[name] = headers[name] as string;
    return { status: 304, headers: kept, body: null };
  }
  return { status: page.status, headers, body: request.method === 'HEAD' ? null : body };
}

/**
 * The answer for `page`: 304 when the validators match, no body for HEAD, gzip when accepted. It
 * is given at once (no promise) unless a gzipped body must be made first.
 */
export function respond(request: Ask, page: Page, options: RespondOptions): Answer | Promise<Answer> {
  // Whether to gzip depends on the body's size in bytes; its length in UTF-16 units bounds that from below.
  const zip =
    options.compress && acceptsGzip(request) && (page.body.length >= GZIP_MIN || encoder.encode(page.body).byteLength >= GZIP_MIN);
  const memo = options.memo;
  let slot = memo ? preparedFor.get(memo) : undefined;
  if (memo && !slot) preparedFor.set(memo, (slot = []));
  if (!zip) {
    const plain = slot?.[0] ?? preparePlain(page, options.compress);
    if (slot) slot[0] = plain;
    return answerWith(request, page, plain);
  }
  const zipped = slot?.[1] ?? prepareZipped(page, options.compress);
  if (!(zipped instanceof Promise)) return answerWith(request, page, zipped);
  if (slot) {
    slot[1] = zipped;
    // Once made, later requests get it at once.
    zipped.then((made) => slot[1] === zipped && (slot[1] = made)).catch(() => {});
  }
  return zipped.then((made) => answerWith(request, page, made));
}
