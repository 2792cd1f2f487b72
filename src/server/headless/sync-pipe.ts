// The server's end of the synchronous pipe (fd 4 of a page process, headless/protocol.ts): it reads
// the page's frames, hands each request to `answer`, and writes the answer back as two frames (the
// status and headers as JSON, then the body). A frame that is not a request breaks the protocol.
// The page process blocks until its answer is whole, but the server does not: the answer may come
// from a promise, and a body is written a slice at a time, each after the last has gone, so a page
// asking for a large file again and again never holds the server's event loop.

import type { Readable, Writable } from 'node:stream';
import { frame, frameLength, MAX_FRAME, type GateAnswer, type SyncRequest } from './protocol.js';

/** Longest frame the page may send: a synchronous request is a URL and a method, never past 1 MiB. */
const MAX_REQUEST = 1024 * 1024;
/** Bytes written to the pipe in one go. */
const SLICE = 64 * 1024;

/** Writes `bytes` a slice at a time, each once the last has gone; false when the pipe failed. */
async function writeSliced(pipe: Writable, bytes: Uint8Array): Promise<boolean> {
  for (let at = 0; at < bytes.length; at += SLICE) {
    const sent = await new Promise<boolean>((resolve) => pipe.write(bytes.subarray(at, at + SLICE), (error) => resolve(!error)));
    if (!sent) return false;
  }
  return true;
}

/**
 * Serves a page process's synchronous requests on `pipe`, one at a time: `answer` gives the reply to
 * one (null: refused), `broken` is told once when the page sends what is not a request.
 */
export function serveSyncPipe(
  pipe: Readable & Writable,
  answer: (asked: SyncRequest) => GateAnswer | Promise<GateAnswer>,
  broken: () => void,
): void {
  let buffered = Buffer.alloc(0);
  let serving = false;
  let ended = false;

  /** The next whole request in the buffer, undefined for none yet, null for a broken frame. */
  function next(): SyncRequest | undefined | null {
    if (buffered.length < 4) return undefined;
    const length = buffered.readUInt32BE(0);
    if (length > MAX_REQUEST) return null;
    if (buffered.length < 4 + length) return undefined;
    try {
      const asked = JSON.parse(buffered.subarray(4, 4 + length).toString('utf8')) as SyncRequest;
      buffered = buffered.subarray(4 + length);
      return asked;
    } catch {
      return null;
    }
  }

  async function serve(): Promise<void> {
    serving = true;
    for (let asked = next(); asked !== undefined && !ended; asked = next()) {
      if (asked === null) {
        ended = true;
        return broken();
      }
      let reply: GateAnswer = null;
      try {
        reply = await answer(asked);
      } catch {
        reply = null;
      }
      const body = reply && reply.body.length <= MAX_FRAME ? reply.body : new Uint8Array(0);
      const head = Buffer.from(JSON.stringify(reply && { status: reply.status, statusText: reply.statusText, headers: reply.headers }));
      // The body's frame is written apart from its length: a 64 MiB body is never copied into one buffer.
      if (!(await writeSliced(pipe, Buffer.concat([frame(head), frameLength(body.length)]))) || !(await writeSliced(pipe, body)))
        ended = true;
    }
    serving = false;
  }

  pipe.on('error', () => void (ended = true));
  pipe.on('data', (chunk: Buffer) => {
    if (ended) return;
    buffered = Buffer.concat([buffered, chunk]);
    // A page process waits for each answer before it asks again: more than one request's worth
    // waiting is not the protocol, and is never held.
    if (buffered.length > 4 + MAX_REQUEST) {
      ended = true;
      return broken();
    }
    if (!serving) void serve();
  });
}
