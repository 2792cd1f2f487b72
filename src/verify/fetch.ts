// The crawler's one way to read a URL: on the site's origin only (a redirect off it is an
// `OffOrigin` error), a bounded number of redirects, and a bounded number of bytes per body.

import { BROWSER_AGENT } from './agents.js';

/** Redirects followed per request, all on the site's origin. */
const MAX_REDIRECTS = 5;

/** A fetch that left (or would have left) the site's origin. */
export class OffOrigin extends Error {}

/** What one fetch gave: status, the body read as UTF-8 (and its byte count), and the headers verify reads. */
export interface Fetched {
  status: number;
  body: string;
  bytes: number;
  type: string;
  location: string | null;
  vary: string | null;
  /** The `X-Robots-Tag` header, or null (a fetch of another maker may leave it out). */
  robots?: string | null;
}

/**
 * Reads `url` for verify; `limit` bytes at most, and with `cut` a longer body is read up to it
 * rather than refused; `signal` (a state's deadline) aborts it, else the fetcher's own timeout.
 */
export type SiteFetch = (
  url: string,
  limit?: number,
  cut?: boolean,
  follow?: boolean,
  userAgent?: string,
  signal?: AbortSignal,
) => Promise<Fetched>;

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
  return async (url, limit = maxBytes, cut = false, follow = true, userAgent = BROWSER_AGENT, signal) => {
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
    // A page past the limit is a problem to report (or, with `cut`, read up to it), never held whole.
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      if (bytes + part.value.byteLength > limit) {
        await reader?.cancel();
        if (!cut) throw new Error(`${url} sends more than ${limit} bytes`);
        chunks.push(part.value.subarray(0, limit - bytes));
        bytes = limit;
        break;
      }
      bytes += part.value.byteLength;
      chunks.push(part.value);
    }
    return {
      status: response.status,
      body: Buffer.concat(chunks).toString('utf8'),
      bytes,
      type: response.headers.get('content-type') ?? '',
      location,
      vary: response.headers.get('vary'),
      robots: response.headers.get('x-robots-tag'),
    };
  };
}
