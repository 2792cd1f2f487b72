import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { headKey, isCanonicalLink, isFragmentMeta } from '../../src/contract/head.js';
import { REDIRECT_ATTRIBUTE, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../src/contract/settled.js';
import { checkSnapshot, type Checked } from '../../src/server/headless/snapshot-check.js';
import { walkElements } from '../../src/server/html/links.js';
import { attr } from '../../src/server/html/selector.js';
import { ROBOTS_KEY } from '../../src/server/noindex.js';
import { MARKUP } from './markup.js';
import { fuzz } from './runs.js';

// checkSnapshot reads a page process's snapshot as the parse creates each element and keeps no tree
// (src/server/headless/snapshot-check.ts): a hostile page chooses those bytes. Its verdict must be the
// one read off parse5's own whole tree, whatever the markup: which rules hold is what counts, not
// which broken rule is named first.

/** The rules, read off parse5's whole tree: the check as it was before it kept no tree. */
function wholeTreeBreaks(html: string, job: Checked): Set<string> {
  const broken = new Set<string>();
  let noindex = false;
  walkElements(parse(html), (element) => {
    const read = (name: string) => attr(element, name);
    if (element.tagName === 'html' && [STATE_ATTRIBUTE, STATUS_ATTRIBUTE, REDIRECT_ATTRIBUTE].some((name) => read(name) !== undefined))
      broken.add('settled');
    else if (isFragmentMeta(element.tagName, read)) broken.add('fragment');
    else if (job.status !== 200 && isCanonicalLink(element.tagName, read)) broken.add('canonical');
    else if (headKey(element.tagName, read) === ROBOTS_KEY && /\b(noindex|none)\b/i.test(read('content') ?? '')) noindex = true;
  });
  if (broken.size === 0 && job.noindex && !noindex) broken.add('noindex');
  return broken;
}

/** Which rule a message of checkSnapshot names. */
const ruleOf = (message: string) =>
  /settled/.test(message) ? 'settled' : /fragment/.test(message) ? 'fragment' : /canonical/.test(message) ? 'canonical' : 'noindex';

describe('checkSnapshot without a tree', () => {
  it('refuses what a check of parse5’s whole tree refuses, for a rule it breaks, whatever the markup', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...MARKUP), { maxLength: 80, size: 'max' }),
        fc.constantFrom(200, 404),
        fc.boolean(),
        (tokens, status, noindex) => {
          const html = tokens.join('');
          const job = { status, noindex };
          const broken = wholeTreeBreaks(html, job);
          const verdict = checkSnapshot(html, job);
          expect({ html, refused: verdict !== null }).toEqual({ html, refused: broken.size > 0 });
          if (verdict !== null) expect(broken).toContain(ruleOf(verdict));
        },
      ),
      fuzz(47, 3000),
    );
  });
});
