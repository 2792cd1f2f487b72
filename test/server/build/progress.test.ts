import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/server/build/progress.js';

const sink = (isTTY: boolean) => {
  const out: string[] = [];
  return { out, stream: { isTTY, columns: 60, write: (text: string) => out.push(text) } };
};

describe('createProgress', () => {
  it('writes one plain line per state when the stream is not a terminal', () => {
    const { out, stream } = sink(false);
    const progress = createProgress(stream, 12);
    progress.step('/a');
    progress.step('/b', 'status 404');
    progress.end('done');
    expect(out.join('')).toBe('[ 1/12] ok /a\n[ 2/12] FAILED /b: status 404\ndone\n');
    expect(out.join('')).not.toContain('\r');
  });

  it('redraws a bar in place on a terminal, with failures on their own lines', () => {
    const { out, stream } = sink(true);
    const progress = createProgress(stream, 2);
    progress.step('/a');
    progress.step('/b', 'boom');
    progress.end('done');
    const text = out.join('');
    expect(text).toContain('\r\x1b[2K[############------------] 1/2 /a');
    expect(text).toContain('\r\x1b[2KFAILED /b: boom\n');
    expect(text).toContain('[########################] 2/2 /b');
    expect(text.endsWith('\ndone\n')).toBe(true);
  });

  it("writes a failure's reason with no control character, on a terminal or not", () => {
    // An app's error may quote its data: ESC ] 0 ; sets a terminal's title, a line break forges a line.
    const reason = 'no book \x1b]0;pwned\x07\n[ 3/3] ok /forged';
    for (const tty of [false, true]) {
      const { out, stream } = sink(tty);
      createProgress(stream, 3).step('/b', reason);
      expect(out.join('')).toContain('FAILED /b: no book \\x1b]0;pwned\\x07\\x0a[ 3/3] ok /forged\n');
      expect(out.join('').replace(/\r\x1b\[2K/g, '')).not.toMatch(/[\x07\x1b]|\n\[ 3\/3\]/);
    }
  });

  it('keeps the bar within the terminal width', () => {
    const { out, stream } = sink(true);
    createProgress(stream, 1).step('/' + 'x'.repeat(500));
    expect(out.every((line) => line.replace('\r\x1b[2K', '').length <= 59)).toBe(true);
  });

  it('is silent without a stream', () => {
    const progress = createProgress(undefined, 3);
    expect(() => (progress.step('/a'), progress.end('x'))).not.toThrow();
  });
});
