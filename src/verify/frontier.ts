// The frontier of a `verify` crawl: which URLs a page, a sitemap or a redirect names are crawled
// (each once, up to maxStates), and why the others are not. It also keeps where each URL a sitemap
// lists or an hreflang alternate names was named first, for the checks made once every state is in.

import { hasEscapedFragment } from '../url/codec.js';
import { fragmentProblem } from './addresses.js';
import { addProblem, type Problem } from './problems.js';

// The longest URL crawled: nginx and Apache refuse a longer request line (414) by default.
const URL_MAX = 8192;

/** Where a URL was named: a page's link (or a redirect), an hreflang alternate, a sitemap's entry. */
export type NamedBy = 'link' | 'alternate' | 'sitemap';

/**
 * The crawl's queue of URLs on `origin`, in the order met, and `enqueue`, which adds to it.
 * `listed`: each URL queued that a sitemap lists, and the sitemap that listed it first;
 * `alternated`: each one an hreflang alternate names, and the page that named it first.
 */
export function createFrontier(origin: string, maxStates: number) {
  const known = new Set<string>();
  const queue: string[] = [];
  const listed = new Map<string, string>();
  const alternated = new Map<string, string>();
  // Names of URLs left uncrawled at maxStates (a URL counted each time it is named: counting each
  // once would keep every one of them), so the report can say the crawl stopped short.
  let notCrawled = 0;

  /**
   * Queues the state a link names, once and up to maxStates, or tells `problems` why it is not
   * crawled (off the origin, too long, an ugly URL). A #! URL is crawled with its fragment, any other
   * without. `where` says where the link stands, for the messages; `from`, what gives it: a sitemap
   * or an hreflang alternate gives a page's address, where a fragment is a fault of its own.
   */
  const enqueue = (href: string, base: string, problems: Problem[], where: string, from: NamedBy = 'link'): void => {
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
    // Google reads an hreflang alternate only fully qualified (scheme and host), and ignores the rest.
    else if (from === 'alternate' && !/^[a-z][a-z\d+.-]*:/i.test(href.trim()))
      addProblem(problems, {
        code: 'RELATIVE_ALTERNATE',
        message: `${where} is ${JSON.stringify(href)}, not a full URL: Google ignores an hreflang alternate without its scheme and host; give it ${url.href}`,
      });
    if (!url.hash.startsWith('#!')) url.hash = '';
    // Only a state crawled is checked against its listing: what is kept is bounded by maxStates.
    if (!known.has(url.href) && known.size >= maxStates) {
      notCrawled++;
      return;
    }
    if (fromSitemap && !listed.has(url.href)) listed.set(url.href, base);
    if (from === 'alternate' && !alternated.has(url.href)) alternated.set(url.href, base);
    if (known.has(url.href)) return;
    known.add(url.href);
    queue.push(url.href);
  };

  return { queue, listed, alternated, enqueue, notCrawled: () => notCrawled };
}
