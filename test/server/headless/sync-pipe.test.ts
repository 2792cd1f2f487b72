import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveSyncPipe } from '../../../src/server/headless/sync-pipe.js';
import type { SyncRequest } from '../../../src/server/headless/protocol.js';

/** A pipe whose written bytes are collected, and whose readable side the test pushes frames into. */
function pipe() {
  const written: Buffer[] = [];
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      done();
    },
  });
  return { stream, written };
}

const frame = (bytes: Buffer) => {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([size, bytes]);
};
const request = (asked: unknown) => frame(Buffer.from(JSON.stringify(asked)));

/** The answers written, each as its two frames: its head (JSON) and its body. */
function answersOf(bytes: Buffer) {
  const answers: Array<{ head: unknown; body: string }> = [];
  for (let at = 0; at < bytes.length; ) {
    const headLength = bytes.readUInt32BE(at);
    const head = JSON.parse(bytes.subarray(at + 4, at + 4 + headLength).toString('utf8')) as unknown;
    const bodyLength = bytes.readUInt32BE(at + 4 + headLength);
    const start = at + 8 + headLength;
    answers.push({ head, body: bytes.subarray(start, start + bodyLength).toString('utf8') });
    at = start + bodyLength;
  }
  return answers;
}

const tick = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('serveSyncPipe', () => {
  it('answers a request split across chunks with its head frame and body frame', async () => {
    const { stream, written } = pipe();
    const asked: SyncRequest[] = [];
    serveSyncPipe(
      stream,
      (request) => (
        asked.push(request),
        { status: 200, statusText: 'OK', headers: [['content-type', 'text/javascript']], body: Buffer.from('x=1') }
      ),
      () => expect.unreachable(),
    );
    const bytes = request({ id: 3, url: 'http://app.test/app.js', method: 'GET' });
    stream.push(bytes.subarray(0, 5));
    await tick();
    expect(written).toEqual([]);
    stream.push(bytes.subarray(5));
    await tick();
    expect(asked).toEqual([{ id: 3, url: 'http://app.test/app.js', method: 'GET' }]);
    expect(answersOf(Buffer.concat(written))).toEqual([
      { head: { status: 200, statusText: 'OK', headers: [['content-type', 'text/javascript']] }, body: 'x=1' },
    ]);
  });

  it('writes a refusal (null head, empty body) when the answer is null or the answer throws', async () => {
    const { stream, written } = pipe();
    let calls = 0;
    serveSyncPipe(
      stream,
      () => {
        if (calls++) throw new Error('gate failed');
        return null;
      },
      () => expect.unreachable(),
    );
    stream.push(Buffer.concat([request({ id: 1, url: 'a', method: 'GET' }), request({ id: 1, url: 'b', method: 'GET' })]));
    await tick();
    expect(answersOf(Buffer.concat(written))).toEqual([
      { head: null, body: '' },
      { head: null, body: '' },
    ]);
  });

  it('answers from a promise, and writes a large body a slice at a time, letting the event loop run in between', async () => {
    const { stream, written } = pipe();
    const body = Buffer.alloc(4 * 1024 * 1024, 120);
    serveSyncPipe(
      stream,
      async () => ({ status: 200, statusText: 'OK', headers: [], body }),
      () => expect.unreachable(),
    );
    // Before, the answer was one synchronous write of the whole body (a 60 MB file held the
    // server's event loop for up to 1.4 s per request of a page's sync XHR loop).
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    stream.push(request({ id: 1, url: 'http://app.test/big.bin', method: 'GET' }));
    for (let i = 0; i < 200 && Buffer.concat(written).length < body.length + 8; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    clearInterval(counting);
    expect(Math.max(...written.map((chunk) => chunk.length))).toBeLessThanOrEqual(64 * 1024);
    expect(turns).toBeGreaterThan(0);
    const [answer] = answersOf(Buffer.concat(written));
    expect(answer?.body.length).toBe(body.length);
  });

  it('calls the protocol broken, holding nothing more, for bytes past one request sent while an answer is pending', async () => {
    const { stream } = pipe();
    let broken = 0;
    serveSyncPipe(
      stream,
      () => new Promise<null>(() => {}),
      () => broken++,
    );
    stream.push(request({ id: 1, url: 'http://app.test/a.js', method: 'GET' }));
    await tick();
    for (let i = 0; i < 40; i++) stream.push(Buffer.alloc(64 * 1024));
    await tick();
    expect(broken).toBe(1);
  });

  it('calls the protocol broken for a frame that is not JSON or is longer than 1 MiB, and answers nothing', async () => {
    for (const bad of [frame(Buffer.from('{not json')), Buffer.from([0x00, 0x20, 0x00, 0x00])]) {
      const { stream, written } = pipe();
      let broken = 0;
      serveSyncPipe(
        stream,
        () => null,
        () => broken++,
      );
      stream.push(bad);
      await tick();
      expect(broken).toBe(1);
      expect(written).toEqual([]);
    }
  });
});
