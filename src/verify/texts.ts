// `verify --browser`: what a browser shows of a state, with the page's scripts, against its
// snapshot without them. A site that shows crawlers other text than people (cloaking) differs.

import type { Problem, TextReader } from './problems.js';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where two texts first differ, with a little of each side for the report. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const cut = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 40));
  return `at character ${i}: browser ${cut(a)}, snapshot ${cut(b)}`;
}

/**
 * Reads the visible text of the state `url` with JavaScript and of its snapshot `fetched` without,
 * each within `remaining()` milliseconds, and gives TEXT_MISMATCH where they differ (white space
 * aside), or null.
 */
export async function textProblem(browser: TextReader, url: string, fetched: string, remaining: () => number): Promise<Problem | null> {
  const [live, snapshot] = await Promise.all([
    browser.visibleText(url, { javaScript: true, timeoutMs: remaining() }),
    browser.visibleText(fetched, { javaScript: false, timeoutMs: remaining() }),
  ]);
  if (squash(live) === squash(snapshot)) return null;
  return {
    code: 'TEXT_MISMATCH',
    message: `what a browser shows for ${url} differs from its snapshot ${firstDifference(squash(live), squash(snapshot))}`,
  };
}
