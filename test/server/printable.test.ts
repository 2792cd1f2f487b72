import { describe, expect, it } from 'vitest';
import { printable, thrownText } from '../../src/server/printable.js';

describe('printable', () => {
  it('writes C0, DEL and C1 characters as \\xNN and cuts long text', () => {
    expect(printable('a\r\nb\x1b[2J\x7f\u009b\u2028é')).toBe('a\\x0d\\x0ab\\x1b[2J\\x7f\\x9b\u2028é');
    expect(printable('x'.repeat(3000))).toBe('x'.repeat(2000) + '…');
  });
});

describe('thrownText', () => {
  it("gives an Error's message, any other value's text, and never throws", () => {
    const throwing = {
      toString() {
        throw new Error('no');
      },
    };
    expect([thrownText(new TypeError('bad')), thrownText('text'), thrownText(42), thrownText(undefined)]).toEqual([
      'bad',
      'text',
      '42',
      'undefined',
    ]);
    expect([thrownText(Object.create(null)), thrownText(throwing)]).toEqual([
      '(a value that does not print)',
      '(a value that does not print)',
    ]);
  });
});
