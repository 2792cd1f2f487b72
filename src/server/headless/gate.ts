// What a headless page may fetch, decided in the server's own process: the page process asks for
// every request it makes (headless/child.ts) and is never trusted with the answer's policy. Allowed:
// the shell at the state's own URL, the app's files under `base` on the app's origin, and, when
// configured, the same origin's other paths from `upstream`, by the methods it allows (a 405
// otherwise): REQUESTS_AT_ONCE at a time a render (read and sent), up to MAX_FRAME bytes each,
// each marked as a render's (RENDER_HEADER, nested.ts). Everything else is a network error.

import { setMaxListeners } from 'node:events';
import { stripAnchor } from '../../url/location.js';
import { contentType, type AppFolder } from './app-files.js';
import type { RenderJob } from '../render/render.js';
import { createQueue, type RenderQueue } from '../render/queue.js';
import { RENDER_HEADER } from '../nested.js';
import { MAX_FRAME, type GateAnswer, type GateRequest } from './protocol.js';

/** What the gate needs to know about the app. */
export interface Gate {
  folder: AppFolder;
  /** The shell's path in the folder (`/index.html`), which may be a hidden file's: the server's choice, not a page's. */
  indexPath: string;
  /** The upstream origin, or null. */
  upstream: string | null;
  /** The methods the upstream is sent, upper case (`GET`, `HEAD`); any other is answered 405 by the gate. */
  upstreamMethods: readonly string[];
}

const HTML_TYPE = 'text/html; charset=utf-8';
const HOP = /^(content-encoding|content-length|set-cookie|transfer-encoding|connection)$/i;
// Headers of the page's request the upstream never gets: its own host, and those that say where a
// request came from, which an upstream behind a trusted proxy (the server, on its network) would believe.
const NOT_FORWARDED = /^(host|forwarded|via|x-forwarded-[a-z-]*|x-real-ip|x-client-ip|true-client-ip|cf-connecting-ip)$/i;

/** The request's URL if it is on the job's origin; null for any other origin or a URL that does not parse. */
function onOrigin(job: RenderJob, request: GateRequest): URL | null {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  return url.origin === job.settings.origin ? url : null;
}

const ok = (body: Uint8Array, type: string): GateAnswer => ({ status: 200, statusText: 'OK', headers: [['content-type', type]], body });
const notFound = (): GateAnswer => ({ status: 404, statusText: 'Not Found', headers: [], body: new Uint8Array(0) });

/**
 * Answers one of the page's asynchronous requests (fetch, XHR, module imports, styles, beacons).
 * `deliver` hands the answer to the page (the pool sends it over IPC a part at a time) and is
 * awaited inside the request's turn: a body is held by the server from its read until it has gone,
 * and that is REQUESTS_AT_ONCE bodies of a render at most, not one per request the page fired.
 * When the promise resolves, `deliver` has been called with its answer; when it rejects, never.
 */
export async function answerAsync(
  gate: Gate,
  job: RenderJob,
  request: GateRequest,
  signal: AbortSignal,
  deliver: (answer: GateAnswer) => Promise<void> = async () => {},
): Promise<GateAnswer> {
  const size = sizeOf(request);
  const held = heldFor.get(job) ?? 0;
  const url = held + size <= REQUEST_BYTES && onOrigin(job, request);
  if (!url) return (await deliver(null), null);
  heldFor.set(job, held + size);
  // Each waiting or running request listens to the render's end: that many are expected, not a leak.
  setMaxListeners(2 * (REQUESTS_AT_ONCE + REQUESTS_WAITING), signal);
  try {
    return await requestQueue(job).run(async () => {
      const answer = await answerOnOrigin(gate, job, url, request, signal);
      await deliver(answer);
      return answer;
    }, signal);
  } finally {
    heldFor.set(job, (heldFor.get(job) as number) - size);
  }
}

// What each render's requests hold now (REQUEST_BYTES): 1,000 waiting behind six slow answers of the
// upstream, a page's posts of 4 MiB each made the server hold 1.6 GB, from one crawler URL.
const heldFor = new WeakMap<RenderJob, number>();

function sizeOf(request: GateRequest): number {
  let size = request.url.length + (request.body?.byteLength ?? 0);
  for (const [name, value] of request.headers) size += name.length + value.length;
  return size;
}

