import { describe, expect, it } from 'vitest';
import { checkedResult, frame, frameLength, MAX_FRAME, MAX_HTML, printable, validRequest } from '../../../src/server/headless/protocol.js';

// What the server accepts from a page process, which it does not trust (SECURITY.md, "The headless boundary").

describe('frame', () => {
  it('is a 4-byte big-endian length, then the bytes; frameLength is that length alone', () => {
    expect([...frameLength(258)]).toEqual([0, 0, 1, 2]);
    expect([...frame(new Uint8Array([7, 8]))]).toEqual([0, 0, 0, 2, 7, 8]);
    expect([...frame(new Uint8Array(0))]).toEqual([0, 0, 0, 0]);
  });
});

describe('checkedResult', () => {
  it('takes a page up to MAX_HTML long and refuses a longer one, whoever sent it', () => {
    expect(checkedResult({ html: 'x'.repeat(MAX_HTML), status: 200 })?.html.length).toBe(MAX_HTML);
    expect(checkedResult({ html: 'x'.repeat(MAX_HTML + 1), status: 200 })).toBeNull();
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

describe('printable', () => {
  it('writes C0, DEL and C1 characters as \\xNN and cuts long text', () => {
    expect(printable('a\r\nb\x1b[2J\x7f\u009b\u2028é')).toBe('a\\x0d\\x0ab\\x1b[2J\\x7f\\x9b\u2028é');
    expect(printable('x'.repeat(3000))).toBe('x'.repeat(2000) + '…');
  });
});
