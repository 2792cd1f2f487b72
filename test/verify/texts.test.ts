import { describe, expect, it } from 'vitest';
import type { TextReader } from '../../src/verify/problems.js';
import { textProblem } from '../../src/verify/texts.js';

/** A browser that shows `live` with JavaScript and `snapshot` without; every read and its time limit noted. */
function reader(live: string, snapshot: string, reads: string[] = []): TextReader {
  return {
    visibleText: async (url, { javaScript, timeoutMs }) => (reads.push(`${url} ${javaScript} ${timeoutMs}`), javaScript ? live : snapshot),
    close: async () => {},
  };
}

describe('textProblem', () => {
  it('reads the state with JavaScript and its snapshot without, each within what is left, and finds no problem in white space', async () => {
    const reads: string[] = [];
    const browser = reader(' Book\n 1 ', 'Book 1', reads);
    expect(await textProblem(browser, 'https://a.b/#!/1', 'https://a.b/?_escaped_fragment_=/1', () => 700)).toBeNull();
    expect(reads.sort()).toEqual(['https://a.b/#!/1 true 700', 'https://a.b/?_escaped_fragment_=/1 false 700']);
  });

  it('gives TEXT_MISMATCH saying where the texts first differ, with a little of each', async () => {
    expect(
      await textProblem(reader('Book 1 by Ann', 'Book 1 by Bob'), 'https://a.b/#!/1', 'https://a.b/?_escaped_fragment_=/1', () => 1),
    ).toEqual({
      code: 'TEXT_MISMATCH',
      message:
        'what a browser shows for https://a.b/#!/1 differs from its snapshot at character 10: browser "Book 1 by Ann", snapshot "Book 1 by Bob"',
    });
  });
});
