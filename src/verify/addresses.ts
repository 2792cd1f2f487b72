// A page's address as a page or a sitemap gives it to crawlers (a canonical link, a sitemap entry,
// an hreflang alternate) is the URL they index. Crawlers of 2026 drop a fragment, so
// `https://example.com/#!/books/1` is `https://example.com/` to them: such an address names another
// page. verify still crawls a `#!` address as the AJAX crawling scheme's crawler did; it only says so.

import { hasEscapedFragment } from '../codec.js';
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
 * the first of BAD_CANONICAL (no URL), UGLY_CANONICAL and FRAGMENT_URL, or null. One fault is one
 * problem: an ugly URL with a fragment is an ugly URL once the fragment is dropped.
 */
export function canonicalProblem(href: string, state: string, tag = 'canonical link'): Problem | null {
  if (!URL.canParse(href, state)) return { code: 'BAD_CANONICAL', message: `the ${tag} of ${state} is not a URL: ${JSON.stringify(href)}` };
  const target = new URL(href, state);
  if (hasEscapedFragment(target.href)) return { code: 'UGLY_CANONICAL', message: `the ${tag} of ${state} is the ugly URL ${href}` };
  return fragmentProblem(target, `the ${tag} of ${state} is`);
}
