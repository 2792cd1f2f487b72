// The page process's side of the gate (headless/gate.ts is the server's): every request a page
// makes, fetch and XHR, async and sync, is sent to the server as a message and answered from there;
// this process has no network of its own. Used by headless/child.ts.

import { readSync, writeSync } from 'node:fs';
import type { BrowserWindow, ISyncResponse } from 'happy-dom';
import { followRedirects } from './follow.js';
import {
  answerParts,
  frame,
  MAX_FRAME,
  sendInParts,
  SYNC_FD,
  type FromChild,
  type GateAnswer,
  type GateRequest,
  type ToChild,
} from './protocol.js';

/** The job a page renders: its id, and the HTML it was served (its first request's answer). */
export interface PageJob {
  id: number;
  source?: string;
}

const NO_BODY = new Set([101, 204, 205, 304]);

function readExactly(length: number): Buffer {
  const buffer = Buffer.alloc(length);
  for (let at = 0; at < length; ) {
    const read = readSync(SYNC_FD, buffer, at, length - at, null);
    if (read === 0) throw new Error('the server closed the synchronous pipe');
    at += read;
  }
  return buffer;
}

function readFrame(): Buffer {
  const length = readExactly(4).readUInt32BE(0);
  if (length > MAX_FRAME) throw new Error('a frame too long on the synchronous pipe');
  return readExactly(length);
}

/** Asks the server synchronously: one frame out, a header frame and a body frame back. */
function askSync(id: number, url: string, method: string): GateAnswer {
  writeSync(SYNC_FD, frame(Buffer.from(JSON.stringify({ id, url, method }))));
  const answer = JSON.parse(readFrame().toString('utf8')) as Omit<NonNullable<GateAnswer>, 'body'> | null;
  const body = readFrame();
  return answer && { ...answer, body };
}

// happy-dom runs a `defer` script as soon as it has loaded, as if it were `async`: a page whose
// second script needs its first (a UMD bundle, then the app) threw when the second came first.
// A browser runs them in document order; here each one's answer waits until the page's deferred
// script before it has run (its load or error event).
const deferred = new WeakMap<BrowserWindow, Promise<void>>();
const claimed = new WeakSet<object>();

/** Waits for the page's previous deferred script when `url` is the next deferred classic script's. */
function deferredTurn(window: BrowserWindow, url: string): Promise<void> | undefined {
  const script = [...window.document.querySelectorAll('script[src][defer]:not([async])')].find(
    (element) =>
      !claimed.has(element) && (element as unknown as { src: string }).src === url && !/module/i.test(element.getAttribute('type') ?? ''),
  );
  if (!script) return undefined;
  claimed.add(script);
  const before = deferred.get(window);
  deferred.set(
    window,
    new Promise((ran) => {
      script.addEventListener('load', () => ran(), { once: true });
      script.addEventListener('error', () => ran(), { once: true });
    }),
  );
  return before;
}

/**
 * The requests of the pages of one process: `interceptor` for happy-dom's fetch settings, `answer`
 * for each answer message from the server, `forget` for a page that closed. `jobOf` finds a window's
 * job; a window with none (closed, or no page of a job) gets a network error, and so does a body
 * longer than `maxBodyBytes`, which the server would not take.
 */
export function pageRequests(
  send: (message: FromChild) => Promise<boolean>,
  jobOf: (window: BrowserWindow) => PageJob | undefined,
  maxBodyBytes: number,
) {
  const waiting = new Map<number, (answer: GateAnswer) => void>();
  // The requests of each page still waiting for their answer, by job id: dropped when the page closes.
  const asked = new Map<number, Set<number>>();
  let nextRequest = 0;
  // Answers come with their body in parts (protocol.ts): a request resolves once its last part came.
  const gather = answerParts();

  function ask(id: number, request: GateRequest): Promise<GateAnswer> {
    const rid = nextRequest++;
    let rids = asked.get(id);
    if (!rids) asked.set(id, (rids = new Set()));
    rids.add(rid);
    return new Promise((resolve) => {
      waiting.set(rid, (answer) => {
        rids.delete(rid);
        resolve(answer);
      });
      const { body } = request;
      if (!body) return void send({ type: 'request', rid, id, request, parts: 0 });
      const first = (part: Uint8Array, parts: number): Extract<FromChild, { type: 'request' }> => ({
        type: 'request',
        rid,
        id,
        request: { ...request, body: part },
        parts,
      });
      void sendInParts(send, first, rid, body);
    });
  }

  // An interceptor that throws leaves happy-dom's request task open and the page never idle: every
  // failure becomes a network error instead.
  const interceptor = {
    async beforeAsyncRequest({ request, window }: { request: Request; window: BrowserWindow }) {
      if (/^(data|blob):/.test(request.url)) return undefined;
      try {
        const job = jobOf(window);
        if (job === undefined) return window.Response.error();
        const body = request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
        // The server takes no longer body: a longer one is not sent.
        if (body && body.byteLength > maxBodyBytes) return window.Response.error();
        const first = job.source === undefined;
        if (first) job.source = '';
        const turn = first ? undefined : deferredTurn(window, request.url);
        const asking = { url: request.url, method: request.method, headers: [...request.headers], body };
        const { answer, url, redirected } = await followRedirects(asking, request.redirect, (hop) => ask(job.id, hop));
        await turn;
        // A page's first request is its navigation: the answer is the HTML it was served, before any script ran.
        if (first && answer) job.source = Buffer.from(answer.body).toString('utf8');
        if (!answer) return window.Response.error();
        const response = new window.Response(NO_BODY.has(answer.status) ? null : answer.body, {
          status: answer.status,
          statusText: answer.statusText,
          headers: answer.headers,
        });
        // Read-only in happy-dom's types, set by its own fetch as here: where the answer came from.
        return Object.assign(response, { url, redirected });
      } catch {
        return window.Response.error();
      }
    },
    beforeSyncRequest({ request, window }: { request: Request; window: BrowserWindow }): ISyncResponse | undefined {
      if (/^(data|blob):/.test(request.url)) return undefined;
      const id = jobOf(window)?.id;
      let answer: GateAnswer = null;
      try {
        if (id !== undefined) answer = askSync(id, request.url, request.method);
      } catch {
        answer = null;
      }
      const headers = new window.Headers(answer?.headers ?? []);
      if (!answer) return { status: 0, statusText: '', ok: false, url: request.url, redirected: false, headers, body: null };
      return {
        status: answer.status,
        statusText: answer.statusText,
        ok: answer.status === 200,
        url: request.url,
        redirected: false,
        headers,
        body: Buffer.from(answer.body),
      };
    },
  };

  return {
    interceptor,
    /** Takes an answer message (or one part of one) from the server. */
    answer(message: Extract<ToChild, { type: 'answer' | 'part' }>): void {
      // An answer to a request of a page closed meanwhile is nobody's.
      if (!waiting.has(message.rid)) return;
      const whole = gather(message);
      if (!whole) return;
      const resolve = waiting.get(whole.rid);
      waiting.delete(whole.rid);
      resolve?.(whole.answer);
    },
    /** A closed page's requests: no one waits for their answers, and parts still on the way are ignored. */
    forget(id: number): void {
      for (const rid of asked.get(id) ?? []) {
        waiting.delete(rid);
        gather.drop(rid);
      }
      asked.delete(id);
    },
  };
}
