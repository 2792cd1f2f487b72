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

/** The two frames of one answer: its head (JSON) and its body. */
function answerOf(bytes: Buffer) {
  const headLength = bytes.readUInt32BE(0);
  const head = JSON.parse(bytes.subarray(4, 4 + headLength).toString('utf8')) as unknown;
  const bodyLength = bytes.readUInt32BE(4 + headLength);
  return { head, body: bytes.subarray(8 + headLength, 8 + headLength + bodyLength).toString('utf8') };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

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
    expect(answerOf(Buffer.concat(written))).toEqual({
      head: { status: 200, statusText: 'OK', headers: [['content-type', 'text/javascript']] },
      body: 'x=1',
    });
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
    expect(written).toHaveLength(2);
    for (const bytes of written) expect(answerOf(bytes)).toEqual({ head: null, body: '' });
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
