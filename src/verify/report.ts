// How `crawlable-router verify` prints its report, and the command itself.

import { chromiumTextReader } from './browser.js';
import { verify, type TextReader, type VerifyReport } from './crawl.js';

/** The report as a table of states, then every problem, then a summary line. */
export function formatReport(report: VerifyReport): string {
  const rows = report.states.map((s) => [String(s.status || 'ERR'), s.kind, String(s.bytes), s.text, String(s.problems.length), s.url]);
  const header = ['status', 'kind', 'bytes', 'text', 'problems', 'state'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  const problems = [
    ...(report.sitemap?.problems.map((p) => `${p.code}  ${p.message}`) ?? []),
    ...report.states.flatMap((s) => s.problems.map((p) => `${p.code}  ${p.message}`)),
  ];
  const byStatus = new Map<number, number>();
  for (const s of report.states) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const statuses = [...byStatus].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${n} × ${status || 'failed'}`).join(', ');
  const mismatches = report.states.filter((s) => s.text === 'mismatch').length;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...(problems.length ? ['Problems:', ...problems, ''] : []),
    `${report.states.length} states crawled (${statuses})` +
      (report.sitemap ? `, sitemap ${report.sitemap.url} with ${report.sitemap.entries} entries` : ', no sitemap') +
      (report.browser ? `, ${mismatches} text mismatches in Chromium` : '') +
      `, ${report.problems} problems`,
  ].join('\n');
}

/** Where the command writes. */
export interface VerifyIo {
  out: (text: string) => void;
  progress: (text: string) => void;
  /** Starts the browser for `--browser`. Default Debian's Chromium through playwright-core. */
  browser?: () => Promise<TextReader>;
}

/** `crawlable-router verify URL [--browser] [--json] [--max N]`: returns the exit code (1 when problems are found). */
export async function verifyCommand(args: string[], io: VerifyIo): Promise<number> {
  const url = args.find((a) => !a.startsWith('--'));
  const maxAt = args.indexOf('--max');
  if (!url || !/^https?:\/\//.test(url)) {
    io.out('usage: crawlable-router verify URL [--browser] [--json] [--max N]\n');
    return 2;
  }
  const browser = args.includes('--browser') ? await (io.browser ?? chromiumTextReader)() : undefined;
  try {
    const report = await verify(url, {
      ...(browser ? { browser } : {}),
      ...(maxAt >= 0 ? { maxStates: Number(args[maxAt + 1]) } : {}),
      onProgress: (done, known, current) => io.progress(`\r[${done}/${known}] ${current.slice(0, 100)}`.padEnd(120)),
    });
    io.progress('\r'.padEnd(121) + '\r');
    io.out((args.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report)) + '\n');
    return report.problems > 0 ? 1 : 0;
  } finally {
    await browser?.close();
  }
}
