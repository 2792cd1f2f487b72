// A sitemap lists the URLs a crawler should index: each one a state that answers 200 and does not
// say noindex. A listed URL that redirects (a static host's `/books/1` → `/books/1/`, a moved item)
// or is not found sends the crawler elsewhere or nowhere, which the pages alone would not show. A
// state found by links and absent from the sitemap is no problem: a `noindex` route's states are
// left out of sitemaps on purpose.

import type { Problem, StateReport } from './problems.js';

/**
 * The problems of the sitemap's entries against the states crawled: `listed` maps each URL a
 * sitemap listed (as the crawl keys it) to the sitemap that listed it. A state that could not be
 * fetched has its own problem already.
 */
export function listedProblems(states: readonly StateReport[], listed: ReadonlyMap<string, string>): Problem[] {
  const problems: Problem[] = [];
  for (const state of states) {
    const sitemap = listed.get(state.url);
    if (sitemap === undefined || state.status === 0) continue;
    if (state.status === 200) {
      // A sitemap lists what a crawler should index; a page that says noindex is not that.
      if (state.noindex)
        problems.push({
          code: 'SITEMAP_NOINDEX',
          message: `the sitemap ${sitemap} lists ${state.url}, which says noindex: leave it out of the sitemap, or let it be indexed`,
        });
      continue;
    }
    const answer = state.redirect === undefined ? `answers ${state.status}` : `redirects (${state.status}) to ${state.redirect}`;
    problems.push({
      code: 'SITEMAP_NOT_200',
      message: `the sitemap ${sitemap} lists ${state.url}, which ${answer}: list the URL of the state itself, which answers 200`,
    });
  }
  return problems;
}
