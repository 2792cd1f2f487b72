// `verify`: crawls a site as the AJAX crawling scheme's crawler does and reports what it would miss.
// The crawler's side of docs/scheme.md:
// #! links are fetched as their ugly URLs, pages with the meta tag are fetched again with an empty
// escaped fragment, sitemaps are read, links in _escaped_fragment_ form are never followed, and
// no URL robots.txt disallows for Googlebot is fetched.

import { CodecError, hasEscapedFragment, isUglyUrl, toPrettyUrl, toUglyUrl } from '../url/codec.js';
import { canonicalProblems } from './addresses.js';
import { cleanUrlOf, crawlAsAgents } from './agents.js';
import { deadline, type Deadline } from './deadline.js';
import { disallowedWarning } from './disallowed.js';
import { fetchProblem, MAX_PAGE_BYTES, siteFetch, type Fetched } from './fetch.js';
import { createFrontier } from './frontier.js';
import { alternateProblems, listedProblems } from './listed.js';
import { readPage, saysNoindex, type PageFacts } from './page.js';
import { previewWarning } from './preview.js';
import {
  addProblem,
  failedState,
  problemCount,
  type Problem,
  type StateReport,
  type TextReader,
  type VerifyReport,
  type Warning,
} from './problems.js';
import { robotsRules } from './robots.js';
import { textProblem } from './texts.js';
import { readRobotsTxt, readSitemaps } from './sitemaps.js';

export type { Problem, ProblemCode, StateReport, TextReader, VerifyReport, Warning, WarningCode } from './problems.js';

/** Options of `verify`. */
export interface VerifyOptions {
  /** Compares each state's visible text in a browser with its snapshot's. Default none. */
  browser?: TextReader;
  /** Stops after this many states. Default 500. */
  maxStates?: number;
  /** Fetches at once. Default 4. */
  concurrency?: number;
  /**
   * The longest one state may take, in milliseconds: its fetches and, with `browser`, its browser
   * loads; a state past it is a FETCH_FAILED problem and the crawl goes on. Also each fetch of
   * robots.txt and the sitemaps. Default 10000, with `browser` 15000 (a fetch's and a Chromium
   * load's limits before).
   */
  timeoutMs?: number;
  /**
   * The most bytes read of one page (a state's, its snapshot's, its clean URL's), counted as it
   * streams; a longer one is cancelled there and is a PAGE_TOO_LARGE problem. Default MAX_PAGE_BYTES, 5 MiB.
   */
  maxPageBytes?: number;
  /** Also fetches each state's clean URL as a bot and as a browser (EMPTY_FOR_BOTS, STATUS_DIFFERS, MISSING_VARY). Default `true`. */
  agents?: boolean;
  /** Called as each state is done: done count, known count, its URL. Default none. */
  onProgress?: (done: number, known: number, url: string) => void;
}

/**
 * The URL a crawl from `start` begins at: an ugly URL is the `#!` URL of the state it names (an old
 * URL a crawler kept, checked as it is), never a link to refuse. Throws `CodecError` for one that
 * names no state.
 */
export function startUrl(start: string): string {
  return hasEscapedFragment(start) ? toPrettyUrl(start) : start;
}

