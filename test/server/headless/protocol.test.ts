import { describe, expect, it } from 'vitest';
import {
  answerParts,
  checkedResult,
  frame,
  frameLength,
  MAX_FRAME,
  PART,
  sendAnswer,
  requestParts,
  sendInParts,
  validRequest,
  type AnswerMessage,
  type GateAnswer,
} from '../../../src/server/headless/protocol.js';

// What the server accepts from a page process, which it does not trust (SECURITY.md, "The headless boundary").

describe('frame', () => {
  it('is a 4-byte big-endian length, then the bytes; frameLength is that length alone', () => {
    expect([...frameLength(258)]).toEqual([0, 0, 1, 2]);
    expect([...frame(new Uint8Array([7, 8]))]).toEqual([0, 0, 0, 2, 7, 8]);
    expect([...frame(new Uint8Array(0))]).toEqual([0, 0, 0, 0]);
  });
});

describe('sendAnswer and answerParts', () => {
  const answer = (length: number): GateAnswer => ({
    status: 200,
    statusText: 'OK',
    headers: [['content-type', 'video/mp4']],
    // Every part different: a byte counting up at each KiB.
    body: Buffer.alloc(length).map((_, i) => (i >> 10) % 251),
  });

  it('sends a body a part at a time, each once the last has gone, and the page process gets it whole', async () => {
    const sent: AnswerMessage[] = [];
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    // Each message "goes" a timer tick later, as a pipe's write does.
    const send = (message: AnswerMessage) => new Promise<boolean>((resolve) => setTimeout(() => resolve(sent.push(message) > 0), 1));
    const big = answer(3 * PART + 5);
    await sendAnswer(send, 7, big);
    clearInterval(counting);
    // Before, one message carried the whole body: a 60 MB file was copied in one turn of the server's loop.
    expect(sent.map((m) => (m.type === 'answer' ? m.answer?.body.length : m.body.length))).toEqual([PART, PART, PART, 5]);
    expect(sent[0]).toMatchObject({ type: 'answer', rid: 7, parts: 3 });
    expect(turns).toBeGreaterThan(0);
    const gather = answerParts();
    const results = sent.map(gather);
    expect(results.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(results[3]?.rid).toBe(7);
    const { body, ...head } = results[3]!.answer!;
    expect(head).toEqual({ status: 200, statusText: 'OK', headers: [['content-type', 'video/mp4']] });
    expect(Buffer.compare(body, big!.body)).toBe(0);
  });

  it('stops sending parts once they are not wanted, and the page process forgets a request it dropped', async () => {
    // Before, every part of a 60 MB body went to the page process after its render was over.
    const sent: AnswerMessage[] = [];
    let over = false;
    await sendAnswer(
      async (m) => sent.push(m) > 0 && ((over = sent.length === 2), true),
      3,
      answer(5 * PART),
      () => !over,
    );
    expect(sent.map((m) => m.type)).toEqual(['answer', 'part']);
    const two: AnswerMessage[] = [];
    await sendAnswer(async (m) => two.push(m) > 0, 3, answer(PART + 1));
    const gather = answerParts();
    expect(gather(two[0]!)).toBeUndefined();
    gather.drop(3);
    // The rest of a dropped answer is nobody's: nothing is gathered for it.
    expect(gather(two[1]!)).toBeUndefined();
    expect(two.map(gather).map((r) => r?.answer?.body.length)).toEqual([undefined, PART + 1]);
  });

  it('sends a short answer and a network error in one message, and stops when a message could not go', async () => {
    for (const [reply, parts] of [
      [answer(10), 0],
      [answer(PART), 0],
      [answer(0), 0],
      [null, 0],
    ] as const) {
      const sent: AnswerMessage[] = [];
      await sendAnswer(async (m) => sent.push(m) > 0, 1, reply);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ type: 'answer', rid: 1, parts });
      const whole = answerParts()(sent[0]!);
      expect(whole?.rid).toBe(1);
      if (reply === null) expect(whole?.answer).toBeNull();
      else expect(Buffer.compare(whole!.answer!.body, reply.body)).toBe(0);
    }
    let tries = 0;
    await sendAnswer(async () => (tries++, false), 1, answer(5 * PART));
    expect(tries).toBe(1);
  });

  it('gathers answers of several requests at once apart, and ignores a part of no answer', async () => {
    const sent: AnswerMessage[] = [];
    const send = async (m: AnswerMessage) => sent.push(m) > 0;
    await Promise.all([sendAnswer(send, 1, answer(2 * PART)), sendAnswer(send, 2, answer(PART + 1))]);
    const gather = answerParts();
    expect(gather({ type: 'part', rid: 9, body: new Uint8Array(3) })).toBeUndefined();
    const whole = sent.map(gather).filter((r) => r !== undefined);
    expect(whole.map((r) => [r.rid, r.answer?.body.length]).sort()).toEqual([
      [1, 2 * PART],
      [2, PART + 1],
    ]);
  });
});

