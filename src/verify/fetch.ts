// The crawler's one way to read a URL: on the site's origin only (a redirect off it is an
// `OffOrigin` error), a bounded number of redirects, and a bounded number of bytes per body, counted
// as the body streams in: past the bound the body is cancelled, never read further nor held.

import { BROWSER_AGENT } from './agents.js';
import type { Problem } from './problems.js';
import { TooDeep } from './tree.js';

/** Redirects followed per request, all on the site's origin. */
const MAX_REDIRECTS = 5;

/**
 * The most bytes verify reads of one page by default (`--max-page-bytes`): 5 MiB. A site chooses its
 * pages' size, and verify holds up to two pages per state it crawls at once (`--concurrency`) while
 * they stream in. (Googlebot reads the first 15 MB of a page: a larger cap checks more of one.)
 */
export const MAX_PAGE_BYTES = 5 * 2 ** 20;

/** A fetch that left (or would have left) the site's origin. */
export class OffOrigin extends Error {}

/** A body longer than the bytes verify reads of it: it was cancelled at `limit` bytes. */
export class TooLarge extends Error {
  constructor(
    /** The URL whose body it is. */
    readonly url: string,
    /** The bytes read at most. */
    readonly limit: number,
  ) {
    super(`${url} sends more than ${limit} bytes`);
  }
}

/** What one fetch gave: status, the body read as UTF-8 (and its byte count), and the headers verify reads. */
export interface Fetched {
  status: number;
  /** The body, or `''` when it went to `onText`. */
  body: string;
  bytes: number;
  type: string;
  location: string | null;
  vary: string | null;
  /** The `X-Robots-Tag` header, or null (a fetch of another maker may leave it out). */
  robots?: string | null;
}

/** Options of one fetch. */
export interface FetchOptions {
  /** The most bytes read of the body; past it the fetch is a TooLarge error. Default the fetcher's `maxBytes`. */
  limit?: number;
  /** With true, a body past `limit` is read up to it (robots.txt, as Google reads it) rather than refused. Default false. */
  cut?: boolean;
  /** With false, a redirect is the answer (a state's redirect is reported, not followed). Default true. */
  follow?: boolean;
  /** The User-Agent sent. Default a desktop Chrome's. */
  userAgent?: string;
  /** Aborts the fetch (a state's deadline). Default the fetcher's own timeout. */
  signal?: AbortSignal;
  /** Takes the body as it arrives, decoded part by part, instead of `body` (a sitemap, read as it streams). Default none. */
  onText?: (text: string) => void;
}

/** Reads `url` for verify. */
export type SiteFetch = (url: string, options?: FetchOptions) => Promise<Fetched>;

/** Node's fetch says only `fetch failed`; what failed (`connect ECONNREFUSED 127.0.0.1:3000`) is its cause. */
function withCause(error: unknown): never {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  throw cause && error instanceof Error ? new Error(`${error.message}: ${cause}`, { cause: error }) : error;
}

/**
 * A fetcher bound to `origin`. It follows redirects only while they stay on the origin; with
 * `follow` false a redirect is the answer (a state's redirect is reported, not followed). It says it
 * is a browser by default: a site that gives bots its snapshots at clean URLs (cleanUrls 'bots')
 * would otherwise hide its meta-tag path; what bots get is crawlAsAgents' part.
 */
export function siteFetch(origin: string, timeoutMs: number, maxBytes: number): SiteFetch {
  return async (url, options = {}) => {
    const { limit = maxBytes, cut = false, follow = true, userAgent = BROWSER_AGENT, signal, onText } = options;
    let at = url;
    let response: Response;
    let location: string | null = null;
    for (let hop = 0; ; hop++) {
      if (new URL(at).origin !== origin) throw new OffOrigin(`${url} leads off the site to ${at}; verify stays on ${origin}`);
      response = await fetch(at, {
        signal: signal ?? AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
        headers: { 'User-Agent': userAgent },
      }).catch(withCause);
      location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null || !follow) break;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new Error(`${url} redirects more than ${MAX_REDIRECTS} times`);
      at = new URL(location, at).href;
    }
    // A body that says it is past the limit is not read at all (a compressed one says its size before decoding).
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (!cut && declared > limit && !response.headers.has('content-encoding')) {
      await response.body?.cancel();
      throw new TooLarge(url, limit);
    }
    // A part that would pass the limit is not kept: the body is cancelled, so at most `limit` bytes are held.
    const chunks: Uint8Array[] = [];
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const take = (part: Uint8Array) => (onText ? onText(decoder.decode(part, { stream: true })) : chunks.push(part));
    let bytes = 0;
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      if (bytes + part.value.byteLength > limit) {
        await reader?.cancel();
        if (!cut) throw new TooLarge(url, limit);
        take(part.value.subarray(0, limit - bytes));
        bytes = limit;
        break;
      }
      bytes += part.value.byteLength;
      take(part.value);
    }
    if (onText) onText(decoder.decode());
    return {
      status: response.status,
      body: onText ? '' : Buffer.concat(chunks, bytes).toString('utf8'),
      bytes,
      type: response.headers.get('content-type') ?? '',
      location,
      vary: response.headers.get('vary'),
      robots: response.headers.get('x-robots-tag'),
    };
  };
}

/**
 * The problem a state's failed crawl is: OFF_ORIGIN for a redirect off the site, PAGE_TOO_LARGE for
 * a body past `--max-page-bytes`, PAGE_TOO_DEEP for a page nested past MAX_DEPTH, FETCH_FAILED
 * otherwise, its message led by `what` (the state's URL).
 */
export function fetchProblem(what: string, error: Error): Problem {
  if (error instanceof OffOrigin) return { code: 'OFF_ORIGIN', message: error.message };
  if (error instanceof TooLarge)
    return {
      code: 'PAGE_TOO_LARGE',
      message: `${error.message}, the most verify reads of a page: the rest was not read, nor the state checked (raise --max-page-bytes to check it)`,
    };
  if (error instanceof TooDeep)
    return {
      code: 'PAGE_TOO_DEEP',
      message: `${what} ${error.message}, the deepest verify reads (Chromium's parser nests no deeper than 512): the state was not checked`,
    };
  return { code: 'FETCH_FAILED', message: `${what}: ${error.message}` };
}
