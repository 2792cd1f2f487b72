// A page's address as a page or a sitemap gives it to crawlers (a canonical link or og:url, a
// sitemap entry, an hreflang alternate) is the URL they index. Crawlers of 2026 drop a fragment, so
// `https://example.com/#!/books/1` is `https://example.com/` to them: such an address names another
// page. verify still crawls a `#!` address as the AJAX crawling scheme's crawler did; it only says so.
// A canonical URL that carries a tracking tag (`utm_source`, `fbclid`) is indexed with it, and every
// visit from search is counted as that campaign's.

import { hasEscapedFragment } from '../url/codec.js';
import { dropTracking, isTrackingKey } from '../url/query.js';
import { cleanUrlOf } from './agents.js';
import type { Problem } from './problems.js';

/**
 * FRAGMENT_URL for an address with a fragment, or null. `names` says where it stands, ending in
 * its verb (`the canonical link of https://e.com/#!/a is`).
 */
export function fragmentProblem(url: URL, names: string): Problem | null {
  if (!url.hash) return null;
  const page = url.href.slice(0, url.href.indexOf('#'));
  const clean = cleanUrlOf(url.href);
  return {
    code: 'FRAGMENT_URL',
    message:
      url.hash.startsWith('#!') && clean !== page
        ? `${names} the #! URL ${url.href}: crawlers drop the fragment and read ${page}, another page; give them the state's clean URL, ${clean}`
        : `${names} ${url.href}: crawlers drop the fragment and read ${page}; give them that URL`,
  };
}

/**
 * What is wrong with `href`, a canonical URL the page of the state at `state` gives in its `tag`:
 * the first of BAD_CANONICAL (no URL), UGLY_CANONICAL, FRAGMENT_URL and TRACKING_CANONICAL, or
 * null. One fault is one problem: an ugly URL with a fragment is an ugly URL once the fragment is
 * dropped, and one that names another page needs its state's URL, not fewer tags.
 */
export function canonicalProblem(href: string, state: string, tag = 'canonical link'): Problem | null {
  if (!URL.canParse(href, state)) return { code: 'BAD_CANONICAL', message: `the ${tag} of ${state} is not a URL: ${JSON.stringify(href)}` };
  const target = new URL(href, state);
  if (hasEscapedFragment(target.href)) return { code: 'UGLY_CANONICAL', message: `the ${tag} of ${state} is the ugly URL ${href}` };
  const fragment = fragmentProblem(target, `the ${tag} of ${state} is`);
  if (fragment) return fragment;
  const tags = [...new Set(target.searchParams.keys())].filter(isTrackingKey);
  if (tags.length === 0) return null;
  const named = target.href;
  target.search = dropTracking(target.search.slice(1));
  return {
    code: 'TRACKING_CANONICAL',
    message: `the ${tag} of ${state} is ${named}, with the tracking tag${tags.length > 1 ? 's' : ''} ${tags.join(', ')}: crawlers index the page with ${tags.length > 1 ? 'them' : 'it'} and every visit from search counts as that campaign's; give them ${target.href}`,
  };
}

/**
 * The problems of the canonical URLs the page of the state at `state` gives: each
 * `<link rel="canonical">`, then each og:url that names another URL than those (one naming the
 * same URL has the same fault, reported once).
 */
export function* canonicalProblems(canonicals: readonly string[], ogUrls: readonly string[], state: string): Generator<Problem> {
  for (const href of canonicals) {
    const fault = canonicalProblem(href, state);
    if (fault) yield fault;
  }
  if (ogUrls.length === 0) return;
  const resolved = (href: string) => (URL.canParse(href, state) ? new URL(href, state).href : href);
  const named = new Set(canonicals.map(resolved));
  for (const href of ogUrls) {
    const url = resolved(href);
    if (named.has(url)) continue;
    named.add(url);
    const fault = canonicalProblem(href, state, 'og:url');
    if (fault) yield fault;
  }
}
