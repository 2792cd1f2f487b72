// The framing of the channel between the server and a page process (fd 3 of the page process, a
// pipe, never Node's IPC): a frame is a 4-byte big-endian length L, then L bytes: a 4-byte length H,
// H bytes of JSON (the message), then the message's bytes. Each Uint8Array in a message travels in
// those bytes, its place in the JSON marked `{"$bytes":[start,length]}`, so a page's HTML or a
// body's part is never escaped into JSON. A reader is given a limit and refuses a longer frame by
// its first 4 bytes, before it buffers any of it: a page process that announces 2 GiB costs the
// server four bytes, not 2 GiB.

/** Longest JSON part of a frame, in bytes. */
export const HEAD_LIMIT = 64 * 1024;

const MARK = '$bytes';

/** The frame of `message`: its JSON and its bytes, as buffers to write in turn (a body is not copied). */
export function encodeFrame(message: object): Buffer[] {
  const bytes: Uint8Array[] = [];
  let at = 0;
  const mark = (original: Uint8Array) => {
    bytes.push(original);
    at += original.byteLength;
    return { [MARK]: [at - original.byteLength, original.byteLength] };
  };
  const head = Buffer.from(
    // The value as it was, not as its toJSON gives it (a Buffer's is an array of numbers). An
    // object's bytes are marked as the object is reached, before JSON.stringify reads them: it
    // calls a value's toJSON before the replacer sees it, and a Buffer's made that array of every
    // byte (a 26 KB script's took 0.2-0.6 ms) only for the mark to take its place.
    JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
      const original = this[key];
      if (original instanceof Uint8Array) return mark(original);
      if (typeof value !== 'object' || value === null) return value;
      let marked: Record<string, unknown> | undefined;
      for (const name of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[name];
        if (!(item instanceof Uint8Array)) continue;
        marked ??= Array.isArray(value) ? ([...(value as unknown[])] as unknown as Record<string, unknown>) : { ...value };
        marked[name] = mark(item);
      }
      return marked ?? value;
    }),
  );
  if (head.length > HEAD_LIMIT) throw new RangeError(`a message's JSON is longer than ${HEAD_LIMIT} bytes`);
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32BE(4 + head.length + at, 0);
  prefix.writeUInt32BE(head.length, 4);
  return [prefix, head, ...bytes.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))];
}

/** Writes the frame of `message` to `stream`: true once it has gone, false if it could not. */
export function writeFrame(
  stream: { write(chunk: Buffer, done?: (error?: Error | null) => void): boolean },
  message: object,
): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const parts = encodeFrame(message);
      const last = parts.pop()!;
      for (const part of parts) stream.write(part);
      stream.write(last, (error) => resolve(!error));
    } catch {
      resolve(false);
    }
  });
}

/**
 * A reader of frames: give it each chunk read; it calls `onFrame` with each whole message, and
 * `onBroken` once, with why, for a frame longer than `limit`, or whose JSON is too long or not
 * JSON; after that it reads nothing more. It never holds more than one frame and one chunk.
 */
export function frameReader(limit: number, onFrame: (message: unknown) => void, onBroken: (why: string) => void): (chunk: Buffer) => void {
  let chunks: Buffer[] = [];
  let held = 0;
  let need = -1;
  let broken = false;

  function fail(why: string): void {
    broken = true;
    chunks = [];
    held = 0;
    onBroken(why);
  }

  function take(length: number): Buffer {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, held);
    // What follows is copied out: a small rest must not keep a large frame's buffer alive.
    chunks = all.length > length ? [Buffer.from(all.subarray(length))] : [];
    held -= length;
    return all.subarray(0, length);
  }

  function decode(frame: Buffer): void {
    const headLength = frame.length >= 4 ? frame.readUInt32BE(0) : -1;
    if (headLength < 0 || headLength > HEAD_LIMIT || headLength > frame.length - 4) return fail('a frame whose JSON does not fit it');
    const bytes = frame.subarray(4 + headLength);
    let message: unknown;
    try {
      message = JSON.parse(frame.toString('utf8', 4, 4 + headLength), (_key, value: unknown) => {
        const mark = (value as Record<string, unknown> | null)?.[MARK];
        if (!Array.isArray(mark) || !Object.hasOwn(value as object, MARK)) return value;
        const [start, length] = mark as unknown[];
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || (start as number) < 0 || (length as number) < 0)
          throw new RangeError('a bad mark');
        if ((start as number) + (length as number) > bytes.length) throw new RangeError('a mark past the bytes');
        return new Uint8Array(bytes.buffer, bytes.byteOffset + (start as number), length as number);
      });
    } catch {
      return fail('a frame whose JSON is not a message');
    }
    onFrame(message);
  }

  return (chunk) => {
    if (broken) return;
    chunks.push(chunk);
    held += chunk.length;
    for (;;) {
      if (need < 0) {
        if (held < 4) return;
        need = take(4).readUInt32BE(0);
        if (need > limit) return fail(`a frame of ${need} bytes, past the ${limit} allowed`);
      }
      if (held < need) return;
      const frame = take(need);
      need = -1;
      decode(frame);
      if (broken) return;
    }
  };
}