async function answerOnOrigin(gate: Gate, job: RenderJob, url: URL, request: GateRequest, signal: AbortSignal): Promise<GateAnswer> {
  if (stripAnchor(new URL(job.url).href) === stripAnchor(url.href)) {
    // The state's own URL is the app's page: the shell, whatever the path (an SPA's fallback). Both
    // are compared as the URL parser writes them: it escapes what a canonical location keeps raw
    // (`'` in a query), so `?q=O'Reilly` would otherwise be asked for as another URL (the upstream's).
    const shell = await gate.folder.find('/', gate.indexPath, true);
    return shell ? ok(await gate.folder.read(shell), HTML_TYPE) : notFound();
  }
  const file = request.method === 'GET' ? await gate.folder.find(job.settings.base, url.pathname) : null;
  if (file) return ok(await gate.folder.read(file), contentType(file));
  if (!gate.upstream) return notFound();
  // A crawler's URL chooses what the page does: by default it may read the upstream, never change
  // anything there (a POST to the API from a DOM-XSS, or from an app that writes on load).
  const method = request.method.toUpperCase();
  if (!gate.upstreamMethods.includes(method))
    return {
      status: 405,
      statusText: 'Method Not Allowed',
      headers: [['allow', gate.upstreamMethods.join(', ')]],
      body: new Uint8Array(0),
    };
  // The page's path on the upstream origin, checked again: whatever the page process sends (it is
  // not trusted), the request goes to the upstream or nowhere.
  const target = new URL(gate.upstream + url.pathname + url.search);
  if (target.origin !== gate.upstream) return null;
  return fromUpstream(target, method, request, signal);
}

/**
 * What a render's requests may hold in the server while they wait their turn or run: their bodies,
 * URLs and headers, one frame's worth in all (bytes of bodies, characters of text). One more is a
 * network error at once.
 */
export const REQUEST_BYTES = MAX_FRAME;
/** Requests of one render answered at once (files read, upstream connections), a browser's limit per host; others wait their turn. */
export const REQUESTS_AT_ONCE = 6;
/** Requests of one render that may wait; one more is a network error at once. */
export const REQUESTS_WAITING = 1000;
const requestQueues = new WeakMap<RenderJob, RenderQueue>();

/**
 * The queue of a render's requests. A page may fire fetches in a loop (a DOM-XSS, an app bug):
 * without it each was a connection of the server to the upstream, or a file read whole, at once:
 * thousands a render.
 */
function requestQueue(job: RenderJob): RenderQueue {
  let queue = requestQueues.get(job);
  if (!queue) requestQueues.set(job, (queue = createQueue({ concurrency: REQUESTS_AT_ONCE, maxWaiting: REQUESTS_WAITING })));
  return queue;
}

/**
 * A page's request the upstream did not answer (refused, unreachable, reset). The page gets a
 * network error, as in a browser, and says only `TypeError: Failed to fetch`: the render's failure
 * names this request and its reason (headless/pool.ts), so a server whose upstream is down or
 * mistyped says so.
 */
export class UpstreamFault extends Error {}

async function fromUpstream(target: URL, method: string, request: GateRequest, signal: AbortSignal): Promise<GateAnswer> {
  const body = method === 'GET' || method === 'HEAD' || !request.body ? null : Buffer.from(request.body);
  const headers = new Headers();
  for (const [name, value] of request.headers) if (!NOT_FORWARDED.test(name)) headers.append(name, value);
  // Set here, over whatever the page sent under that name: an upstream that is this server (or
  // reaches it) then never starts a render for a render's request, which would wait for a slot
  // its ancestor holds (nested.ts). The page can neither remove the mark nor forge another value.
  headers.set(RENDER_HEADER, '1');
  let answer: Response;
  try {
    answer = await fetch(target, { method, headers, body, redirect: 'manual', signal });
  } catch (error) {
    if (signal.aborted) throw error;
    // Node's fetch says 'fetch failed'; its cause says why (connect ECONNREFUSED 127.0.0.1:8080).
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    throw new UpstreamFault(`the upstream did not answer ${method} ${target.href}: ${cause?.message || cause?.code || String(error)}`);
  }
  const kept: Array<[string, string]> = [];
  answer.headers.forEach((value, name) => {
    if (!HOP.test(name)) kept.push([name, value]);
  });
  const bytes = await readAtMost(answer, MAX_FRAME);
  // A body too long is read no further: cancelling it closes the upstream connection (the
  // render's signal stops the rest). No AbortSignal.any: Node 20 before 20.3 has none.
  if (!bytes) await answer.body?.cancel().catch(() => {});
  return bytes && { status: answer.status, statusText: answer.statusText, headers: kept, body: bytes };
}

/**
 * The body of an upstream answer, or null (read no further) past `limit` bytes: a page's path may be
 * chosen by a crawler's URL (`fetch('/api/' + id)`), so it may name a download or an endless stream,
 * which the server must not hold whole.
 */
async function readAtMost(answer: Response, limit: number): Promise<Uint8Array | null> {
  if (Number(answer.headers.get('content-length')) > limit || !answer.body) return answer.body ? null : new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    length += chunk.byteLength;
    if (length > limit) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, length));
}

/**
 * Answers one of the page's synchronous requests (classic scripts, sync XHR): files only. The page
 * process waits for it; the server reads the file asynchronously, so its other requests go on.
 */
export async function answerSync(gate: Gate, job: RenderJob, request: GateRequest): Promise<GateAnswer> {
  const url = onOrigin(job, request);
  if (!url) return null;
  const file = request.method === 'GET' ? await gate.folder.find(job.settings.base, url.pathname) : null;
  return file ? ok(await gate.folder.read(file), contentType(file)) : notFound();
}
