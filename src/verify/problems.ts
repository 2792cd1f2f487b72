// What `verify` reports: every state crawled, and one code per kind of thing a crawler would get
// wrong or miss.

import { printable } from '../server/printable.js';

/** What a problem is about. */
export type ProblemCode =
  | 'FETCH_FAILED'
  | 'PAGE_TOO_LARGE'
  | 'PAGE_TOO_DEEP'
  | 'BAD_STATUS'
  | 'META_NOT_200'
  | 'MALFORMED_META'
  | 'MISSING_CANONICAL'
  | 'UGLY_CANONICAL'
  | 'BAD_CANONICAL'
  | 'FRAGMENT_URL'
  | 'TRACKING_CANONICAL'
  | 'UGLY_LINK'
  | 'UGLY_SITEMAP'
  | 'SITEMAP_NOT_200'
  | 'SITEMAP_NOINDEX'
  | 'RELATIVE_ALTERNATE'
  | 'ALTERNATE_NOT_200'
  | 'ALTERNATE_NOINDEX'
  | 'BAD_SITEMAP'
  | 'OFF_ORIGIN'
  | 'OFF_ORIGIN_REDIRECT'
  | 'TEXT_MISMATCH'
  | 'EMPTY_FOR_BOTS'
  | 'STATUS_DIFFERS'
  | 'MISSING_VARY'
  | 'LONG_URL';

/** One thing the crawler would get wrong or miss. */
export interface Problem {
  /** The kind of problem. */
  code: ProblemCode;
  /** What is wrong, naming the URL or element concerned. */
  message: string;
  /** How many more problems of this code the state (or the sitemaps) has that are not listed: on the last one listed only. */
  more?: number;
}

/** What a warning is about. */
export type WarningCode = 'MISSING_OG_IMAGE' | 'DISALLOWED';

/** One thing that works but less well than it could: reported, never counted in `problems` nor failing verify. */
export interface Warning {
  /** The kind of warning. */
  code: WarningCode;
  /** What could be better, naming the URL concerned. */
  message: string;
  /** How many more warnings of this code the state has that are not listed: on the last one listed only. */
  more?: number;
}

/** Problems of one code listed for a state (or for the sitemaps); the rest are counted in the last one's `more`. */
export const LISTED_PER_CODE = 20;
/** Characters kept of a message that names what a page chose (its text, its URLs). */
const MESSAGE_MAX = 1000;

/**
 * Adds `problem` to a state's `problems` (or a warning to its `warnings`), or counts it in `more` of
 * the last one of its code once LISTED_PER_CODE of them are listed. A page chooses how many it has (a
 * 10 MiB page holds 350,000 ugly links, each a message naming the page's URL) and what their messages
 * quote: listing them all ran the crawler out of memory, so each message is kept printable and at
 * most MESSAGE_MAX long.
 */
export function addProblem<T extends Problem | Warning>(problems: T[], problem: T): void {
  let listed = 0;
  let last: T | undefined;
  for (const known of problems) {
    if (known.code !== problem.code) continue;
    listed++;
    last = known;
  }
  if (last && listed >= LISTED_PER_CODE) last.more = (last.more ?? 0) + 1;
  else problems.push({ ...problem, message: printable(problem.message, MESSAGE_MAX) });
}

/** How many problems (or warnings) `problems` stands for: those listed and those counted. */
export function problemCount(problems: readonly (Problem | Warning)[]): number {
  return problems.reduce((n, p) => n + 1 + (p.more ?? 0), 0);
}

/** One crawled state. */
export interface StateReport {
  /** The URL as a person sees it: pretty (`#!`) or clean. */
  url: string;
  /** The URL the crawler fetched for the snapshot (ugly, or the page itself). */
  fetched: string;
  /** `pretty`: a #! URL; `meta`: a page with the meta fragment tag; `plain`: an ordinary page. */
  kind: 'pretty' | 'meta' | 'plain';
  /** The HTTP status of what was fetched (0 when the fetch failed). */
  status: number;
  /** True when the snapshot (or page) says `noindex` in a robots meta or `X-Robots-Tag`: what only an indexed page needs (a canonical link, text that matches) is not checked. */
  noindex?: true;
  /** For a redirect: where it leads, as a person sees it (an ugly target made pretty). */
  redirect?: string;
  /** The size of the snapshot's body in bytes. */
  bytes: number;
  /** The snapshot's title. */
  title: string;
  /** `match` or `mismatch` when a browser compared texts; `unchecked` otherwise. */
  text: 'match' | 'mismatch' | 'unchecked';
  /** What is wrong with this state. */
  problems: Problem[];
  /** What could be better for this state: no failure. */
  warnings: Warning[];
  /** True when robots.txt disallows the URL the state is fetched at: it was not fetched (a DISALLOWED warning says by which rule). */
  disallowed?: true;
  /** What the state's clean URL gave a bot and a browser (src/verify/agents.ts); absent when the state could not be fetched. */
  clean?: CleanUrlReport;
}

/** The report of a state whose crawl failed with `problem`: nothing of it was checked. */
export function failedState(url: string, problem: Problem): StateReport {
  return { url, fetched: url, kind: 'plain', status: 0, bytes: 0, title: '', text: 'unchecked', warnings: [], problems: [problem] };
}

/** The whole crawl. */
export interface VerifyReport {
  /** Where the crawl started. */
  start: string;
  /** Every state reached, in the order crawled. */
  states: StateReport[];
  /** The sitemaps read (their URLs, space-separated), if any answered. */
  sitemap: { url: string; entries: number; problems: Problem[] } | null;
  /** How many problems were found in all. */
  problems: number;
  /** How many warnings were given in all; they do not fail verify. */
  warnings: number;
  /** True when a browser compared each state's text with its snapshot. */
  browser: boolean;
  /**
   * Null when every URL met was crawled; else the crawl stopped at `maxStates` (`--max`) with
   * `notCrawled` names of other URLs (links, sitemap entries, alternates, redirects; a URL counted
   * each time it was named) left uncrawled.
   */
  stopped: { maxStates: number; notCrawled: number } | null;
}

/** Renders a URL in a real browser, with the page's scripts or without them. */
export interface TextReader {
  /** The visible text (`innerText` of the body) of `url`, after the page has settled; within `timeoutMs` when given. */
  visibleText(url: string, options: { javaScript: boolean; timeoutMs?: number }): Promise<string>;
  /** Frees the browser. */
  close(): Promise<void>;
}

/** What a state's clean URL gave a bot and a browser. */
export interface CleanUrlReport {
  /** The clean URL fetched (a `#!` state's path and query under its page's folder). */
  url: string;
  /** The bot's answer: status, title and meta description (empty when missing). */
  bot: { status: number; title: string; description: string };
  /** The browser's answer: its status, and whether it is the shell (it has the meta fragment tag). */
  browser: { status: number; shell: boolean };
  /** True when the answers differ (status or body). */
  differ: boolean;
}
