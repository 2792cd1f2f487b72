// What the server and a page process (headless/child.ts) say to each other. Over the IPC channel
// (advanced serialisation, so bytes pass as bytes): jobs, aborts and asynchronous requests. Over a
// second pipe, fd 4 in the page process, the page's synchronous requests (classic scripts), which
// happy-dom must answer before it returns: the page process writes one frame and blocks reading
// the answer. A frame is a 4-byte big-endian length, then that many bytes.

import type { AppLocation } from '../../location.js';
import type { GateAnswer, GateRequest } from './gate.js';
import type { RenderResult } from '../render/render.js';
import type { UrlSettings } from '../urls.js';

/** The fields of a RenderJob a page process is sent. */
export interface PlainJob {
  location: AppLocation;
  url: string;
  canonical: string;
  notFound: boolean;
  settings: UrlSettings;
}

/** What the page process is started with (its one argument, as JSON). */
export interface ChildOptions {
  timeoutMs: number;
  pageErrors: 'fail' | 'ignore';
}

/** Server to page process. */
export type ToChild =
  | { type: 'render'; id: number; job: PlainJob }
  | { type: 'abort'; id: number }
  | { type: 'answer'; rid: number; answer: GateAnswer };

/** Page process to server. */
export type FromChild =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: RenderResult }
  | { type: 'failed'; id: number; code: string; message: string }
  | { type: 'request'; rid: number; id: number; request: GateRequest };

/** A synchronous request on fd 4: the job's id and the request (no body: GET only). */
export interface SyncRequest {
  id: number;
  url: string;
  method: string;
}

/** The page process's fd for synchronous requests. */
export const SYNC_FD = 4;

/** Longest frame either side accepts on the synchronous pipe (a classic script), in bytes. */
export const MAX_FRAME = 64 * 1024 * 1024;
