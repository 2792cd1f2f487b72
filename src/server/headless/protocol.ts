// What the server and a page process (headless/child.ts) say to each other. Over fd 3 of the page
// process, a pipe framed by headless/frames.ts (never Node's IPC, whose reader buffers whatever
// length a frame announces): the job, the page's asynchronous requests, their answers, and the
// result. A body, either way, goes a part of at most PART bytes at a time (`sendInParts`,
// `answerParts`). Over a second pipe, fd 4 in the page process, the page's synchronous requests
// (classic scripts), which happy-dom must answer before it returns: the page process writes one
// frame and blocks reading the answer. A frame there is a 4-byte big-endian length, then the bytes.

import { normalizeLocation, type AppLocation } from '../../url/location.js';
import type { RenderResult } from '../render/render.js';
import type { UrlSettings } from '../urls.js';
import { MAX_CAUSE } from '../printable.js';

/** A request as the page process sends it. */
export interface GateRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
}

/** What the renderer says, at its start or in a page process's failure, where happy-dom is not installed. */
export const NO_HAPPY_DOM = 'headlessRenderer needs the optional peer dependency happy-dom: npm install happy-dom';

/** The page's answer: a response, or `null` for a network error. */
export type GateAnswer = { status: number; statusText: string; headers: Array<[string, string]>; body: Uint8Array } | null;

/** The fields of a RenderJob a page process is sent. */
export interface PlainJob {
  location: AppLocation;
  url: string;
  canonical: string;
  notFound: boolean;
  /** The state is of a `noindex` route (its match stays in the server). */
  noindex: boolean;
  settings: UrlSettings;
}

/** What the page process is started with (its one argument, as JSON). */
export interface ChildOptions {
  timeoutMs: number;
  pageErrors: 'fail' | 'ignore';
  /** Longest snapshot, and longest request body, in bytes. */
  maxSnapshotBytes: number;
}

/** Server to page process. */
export type ToChild =
  | { type: 'render'; id: number; job: PlainJob }
  | { type: 'answer'; rid: number; answer: GateAnswer; parts: number }
  | { type: 'part'; rid: number; body: Uint8Array };

/** The answer messages of one request: the answer with its body's first part, then `parts` more. */
export type AnswerMessage = Extract<ToChild, { type: 'answer' | 'part' }>;

/** A render's outcome as the page process sends it: the HTML apart, as UTF-8 bytes. */
export type PlainResult = Omit<RenderResult, 'html'>;

/** Page process to server. */
export type FromChild =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: PlainResult; html: Uint8Array }
  | { type: 'failed'; id: number; code: string; message: string }
  | { type: 'request'; rid: number; id: number; request: GateRequest; parts: number }
  | { type: 'part'; rid: number; body: Uint8Array };

/** A synchronous request on fd 4: the job's id and the request (no body: GET only). */
export interface SyncRequest {
  id: number;
  url: string;
  method: string;
}

/** The page process's fd for synchronous requests. */
export const SYNC_FD = 4;

/** Longest answer body the server gives a page (a file, an upstream's answer), in bytes. */
export const MAX_FRAME = 64 * 1024 * 1024;

/** The default longest snapshot (and request body) a page process may send, in bytes. */
export const MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;

/** Bytes of a body per message, either way. */
export const PART = 1024 * 1024;

/** A part of a body after its first, either way. */
export interface PartMessage {
  type: 'part';
  rid: number;
  body: Uint8Array;
}

/**
 * Sends the message `first(part, parts)`, which carries the first PART bytes of `body` and says
 * how many parts follow, then those parts of request `rid`, each once the last has gone (`send`
 * is true once a message has gone, false when it could not): a 60 MB body is never copied in one
 * turn of an event loop. Parts stop once `wanted()` is false: the render is over, its page closed.
 */
export async function sendInParts<M extends object>(
  send: (message: M | PartMessage) => Promise<boolean>,
  first: (part: Uint8Array, parts: number) => M,
  rid: number,
  body: Uint8Array,
  wanted: () => boolean = () => true,
): Promise<void> {
  const parts = Math.max(0, Math.ceil(body.length / PART) - 1);
  if (!(await send(first(body.subarray(0, PART), parts)))) return;
  for (let at = PART; at < body.length && wanted(); at += PART)
    if (!(await send({ type: 'part', rid, body: body.subarray(at, at + PART) }))) return;
}

/** Sends the answer to request `rid` in parts (`sendInParts`); a network error is one message. */
export function sendAnswer(
  send: (message: AnswerMessage) => Promise<boolean>,
  rid: number,
  answer: GateAnswer,
  wanted: () => boolean = () => true,
): Promise<void> {
  const first = (body: Uint8Array, parts: number): Extract<AnswerMessage, { type: 'answer' }> => ({
    type: 'answer',
    rid,
    answer: answer && { ...answer, body },
    parts,
  });
  return sendInParts(send, first, rid, answer ? answer.body : new Uint8Array(0), wanted);
}

/**
 * The page process's end of `sendAnswer`: each answer message in; out, the request's id and its
 * whole answer once the last part came, else undefined. A part of no answer in progress is ignored;
 * `drop(rid)` forgets the parts of a request no one waits for any more (its page was closed).
 */
