// The `verify` command: crawl a site as the scheme's crawler does and report what it would miss.

import { chromiumTextReader } from '../verify/browser.js';
import { MAX_PAGE_BYTES } from '../verify/fetch.js';
import { startUrl, verify, type TextReader } from '../verify/crawl.js';
import { formatReport } from '../verify/report.js';
import { EXIT, integer, jsonReport, readArgs, SetupError, UsageError, type CliIo } from './common.js';

export const VERIFY_USAGE = `Usage: crawlable-router verify URL [options]

Crawls the site at URL as the AJAX crawling scheme's crawler does: #! links are fetched as their
ugly URLs, pages with <meta name="fragment" content="!"> again with ?_escaped_fragment_=, the
sitemaps robots.txt names (or /sitemap.xml) are read, and _escaped_fragment_ links are never
followed. Reports each state's status and snapshot size, and every problem: a meta-tag page whose
snapshot is not 200, an ugly URL in a canonical link, sitemap or hyperlink, a fragment (#!) in a
canonical link, sitemap entry or hreflang alternate (crawlers drop it), a tracking tag (utm_*,
gclid, fbclid…) in a canonical link or og:url, a missing canonical link, a malformed meta tag, and
(with --browser) a state whose visible text in Chromium differs from its snapshot's. Warnings,
listed apart (a page with og: tags and no og:image; a URL robots.txt disallows for Googlebot, not
fetched), are no problems and leave the exit code 0.

Options:
  --browser            compare each state's text in Chromium with its snapshot (no cloaking);
                       needs playwright-core and Chromium (CHROMIUM_PATH, default /usr/bin/chromium)
  --json               print the report as JSON on stdout
  --max N              crawl at most N states                                  [default: 500]
  --concurrency N      fetches at once                                           [default: 4]
  --timeout MS         longest one state may take, its fetches and Chromium loads; a state
                       past it is FETCH_FAILED and the crawl goes on
                                                   [default: 10000, with --browser 15000]
  --max-page-bytes N   most bytes read of one page, counted as it streams; a longer page is
                       cancelled there, a PAGE_TOO_LARGE problem, and the crawl goes on
                                                                   [default: 5242880, 5 MiB]
  -h, --help           show this help

Exit codes: 0 no problems (warnings do not count), 1 problems found, 2 bad arguments, 3 the
browser could not start, 4 unexpected error.`;

/** `crawlable-router verify`. */
export async function runVerify(args: string[], io: CliIo): Promise<number> {
  const parsed = readArgs(
    args,
    {
      browser: { type: 'boolean' },
      json: { type: 'boolean' },
      max: { type: 'string' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      'max-page-bytes': { type: 'string' },
    },
    VERIFY_USAGE,
    io,
    true,
  );
  if (!parsed) return EXIT.OK;
  const { values, positionals } = parsed;
  const url = positionals[0];
  if (positionals.length !== 1 || !url || !/^https?:\/\/[^/]/.test(url)) throw new UsageError('give one http(s) URL to start from');
  try {
    startUrl(url);
  } catch (error) {
    throw new UsageError(`the start URL ${url} names no state: ${(error as Error).message}`);
  }
  const maxStates = integer(values.max, 'max', 500);
  const concurrency = integer(values.concurrency, 'concurrency', 4);
  // Not given, verify's own default: longer with a browser.
  const timeoutMs = values.timeout === undefined ? undefined : integer(values.timeout, 'timeout', 0);
  const maxPageBytes = integer(values['max-page-bytes'], 'max-page-bytes', MAX_PAGE_BYTES);
  let browser: TextReader | undefined;
  try {
    browser = values.browser ? await (io.browser ?? chromiumTextReader)() : undefined;
  } catch (error) {
    throw new SetupError(`cannot start Chromium: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    const report = await verify(url, {
      maxStates,
      concurrency,
      maxPageBytes,
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(browser && { browser }),
      // A bar redrawn in place is for a person at a terminal; a log file gets no `\r` lines.
      ...(io.stderr.isTTY && {
        onProgress: (done: number, known: number, current: string) =>
          io.stderr.write(`\r\x1b[2K[${done}/${known}] ${current.slice(0, 100)}`),
      }),
    });
    if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
    io.stdout.write((values.json ? jsonReport(report) : formatReport(report)) + '\n');
    return report.problems > 0 ? EXIT.FAILURES : EXIT.OK;
  } finally {
    await browser?.close();
  }
}
