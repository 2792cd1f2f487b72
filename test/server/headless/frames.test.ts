import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, frameReader, HEAD_LIMIT, writeFrame } from '../../../src/server/headless/frames.js';

// The channel between the server and a page process: the server reads what a page's script may
// have written, so a frame's length is checked before a byte of it is held.

function reader(limit: number) {
  const got: unknown[] = [];
  const broken: string[] = [];
  const read = frameReader(
    limit,
    (message) => got.push(message),
    (why) => broken.push(why),
  );
  return { read, got, broken };
}

const bytesOf = (message: object) => Buffer.concat(encodeFrame(message));

describe('encodeFrame and frameReader', () => {
  it('carries a message with its bytes apart from its JSON, Buffers and Uint8Arrays alike, at any split of the stream', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(400), { maxLength: 5 }), (text, body, cuts) => {
        const message = { type: 'answer', text, first: Buffer.from(body), inner: { body } };
        const whole = Buffer.concat([bytesOf(message), bytesOf({ type: 'ready' })]);
        const { read, got, broken } = reader(1024);
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (whole.length + 1))].sort((a, b) => a - b)) {
          read(whole.subarray(at, Math.max(at, cut)));
          at = Math.max(at, cut);
        }
        read(whole.subarray(at));
        expect(broken).toEqual([]);
        expect(got).toHaveLength(2);
        const [first, second] = got as [{ text: string; first: Uint8Array; inner: { body: Uint8Array } }, unknown];
        expect(first.text).toBe(text);
        expect(Buffer.compare(first.first, body)).toBe(0);
        expect(Buffer.compare(first.inner.body, body)).toBe(0);
        expect(second).toEqual({ type: 'ready' });
      }),
    );
  });

  it('writes a body as its own buffer (a snapshot is not copied into the JSON)', () => {
    const body = Buffer.alloc(10_000, 1);
    const parts = encodeFrame({ type: 'done', html: body });
    expect(parts.at(-1)!.buffer).toBe(body.buffer);
    expect(parts.reduce((sum, part) => sum + part.length, 0)).toBeLessThan(10_100);
  });

  it('refuses a frame announcing 2 GiB by its first four bytes, holds nothing, and reads nothing after', () => {
    const { read, got, broken } = reader(5 * 2 ** 20);
    const announce = Buffer.alloc(4);
    announce.writeUInt32BE(2 ** 31, 0);
    read(announce);
    expect(broken).toEqual([`a frame of ${2 ** 31} bytes, past the ${5 * 2 ** 20} allowed`]);
    read(bytesOf({ type: 'ready' }));
    expect(got).toEqual([]);
    expect(broken).toHaveLength(1);
  });

  it('takes a frame of exactly the limit and refuses one byte more', () => {
    const message = { type: 'part', body: new Uint8Array(100) };
    const length = bytesOf(message).length - 4;
    const exact = reader(length);
    exact.read(bytesOf(message));
    expect(exact.got).toHaveLength(1);
    const short = reader(length - 1);
    short.read(bytesOf(message));
    expect(short.broken).toHaveLength(1);
  });

  it('calls broken for JSON that is not JSON, a JSON part longer than the frame or HEAD_LIMIT, and a mark past the bytes', () => {
    const frame = (head: string, body = Buffer.alloc(0), headLength = Buffer.byteLength(head)) => {
      const prefix = Buffer.alloc(8);
      prefix.writeUInt32BE(4 + Buffer.byteLength(head) + body.length, 0);
      prefix.writeUInt32BE(headLength, 4);
      return Buffer.concat([prefix, Buffer.from(head), body]);
    };
    for (const bad of [
      frame('{nope'),
      frame('{}', undefined, 99),
      frame(' '.repeat(HEAD_LIMIT + 1)),
      frame('{"body":{"$bytes":[0,5]}}', Buffer.alloc(4)),
      frame('{"body":{"$bytes":[-1,2]}}', Buffer.alloc(4)),
    ]) {
      const { read, got, broken } = reader(2 ** 20);
      read(bad);
      expect(got).toEqual([]);
      expect(broken).toHaveLength(1);
    }
    const fine = reader(100);
    fine.read(frame('{"body":{"$bytes":[1,2]}}', Buffer.from([1, 2, 3])));
    expect(fine.got).toEqual([{ body: new Uint8Array([2, 3]) }]);
  });

  it('refuses to write a message whose JSON passes HEAD_LIMIT', () => {
    expect(() => encodeFrame({ url: 'x'.repeat(HEAD_LIMIT) })).toThrow(RangeError);
  });
});

describe('writeFrame', () => {
  it('writes the whole frame and says true once it has gone, false when the stream fails', async () => {
    const written: Buffer[] = [];
    const ok = await writeFrame(
      { write: (chunk: Buffer, done?: (error?: Error | null) => void) => (written.push(chunk), done?.(), true) },
      { type: 'ready' },
    );
    expect(ok).toBe(true);
    expect(Buffer.concat(written)).toEqual(bytesOf({ type: 'ready' }));
    const failing = { write: (_chunk: Buffer, done?: (error?: Error | null) => void) => (done?.(new Error('EPIPE')), false) };
    expect(await writeFrame(failing, { type: 'ready' })).toBe(false);
  });
});