export function answerParts(): ((message: AnswerMessage) => { rid: number; answer: GateAnswer } | undefined) & { drop(rid: number): void } {
  const open = new Map<number, { answer: NonNullable<GateAnswer>; body: Uint8Array[]; left: number }>();
  const take = (message: AnswerMessage) => {
    const { rid } = message;
    if (message.type === 'answer') {
      if (message.parts > 0 && message.answer) open.set(rid, { answer: message.answer, body: [message.answer.body], left: message.parts });
      else return { rid, answer: message.answer };
      return undefined;
    }
    const gathering = open.get(rid);
    if (!gathering) return undefined;
    gathering.body.push(message.body);
    if (--gathering.left > 0) return undefined;
    open.delete(rid);
    return { rid, answer: { ...gathering.answer, body: Buffer.concat(gathering.body) } };
  };
  return Object.assign(take, { drop: (rid: number) => void open.delete(rid) });
}

/** One frame of the synchronous pipe: a 4-byte big-endian length, then the bytes. */
export function frame(bytes: Uint8Array): Buffer {
  return Buffer.concat([frameLength(bytes.length), bytes]);
}

/** The 4-byte big-endian length a frame of `length` bytes starts with (for a body written apart). */
export function frameLength(length: number): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(length, 0);
  return size;
}

/**
 * The server's end of a page's requests, sent by `sendInParts`: each request or part message in;
 * out, the request whole once its last part came (`{ rid, request }`), undefined while parts are
 * awaited, or what the message did wrong, as a render's failure says it. The bodies held at once
 * are at most `maxBytes`; a part of no request, or past PART bytes, is wrong.
 */
export function requestParts(
  maxBytes: number,
): (message: Extract<FromChild, { type: 'request' | 'part' }>) => { rid: number; request: GateRequest } | undefined | string {
  const open = new Map<number, { request: GateRequest; parts: Uint8Array[]; left: number }>();
  let held = 0;
  const wrong = 'broke the protocol and was stopped';
  const hold = (bytes: number) => ((held += bytes) > maxBytes ? `sent a request body past ${maxBytes} bytes and was stopped` : null);
  return (message) => {
    if (message.type === 'request') {
      const { rid, request, parts } = message;
      const body = request?.body;
      if (!Number.isSafeInteger(rid) || open.has(rid) || !validRequest(request)) return wrong;
      if (!Number.isSafeInteger(parts) || parts < 0 || (body && body.byteLength > PART) || (parts > 0 && !body)) return wrong;
      if (parts === 0) return { rid, request };
      const over = hold(body!.byteLength);
      if (over) return over;
      open.set(rid, { request, parts: [body!], left: parts });
      return undefined;
    }
    const gathering = open.get(message.rid);
    const body = message.body as unknown;
    if (!gathering || !(body instanceof Uint8Array) || body.byteLength > PART) return wrong;
    const over = hold(body.byteLength);
    if (over) return over;
    gathering.parts.push(body);
    if (--gathering.left > 0) return undefined;
    open.delete(message.rid);
    held -= gathering.parts.reduce((sum, part) => sum + part.byteLength, 0);
    return { rid: message.rid, request: { ...gathering.request, body: Buffer.concat(gathering.parts) } };
  };
}

/** The statuses a page's router publishes that a headless render answers with (page.ts); any other is the page process's lie. */
export const PAGE_STATUSES: ReadonlySet<number> = new Set([200, 301, 302, 303, 307, 308, 404, 500]);

/** A page process's result, with only the fields a RenderResult has, or null when it is not one. */
export function checkedResult(result: unknown): RenderResult | null {
  if (typeof result !== 'object' || result === null) return null;
  const { html, status, redirect, error } = result as { html?: unknown; status?: unknown; redirect?: unknown; error?: unknown };
  if (typeof html !== 'string') return null;
  if (status === undefined) return { html };
  // A page process owned by its page's script said 204 (with a Content-Length and no body), 206, 407
  // or 429, each cached as the state's answer: only what a page's router publishes is believed.
  if (!PAGE_STATUSES.has(status as number)) return null;
  // A failure's cause is the page's text, kept short (the handler makes it printable).
  if (status === 500 && typeof error === 'string' && error) return { html, status, error: error.slice(0, MAX_CAUSE) };
  if (redirect === undefined) return (status as number) >= 300 && (status as number) < 400 ? null : { html, status: status as number };
  // A redirect names a location inside the app, written in canonical spelling (never `//host`).
  if (typeof redirect !== 'string' || !redirect.startsWith('/') || ![301, 302, 303, 307, 308].includes(status as number)) return null;
  return { html, status: status as number, redirect: normalizeLocation(redirect) };
}

/** True for a page's asynchronous request of the shape the gate reads. */
export function validRequest(request: GateRequest): boolean {
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof request.url === 'string' &&
    typeof request.method === 'string' &&
    Array.isArray(request.headers) &&
    request.headers.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') &&
    (request.body === null || (request.body instanceof Uint8Array && request.body.byteLength <= MAX_FRAME))
  );
}
