import { describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../src/verify/crawl.js';
import { formatReport } from '../../src/verify/report.js';

const report: VerifyReport = {
  start: 'https://e.test/',
  browser: true,
  problems: 2,
  warnings: 0,
  stopped: null,
  sitemap: {
    url: 'https://e.test/sitemap.xml',
    entries: 3,
    problems: [{ code: 'UGLY_SITEMAP', message: 'the sitemap points at an ugly URL' }],
  },
  states: [
    {
      url: 'https://e.test/',
      fetched: 'https://e.test/?_escaped_fragment_=',
      kind: 'meta',
      status: 200,
      bytes: 1234,
      title: 'Home',
      text: 'match',
      problems: [],
      warnings: [],
    },
    {
      url: 'https://e.test/#!/x',
      fetched: 'https://e.test/?_escaped_fragment_=/x',
      kind: 'pretty',
      status: 404,
      bytes: 99,
      title: 'Not found',
      text: 'mismatch',
      problems: [{ code: 'TEXT_MISMATCH', message: 'differs' }],
      warnings: [],
    },
  ],
};

describe('formatReport', () => {
  it('says how many problems of a code are not listed, and counts them in the table', () => {
    const state = { ...(report.states[1] as VerifyReport['states'][number]) };
    state.problems = [{ code: 'UGLY_LINK', message: 'a link points at an ugly URL', more: 4980 }];
    const lines = formatReport({ ...report, sitemap: null, states: [state], problems: 4981 }).split('\n');
    expect(lines[2]).toMatch(/ 4981 +https:\/\/e\.test\/#!\/x$/);
    expect(lines).toContain('UGLY_LINK  a link points at an ugly URL (and 4980 more UGLY_LINK not listed)');
  });

  it('writes a table of states, the problems, and a summary with statuses and mismatches', () => {
    expect(formatReport(report).split('\n')).toEqual([
      'status  kind    bytes  text      problems  state',
      '------  ------  -----  --------  --------  -------------------',
      '200     meta    1234   match     0         https://e.test/',
      '404     pretty  99     mismatch  1         https://e.test/#!/x',
      '',
      'Problems:',
      'UGLY_SITEMAP  the sitemap points at an ugly URL',
      'TEXT_MISMATCH  differs',
      '',
      '2 states crawled (1 × 200, 1 × 404), sitemap https://e.test/sitemap.xml with 3 entries, 1 text mismatch in Chromium, 2 problems',
    ]);
  });

  it('says that the crawl stopped at --max, and how many names of other URLs it left', () => {
    const lines = formatReport({ ...report, stopped: { maxStates: 2, notCrawled: 121553 } }).split('\n');
    expect(lines.at(-1)).toBe(
      '2 states crawled (1 × 200, 1 × 404), sitemap https://e.test/sitemap.xml with 3 entries, 1 text mismatch in Chromium, 2 problems; stopped at --max 2, with 121553 more links and sitemap entries not crawled (raise --max to crawl them)',
    );
  });

  it('lists warnings apart from the problems, and counts them apart in the summary', () => {
    const [home, missing] = report.states as [VerifyReport['states'][number], VerifyReport['states'][number]];
    const warned = { ...home, warnings: [{ code: 'MISSING_OG_IMAGE' as const, message: 'the page of https://e.test/ has no og:image' }] };
    const lines = formatReport({ ...report, states: [warned, missing], warnings: 1 }).split('\n');
    // The table counts problems only: a warning fails nothing.
    expect(lines[2]).toMatch(/^200 +meta +1234 +match +0 +https:\/\/e\.test\/$/);
    expect(lines.slice(5)).toEqual([
      'Problems:',
      'UGLY_SITEMAP  the sitemap points at an ugly URL',
      'TEXT_MISMATCH  differs',
      '',
      'Warnings:',
      'MISSING_OG_IMAGE  the page of https://e.test/ has no og:image',
      '',
      '2 states crawled (1 × 200, 1 × 404), sitemap https://e.test/sitemap.xml with 3 entries, 1 text mismatch in Chromium, 2 problems, 1 warning',
    ]);
  });
});