describe('checkedResult', () => {
  it("takes a page only as text (its length in bytes is the frame's, checked before it is read)", () => {
    expect(checkedResult({ html: 'x', status: 200 })).toEqual({ html: 'x', status: 200 });
    expect(checkedResult({ html: ['x'], status: 200 })).toBeNull();
    expect(checkedResult({ status: 200 })).toBeNull();
  });

  it('believes only the statuses a page’s router publishes: not 204, 206, 401, 407, 418, 429 or 499', () => {
    for (const status of [200, 404, 500]) expect(checkedResult({ html: 'x', status })).toEqual({ html: 'x', status });
    expect(checkedResult({ html: '', status: 308, redirect: '/b' })).toEqual({ html: '', status: 308, redirect: '/b' });
    for (const status of [204, 206, 401, 407, 418, 429, 499, 503, 200.5]) expect(checkedResult({ html: 'x', status })).toBeNull();
  });

  it("keeps a failure's cause for a 500 only, cut at 500 characters", () => {
    expect(checkedResult({ html: '', status: 500, error: 'E'.repeat(600) })).toEqual({ html: '', status: 500, error: 'E'.repeat(500) });
    expect(checkedResult({ html: 'x', status: 200, error: 'lie' })).toEqual({ html: 'x', status: 200 });
    expect(checkedResult({ html: '', status: 500, error: 42 })).toEqual({ html: '', status: 500 });
  });
});

describe('validRequest', () => {
  it('takes a request body up to MAX_FRAME bytes and refuses a longer one', () => {
    const request = (body: Uint8Array | null) => ({ url: 'https://example.com/api', method: 'POST', headers: [], body });
    expect(validRequest(request(null))).toBe(true);
    expect(validRequest(request(new Uint8Array(MAX_FRAME)))).toBe(true);
    expect(validRequest(request(new Uint8Array(MAX_FRAME + 1)))).toBe(false);
  });
});

describe('sendInParts', () => {
  it("sends a page's request body a part at a time too, the request with the first part saying how many follow", async () => {
    const sent: Array<{ type: string; body: Uint8Array | null; parts?: number }> = [];
    const body = new Uint8Array(2 * PART + 3);
    const first = (part: Uint8Array, parts: number) => ({ type: 'request', body: part, parts });
    await sendInParts(async (message: { type: string; body: Uint8Array }) => sent.push(message) > 0, first, 4, body);
    expect(sent.map((m) => [m.type, m.body?.length, m.parts])).toEqual([
      ['request', PART, 2],
      ['part', PART, undefined],
      ['part', 3, undefined],
    ]);
  });
});

describe('requestParts', () => {
  const head = { url: 'https://example.com/api', method: 'POST', headers: [] as Array<[string, string]> };
  const request = (rid: number, body: Uint8Array | null, parts: number) =>
    ({ type: 'request', rid, id: 0, request: { ...head, body }, parts }) as const;
  const part = (rid: number, body: Uint8Array) => ({ type: 'part', rid, body }) as const;

  it('gives a request at once when no part follows, and whole once its last part came', () => {
    const gather = requestParts(4 * PART);
    expect(gather(request(1, null, 0))).toEqual({ rid: 1, request: { ...head, body: null } });
    expect(gather(request(2, new Uint8Array(PART).fill(1), 1))).toBeUndefined();
    const whole = gather(part(2, new Uint8Array(3).fill(2)));
    expect(typeof whole === 'object' && whole?.request.body?.length).toBe(PART + 3);
  });

  it('names what a page process did wrong: a part of no request, a part past PART, bodies held past the cap', () => {
    const gather = requestParts(2 * PART);
    expect(gather(part(9, new Uint8Array(1)))).toBe('broke the protocol and was stopped');
    expect(gather(request(3, new Uint8Array(PART + 1), 0))).toBe('broke the protocol and was stopped');
    expect(gather(request(4, new Uint8Array(PART), 5))).toBeUndefined();
    expect(gather(part(4, new Uint8Array(PART)))).toBeUndefined();
    expect(gather(part(4, new Uint8Array(1)))).toBe(`sent a request body past ${2 * PART} bytes and was stopped`);
  });
});
