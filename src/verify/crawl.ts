// `verify`: crawls a site as the AJAX crawling scheme's crawler does and reports what it would miss.
// The crawler's side of docs/scheme.md:
// #! links are fetched as their ugly URLs, pages with the meta tag are fetched again with an empty
// escaped fragment, sitemaps are read, and links in _escaped_fragment_ form are never followed.

import { CodecError, hasEscapedFragment, isUglyUrl, toPrettyUrl, toUglyUrl } from '../codec.js';
import { canonicalProblems, fragmentProblem } from './addresses.js';
import { cleanUrlOf, crawlAsAgents } from './agents.js';
import { OffOrigin, siteFetch, type Fetched } from './fetch.js';
import { listedProblems } from './listed.js';
import { readPage } from './page.js';
import { previewWarning } from './preview.js';
import { addProblem, problemCount, type Problem, type StateReport, type TextReader, type VerifyReport, type Warning } from './problems.js';
import { readSitemaps } from './sitemaps.js';

export type { Problem, ProblemCode, StateReport, TextReader, VerifyReport, Warning, WarningCode } from './problems.js';

/** Options of `verify`. */
export interface VerifyOptions {
  /** Compares each state's visible text in a browser with its snapshot's. Default none. */
  browser?: TextReader;
  /** Stops after this many states. Default 500. */
  maxStates?: number;
  /** Fetches at once. Default 4. */
  concurrency?: number;
  /** Per-request timeout in milliseconds. Default 10000. */
  timeoutMs?: number;
  /** Largest body read from one URL, in bytes; a larger one is a FETCH_FAILED problem. Default 10 MiB. */
  maxBytes?: number;
  /** Also fetches each state's clean URL as a bot and as a browser (EMPTY_FOR_BOTS, STATUS_DIFFERS, MISSING_VARY). Default `true`. */
  agents?: boolean;
  /** Called as each state is done: done count, known count, its URL. Default none. */
  onProgress?: (done: number, known: number, url: string) => void;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
// The longest URL crawled: nginx and Apache refuse a longer request line (414) by default.
const URL_MAX = 8192;

/** Where two texts first differ, with a little of each side for the report. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const cut = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 40));
  return `at character ${i}: browser ${cut(a)}, snapshot ${cut(b)}`;
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
  const { browser, maxStates = 500, concurrency = 4, timeoutMs = 10_000, maxBytes = 10 * 2 ** 20, agents = true, onProgress } = options;
  const origin = new URL(start).origin;
  const known = new Set<string>();
  const queue: string[] = [];
  const states: StateReport[] = [];
  // Each URL crawled that a sitemap lists, and the sitemap that listed it first.
  const listed = new Map<string, string>();

  const get = siteFetch(origin, timeoutMs, maxBytes);

  /**
   * Queues the state a link names, once and up to maxStates, or tells `problems` why it is not
   * crawled (off the origin, too long, an ugly URL). A #! URL is crawled with its fragment, any other
   * without. `where` says where the link stands, for the messages; `from`, what gives it: a sitemap
   * or an hreflang alternate gives a page's address, where a fragment is a fault of its own.
   */
  const enqueue = (
    href: string,
    base: string,
    problems: Problem[],
    where: string,
    from: 'link' | 'alternate' | 'sitemap' = 'link',
  ): void => {
    const fromSitemap = from === 'sitemap';
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return;
    }
    if (url.origin !== origin || !/^https?:$/.test(url.protocol)) {
      // A sitemap may list only URLs of its own origin (sitemaps.org); crawlers skip the others.
      if (fromSitemap && /^https?:$/.test(url.protocol))
        addProblem(problems, {
          code: 'OFF_ORIGIN',
          message: `${where} lists ${url.href}, not on ${origin}: crawlers skip a sitemap's URLs on another origin (write it with this site's origin); not crawled`,
        });
      return;
    }
    // Kept in the queue and in every report of the state it names: a page chooses its length.
    if (url.href.length > URL_MAX) {
      addProblem(problems, {
        code: 'LONG_URL',
        message: `${where} points at a URL of ${url.href.length} characters (${url.href.slice(0, 100)}…), which servers refuse (414): not followed`,
      });
      return;
    }
    if (hasEscapedFragment(url.href)) {
      addProblem(problems, {
        code: fromSitemap ? 'UGLY_SITEMAP' : 'UGLY_LINK',
        message: `${where} points at the ugly URL ${url.href}; crawlers do not follow those`,
      });
      return;
    }
    const fragment = from === 'link' ? null : fragmentProblem(url, `${where} ${fromSitemap ? 'lists' : 'is'}`);
    if (fragment) addProblem(problems, fragment);
    if (!url.hash.startsWith('#!')) url.hash = '';
    // Only a state crawled is checked against its listing: what is kept is bounded by maxStates.
    if (!known.has(url.href) && known.size >= maxStates) return;
    if (fromSitemap && !listed.has(url.href)) listed.set(url.href, base);
    if (known.has(url.href)) return;
    known.add(url.href);
    queue.push(url.href);
  };

  const first = startUrl(start);
  enqueue(first, first, [], 'start');
  // The sitemaps' entries are states to crawl.
  const sitemap = await readSitemaps(origin, get, (loc, url, problems) => enqueue(loc, url, problems, `the sitemap ${url}`, 'sitemap'));

  async function crawl(url: string): Promise<StateReport> {
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
    let page = await get(fetched, maxBytes, false, false);
    const early = moved(page);
    if (early) return early;
    let facts = readPage(page.body);
    for (const meta of facts.fragmentMetas) {
      if (meta.content !== '!' || !meta.inHead) {
        addProblem(problems, {
          code: 'MALFORMED_META',
          message: `<meta name="fragment" content=${JSON.stringify(meta.content)}> ${meta.inHead ? '' : 'outside <head> '}on ${fetched}; the only valid form is content="!" in <head>`,
        });
      }
    }
    // The meta tag sends the crawler to the ugly URL only from a page it indexes (a 200).
    if (!pretty && page.status === 200 && facts.fragmentMetas.some((m) => m.content === '!' && m.inHead)) {
      kind = 'meta';
      fetched = toUglyUrl(url);
      page = await get(fetched, maxBytes, false, false);
      const later = moved(page);
      if (later) return later;
      facts = readPage(page.body);
      // A snapshot that says 404 is a state that does not exist: the crawler rightly indexes nothing.
      if (page.status !== 200 && page.status !== 404)
        addProblem(problems, {
          code: 'META_NOT_200',
          message: `${url} has the meta fragment tag but ${fetched} answers ${page.status}: nothing will be indexed for it`,
        });
    } else if (page.status >= 400 && page.status !== 404) {
      addProblem(problems, { code: 'BAD_STATUS', message: `${fetched} answers ${page.status}` });
    }
    // A snapshot that is not found needs no canonical link: there is nothing to index.
    if (kind !== 'plain' && page.status === 200 && /html/.test(page.type)) {
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
    if (browser && page.status < 500 && (kind !== 'plain' || page.status === 200)) {
      const [live, snapshot] = await Promise.all([
        browser.visibleText(url, { javaScript: true }),
        browser.visibleText(fetched, { javaScript: false }),
      ]);
      text = squash(live) === squash(snapshot) ? 'match' : 'mismatch';
      if (text === 'mismatch')
        addProblem(problems, {
          code: 'TEXT_MISMATCH',
          message: `what a browser shows for ${url} differs from its snapshot ${firstDifference(squash(live), squash(snapshot))}`,
        });
    }
    return { url, fetched, kind, status: page.status, bytes: page.bytes, title: facts.title, text, problems, warnings };
  }

  /**
   * The state's clean URL as a bot and as a browser see it. A #! state whose ugly URL moves to that
   * very clean URL (a site that left #!) is checked there, as the state its redirect crawls.
   */
  const asAgents = async (state: StateReport): Promise<StateReport> => {
    if (!agents || state.status === 0 || (state.redirect !== undefined && state.redirect === cleanUrlOf(state.url))) return state;
    try {
      const { clean, problems } = await crawlAsAgents(state.url, state.status, (url, agent) => get(url, maxBytes, false, false, agent));
      return { ...state, clean, problems: [...state.problems, ...problems] };
    } catch (error) {
      return {
        ...state,
        problems: [
          ...state.problems,
          { code: 'FETCH_FAILED', message: `${cleanUrlOf(state.url)}, fetched as a bot and a browser: ${(error as Error).message}` },
        ],
      };
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const url = queue[next++] as string;
      const report = await crawl(url)
        .then(asAgents)
        .catch(
          (error: Error): StateReport => ({
            url,
            fetched: url,
            kind: 'plain',
            status: 0,
            bytes: 0,
            title: '',
            text: 'unchecked',
            warnings: [],
            problems: [
              {
                code: error instanceof OffOrigin ? 'OFF_ORIGIN' : 'FETCH_FAILED',
                message: error instanceof OffOrigin ? error.message : `${url}: ${error.message}`,
              },
            ],
          }),
        );
      states.push(report);
      onProgress?.(states.length, queue.length, url);
    }
  };
  // Workers stop when the queue runs dry; a link found late starts new ones until none are left.
  while (next < queue.length) await Promise.all(Array.from({ length: concurrency }, worker));

  const order = new Map(queue.map((url, i) => [url, i]));
  states.sort((a, b) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0));
  if (sitemap) for (const problem of listedProblems(states, listed)) addProblem(sitemap.problems, problem);
  const problems = states.reduce((n, s) => n + problemCount(s.problems), 0) + problemCount(sitemap?.problems ?? []);
  const warnings = states.reduce((n, s) => n + problemCount(s.warnings), 0);
  return { start, states, sitemap, problems, warnings, browser: Boolean(browser) };
}