/** Crawls `start` as the scheme's crawler would and reports every state and problem. */
export async function verify(start: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const {
    browser,
    maxStates = 500,
    concurrency = 4,
    timeoutMs = browser ? 15_000 : 10_000,
    maxPageBytes = MAX_PAGE_BYTES,
    agents = true,
    onProgress,
  } = options;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a number of milliseconds above 0, got ${JSON.stringify(timeoutMs)}`);
  if (!Number.isSafeInteger(maxPageBytes) || maxPageBytes <= 0)
    throw new RangeError(`maxPageBytes must be a whole number of bytes above 0, got ${JSON.stringify(maxPageBytes)}`);
  const origin = new URL(start).origin;
  const states: StateReport[] = [];
  const { queue, listed, alternated, enqueue, notCrawled } = createFrontier(origin, maxStates);
  const get = siteFetch(origin, timeoutMs, maxPageBytes);

  const first = startUrl(start);
  enqueue(first, first, [], 'start');
  const robots = await readRobotsTxt(origin, get);
  // Its rules for the crawler verify stands for: the scheme's was Googlebot.
  const rules = robotsRules(robots, 'Googlebot');
  // The sitemaps' entries are states to crawl.
  const sitemap = await readSitemaps(
    origin,
    get,
    (loc, url, problems) => enqueue(loc, url, problems, `the sitemap ${url}`, 'sitemap'),
    robots,
  );

  async function crawl(url: string, limit: Deadline): Promise<StateReport> {
    const problems: Problem[] = [];
    const warnings: Warning[] = [];
    const pretty = new URL(url).hash.startsWith('#!');
    let fetched = url;
    let kind: StateReport['kind'] = pretty ? 'pretty' : 'plain';
    try {
      fetched = pretty ? toUglyUrl(url) : url;
    } catch (error) {
      addProblem(problems, { code: 'FETCH_FAILED', message: `cannot map ${url} to its ugly URL: ${(error as CodecError).message}` });
      return { url, fetched, kind, status: 0, bytes: 0, title: '', text: 'unchecked', problems, warnings };
    }
    // What robots.txt disallows a crawler does not fetch: the URL fetched is the one its rules are for.
    const refused = disallowedWarning(rules, fetched);
    if (refused) {
      addProblem(warnings, refused);
      return { url, fetched, kind, status: 0, bytes: 0, title: '', text: 'unchecked', problems, warnings, disallowed: true };
    }
    // A state's redirect is reported, and its target crawled, rather than followed blindly.
    const moved = (answer: Fetched): StateReport | null => {
      if (answer.status < 300 || answer.status > 399 || answer.location === null || !URL.canParse(answer.location, fetched)) return null;
      let target = new URL(answer.location, fetched).href;
      if (new URL(target).origin !== origin) {
        addProblem(problems, {
          code: 'OFF_ORIGIN_REDIRECT',
          message: `${fetched} redirects (${answer.status}) off the site, to ${target}`,
        });
      } else {
        if (isUglyUrl(target)) target = toPrettyUrl(target);
        enqueue(target, fetched, problems, `the redirect of ${fetched}`);
      }
      return {
        url,
        fetched,
        kind,
        status: answer.status,
        redirect: target,
        bytes: answer.bytes,
        title: '',
        text: 'unchecked',
        problems,
        warnings,
      };
    };
    // A page's body is let go of once read: the state's report is built across more fetches.
    const factsOf = (answer: Fetched): PageFacts => {
      const read = readPage(answer.body);
      answer.body = '';
      return read;
    };
    let page = await get(fetched, { follow: false, signal: limit.signal });
    const early = moved(page);
    if (early) return early;
    let facts = factsOf(page);
    for (const meta of facts.fragmentMetas) {
      if (meta.content !== '!' || !meta.inHead) {
        addProblem(problems, {
          code: 'MALFORMED_META',
          message: `<meta name="fragment" content=${JSON.stringify(meta.content)}> ${meta.inHead ? '' : 'outside <head> '}on ${fetched}; the only valid form is content="!" in <head>`,
        });
      }
    }
    // The meta tag sends the crawler to the ugly URL only from a page it indexes (a 200), and only
    // where robots.txt allows it; else the crawler indexes the page as it is.
    const meta = !pretty && page.status === 200 && facts.fragmentMetas.some((m) => m.content === '!' && m.inHead);
    const snapshotRefused = meta
      ? disallowedWarning(rules, toUglyUrl(url), `the snapshot of ${url}`, 'not fetched; crawlers index the page as it is')
      : null;
    if (snapshotRefused) addProblem(warnings, snapshotRefused);
    if (meta && !snapshotRefused) {
      kind = 'meta';
      fetched = toUglyUrl(url);
      page = await get(fetched, { follow: false, signal: limit.signal });
      const later = moved(page);
      if (later) return later;
      facts = factsOf(page);
      // A snapshot that says 404 is a state that does not exist: the crawler rightly indexes nothing.
      if (page.status !== 200 && page.status !== 404)
        addProblem(problems, {
          code: 'META_NOT_200',
          message: `${url} has the meta fragment tag but ${fetched} answers ${page.status}: nothing will be indexed for it`,
        });
    } else if (page.status >= 400 && page.status !== 404) {
      addProblem(problems, { code: 'BAD_STATUS', message: `${fetched} answers ${page.status}` });
    }
    // A page that says noindex is no search result: what only indexing needs is not checked of it.
    const noindex = page.status === 200 && (facts.noindex || saysNoindex(page.robots ?? ''));
    // A snapshot that is not found needs no canonical link: there is nothing to index.
    if (kind !== 'plain' && page.status === 200 && !noindex && /html/.test(page.type)) {
      if (facts.canonicals.length === 0)
        addProblem(problems, { code: 'MISSING_CANONICAL', message: `the snapshot of ${url} has no <link rel="canonical">` });
      for (const fault of canonicalProblems(facts.canonicals, facts.ogUrls, url)) addProblem(problems, fault);
    }
    // What a link preview shows for a page that is there: a snapshot, or an ordinary page.
    const preview = page.status === 200 && /html/.test(page.type) ? previewWarning(url, facts) : null;
    if (preview) addProblem(warnings, preview);
    for (const href of facts.alternates) enqueue(href, url, problems, `the hreflang alternate on ${url}`, 'alternate');
    for (const href of facts.links) enqueue(href, url, problems, `a link on ${url}`);
    let text: StateReport['text'] = 'unchecked';
    // Compared: what the crawler indexes or is told is missing (a snapshot, or a page that is a 200).
    if (browser && !noindex && page.status < 500 && (kind !== 'plain' || page.status === 200)) {
      const mismatch = await textProblem(browser, url, fetched, limit.remaining);
      text = mismatch ? 'mismatch' : 'match';
      if (mismatch) addProblem(problems, mismatch);
    }
    const unindexed = noindex ? { noindex: true as const } : {};
    return { url, fetched, kind, status: page.status, bytes: page.bytes, title: facts.title, text, problems, warnings, ...unindexed };
  }

  /**
   * The state's clean URL as a bot and as a browser see it. A #! state whose ugly URL moves to that
   * very clean URL (a site that left #!) is checked there, as the state its redirect crawls.
   */
  const asAgents = async (state: StateReport, limit: Deadline): Promise<StateReport> => {
    if (!agents || state.status === 0 || (state.redirect !== undefined && state.redirect === cleanUrlOf(state.url))) return state;
    const refused = disallowedWarning(rules, cleanUrlOf(state.url), `the clean URL of ${state.url}`, 'not fetched as a bot and a browser');
    if (refused) return { ...state, warnings: [...state.warnings, refused] };
    try {
      const { clean, problems } = await crawlAsAgents(state.url, state.status, (url, userAgent) =>
        get(url, { follow: false, userAgent, signal: limit.signal }),
      );
      return { ...state, clean, problems: [...state.problems, ...problems] };
    } catch (error) {
      return {
        ...state,
        problems: [...state.problems, fetchProblem(`${cleanUrlOf(state.url)}, fetched as a bot and a browser`, error as Error)],
      };
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const url = queue[next++] as string;
      const limit = deadline(timeoutMs);
      const report = await limit
        .within(crawl(url, limit).then((state) => asAgents(state, limit)))
        .finally(limit.end)
        .catch((error: Error) => failedState(url, fetchProblem(url, error)));
      states.push(report);
      onProgress?.(states.length, queue.length, url);
    }
  };
  // Workers stop when the queue runs dry; a link found late starts new ones until none are left.
  while (next < queue.length) await Promise.all(Array.from({ length: concurrency }, worker));

  const order = new Map(queue.map((url, i) => [url, i]));
  states.sort((a, b) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0));
  if (sitemap) for (const problem of listedProblems(states, listed)) addProblem(sitemap.problems, problem);
  const byUrl = new Map(states.map((state) => [state.url, state]));
  for (const [page, problem] of alternateProblems(states, alternated)) {
    const naming = byUrl.get(page);
    if (naming) addProblem(naming.problems, problem);
  }
  const problems = states.reduce((n, s) => n + problemCount(s.problems), 0) + problemCount(sitemap?.problems ?? []);
  const warnings = states.reduce((n, s) => n + problemCount(s.warnings), 0);
  const stopped = notCrawled() ? { maxStates, notCrawled: notCrawled() } : null;
  return { start, states, sitemap, problems, warnings, browser: Boolean(browser), stopped };
}
