// The server's end of the synchronous pipe (fd 4 of a page process, headless/protocol.ts): it reads
// the page's frames, hands each request to `answer`, and writes the answer back as two frames (the
// status and headers as JSON, then the body). A frame that is not a request breaks the protocol.

import type { Readable, Writable } from 'node:stream';
import { frame, MAX_FRAME, type GateAnswer, type SyncRequest } from './protocol.js';

/** Longest frame the page may send: a synchronous request is a URL and a method, never past 1 MiB. */
const MAX_REQUEST = 1024 * 1024;

/**
 * Serves a page process's synchronous requests on `pipe`: `answer` gives the reply to one (null:
 * refused), `broken` is told once when the page sends what is not a request.
 */
export function serveSyncPipe(pipe: Readable & Writable, answer: (asked: SyncRequest) => GateAnswer, broken: () => void): void {
  let buffered = Buffer.alloc(0);
  pipe.on('error', () => {});
  pipe.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const length = buffered.readUInt32BE(0);
      if (length > MAX_REQUEST) return broken();
      if (buffered.length < 4 + length) return;
      let asked: SyncRequest;
      try {
        asked = JSON.parse(buffered.subarray(4, 4 + length).toString('utf8')) as SyncRequest;
      } catch {
        return broken();
      }
      buffered = buffered.subarray(4 + length);
      let reply: GateAnswer = null;
      try {
        reply = answer(asked);
      } catch {
        reply = null;
      }
      const body = reply && reply.body.length <= MAX_FRAME ? reply.body : new Uint8Array(0);
      const head = Buffer.from(JSON.stringify(reply && { status: reply.status, statusText: reply.statusText, headers: reply.headers }));
      pipe.write(Buffer.concat([frame(head), frame(body)]));
    }
  });
}
