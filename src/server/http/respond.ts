// Building the answer for a page: conditional requests (RFC 9110 §13: If-None-Match with the
// weak comparison, If-Modified-Since only when there is no If-None-Match), gzip when the client
// accepts it, and the headers every answer carries. Nothing from the request reaches a header.

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { chargeMemo } from '../held.js';
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

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d\\d:\\d\\d:\\d\\d';
// RFC 9110 §5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime forms (asctime's is GMT too).
const HTTP_DATE = RegExp(
  `^${DAY}, \\d\\d ${MONTH} \\d{4} ${TIME} GMT$|^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d\\d-${MONTH}-\\d\\d ${TIME} GMT$|^(${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/** The time of an HTTP-date in ms, or NaN for anything else (Date.parse alone reads `tomorrow 2100` as the year 2100). */
function httpDate(text: string): number {
  const form = HTTP_DATE.exec(text);
  return form ? Date.parse(form[1] === undefined ? text : text + ' GMT') : NaN;
}

/**
 * True when the request's validators say the client's copy is current (only for 200 pages). With
 * `zip` the answer is the gzip variant, which a copy of either variant's tag stands for (the same
 * content, and a 304 carries no Content-Encoding); without it only the plain variant's tag does,
 * so a cache never keeps a gzipped body for a client that cannot read one.
 */
export function isNotModified(
  request: Pick<Ask, 'header'>,
  etag: string | undefined,
  lastModified: number | undefined,
  zip = false,
): boolean {
  const match = request.header('if-none-match');
  if (match !== null) {
    if (etag === undefined) return false;
    if (match.trim() === '*') return true;
    const tags = match.match(/(?:W\/)?"[^"]*"/g) ?? [];
    return tags.some((tag) => {
      const strong = tag.replace(/^W\//, '');
      return strong === etag || (zip && strong === gzipTag(etag));
    });
  }
  const since = request.header('if-modified-since');
  if (since === null || lastModified === undefined) return false;
  const date = httpDate(since);
  // HTTP dates have whole seconds: compare at that precision. A date later than now is no date the
  // client had the page at (a wrong clock, or a guess): it is ignored (RFC 2616 §14.25), not a 304
  // for every later version of the page until that date.
  return date <= Date.now() && Math.floor(lastModified / 1000) * 1000 <= date;
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
  /**
   * An object the prepared answer may be kept on (a stored snapshot, the shell), for as long as it
   * lives, if its owner counts the bytes (held.ts); with no owner nothing is kept past the request.
   */
  memo?: object;
  /** Which of the memo's pages this is, when it has two with the same body but other headers (a snapshot at its ugly URL: 0, at a clean URL: 1). Default 0. */
  variant?: 0 | 1;
}

/** The headers and bytes of a 200-style answer, the same for every request that wants it. */
interface Prepared {
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

/** What is kept on a memo: its body as sent and gzipped (shared by its variants), and each answer. */
interface Kept {
  plain?: Uint8Array;
  zipped?: Uint8Array;
  /** The gzip being made, shared by the requests that want it meanwhile. */
  zipping?: Promise<Uint8Array>;
  /** Prepared answers, at `variant * 2 + (gzipped ? 1 : 0)`. */
  answers: (Prepared | undefined)[];
}

// Per memo object: what was prepared once for it, not once per request, as far as its owner counts it.
const keptFor = new WeakMap<object, Kept>();

function keptOn(memo: object): Kept {
  let kept = keptFor.get(memo);
  if (!kept) keptFor.set(memo, (kept = { answers: [] }));
  return kept;
}

/** Bytes of the objects that hold one kept answer (measured on Node 20: 280 to 420), beside its header text and body. */
export const ANSWER_BYTES = 384;

/** Bytes a prepared answer keeps alive beside its body: its header text and its objects. */
function answerBytes(headers: Readonly<Record<string, string>>): number {
  let bytes = ANSWER_BYTES;
  for (const name in headers) bytes += name.length + (headers[name] as string).length;
  return bytes;
}

/** Keeps `prepared` on `memo` when its owner counts its bytes (its body's only if the memo does not hold that body yet). */
function keep(memo: object, index: number, prepared: Prepared, zip: boolean): void {
  const kept = keptFor.get(memo);
  if (kept?.answers[index]) return;
  const known = zip ? kept?.zipped : kept?.plain;
  const bytes = answerBytes(prepared.headers) + (known === prepared.body ? 0 : prepared.body.byteLength);
  if (!chargeMemo(memo, bytes)) return;
  const into = kept ?? keptOn(memo);
  if (zip) into.zipped = prepared.body;
  else into.plain = prepared.body;
  into.answers[index] = prepared;
}

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

function zippedAnswer(page: Page, compress: boolean, body: Uint8Array): Prepared {
  const headers = headersOf(page, compress, true);
  headers['Content-Encoding'] = 'gzip';
  return finish(headers, body);
}

function answerWith(request: Ask, page: Page, { headers, body }: Prepared, zip: boolean): Answer {
  if (page.status === 200 && isNotModified(request, page.etag, page.lastModified, zip)) {
    // A 304's headers update the client's stored copy (RFC 9111 §4.3.4): X-Robots-Tag too, so a
    // crawler whose copy predates a route's `noindex` (the same body, so the same ETag) hears of it.
    const kept: Record<string, string> = {};
    for (const name of ['Cache-Control', 'ETag', 'Last-Modified', 'Vary', 'X-Robots-Tag'])
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
  const { memo, compress } = options;
  const index = (options.variant ?? 0) * 2 + (zip ? 1 : 0);
  const kept = memo && keptFor.get(memo);
  const ready = kept && kept.answers[index];
  if (ready) return answerWith(request, page, ready, zip);
  if (!zip) {
    const prepared = finish(headersOf(page, compress, false), kept?.plain ?? encoder.encode(page.body));
    if (memo) keep(memo, index, prepared, false);
    return answerWith(request, page, prepared, zip);
  }
  if (kept?.zipped) {
    const prepared = zippedAnswer(page, compress, kept.zipped);
    if (memo) keep(memo, index, prepared, true);
    return answerWith(request, page, prepared, zip);
  }
  let zipping = kept?.zipping;
  if (!zipping) {
    const made = gzip(kept?.plain ?? encoder.encode(page.body)).then((buffer) => new Uint8Array(buffer));
    zipping = made;
    // Requests that want it while gzip runs share it, on a memo whose owner still keeps it.
    if (memo && chargeMemo(memo, 0)) {
      const into = keptOn(memo);
      into.zipping = made;
      const done = () => void (into.zipping === made && (into.zipping = undefined));
      made.then(done, done);
    }
  }
  return zipping.then((body) => {
    const prepared = zippedAnswer(page, compress, body);
    if (memo) keep(memo, index, prepared, true);
    return answerWith(request, page, prepared, zip);
  });
}
