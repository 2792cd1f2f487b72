// How `crawlable-router verify` prints its report. What a site chose (its URLs, its markup in a
// problem's message) goes through `printable`: a terminal reading the report meets no escape
// sequence and no line the site wrote.

import { count } from '../server/build/progress.js';
import { printable } from '../server/printable.js';
import type { VerifyReport } from './crawl.js';
import { problemCount, type Problem, type Warning } from './problems.js';

/** One problem's (or warning's) line, saying how many more of its code are not listed. */
const problemLine = (p: Problem | Warning) =>
  `${p.code}  ${printable(p.message)}` + (p.more ? ` (and ${p.more} more ${p.code} not listed)` : '');

/** The report as a table of states, then every problem, every warning, then a summary line. */
export function formatReport(report: VerifyReport): string {
  // A state robots.txt disallows was not fetched: no failure, and no status.
  const statusOf = (s: VerifyReport['states'][number]) => (s.disallowed ? 'robots' : String(s.status || 'ERR'));
  const rows = report.states.map((s) => [statusOf(s), s.kind, String(s.bytes), s.text, String(problemCount(s.problems)), printable(s.url)]);
  const header = ['status', 'kind', 'bytes', 'text', 'problems', 'state'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  const problems = [...(report.sitemap?.problems.map(problemLine) ?? []), ...report.states.flatMap((s) => s.problems.map(problemLine))];
  const warnings = report.states.flatMap((s) => s.warnings.map(problemLine));
  const byStatus = new Map<number, number>();
  for (const s of report.states) if (!s.disallowed) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const disallowed = report.states.length - [...byStatus.values()].reduce((a, b) => a + b, 0);
  const statuses = [...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${n} × ${status || 'failed'}`)
    .concat(disallowed ? [`${disallowed} disallowed by robots.txt`] : [])
    .join(', ');
  const mismatches = report.states.filter((s) => s.text === 'mismatch').length;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...(problems.length ? ['Problems:', ...problems, ''] : []),
    // Apart from the problems, and counted apart: a warning fails nothing.
    ...(warnings.length ? ['Warnings:', ...warnings, ''] : []),
    `${count(report.states.length, 'state')} crawled (${statuses})` +
      (report.sitemap
        ? `, sitemap ${printable(report.sitemap.url)} with ${count(report.sitemap.entries, 'entry', 'entries')}`
        : ', no sitemap') +
      (report.browser ? `, ${count(mismatches, 'text mismatch', 'text mismatches')} in Chromium` : '') +
      `, ${count(report.problems, 'problem')}` +
      (report.warnings ? `, ${count(report.warnings, 'warning')}` : '') +
      (report.stopped
        ? `; stopped at --max ${report.stopped.maxStates}, with ${report.stopped.notCrawled} more links and sitemap entries not crawled (raise --max to crawl them)`
        : ''),
  ].join('\n');
}
