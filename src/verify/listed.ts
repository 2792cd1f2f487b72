// A sitemap lists the URLs a crawler should index, and an hreflang alternate names the page of
// another language to index in this one's place: each one a state that answers 200 and does not
// say noindex. A listed URL that redirects (a static host's `/books/1` → `/books/1/`, a moved item)
// or is not found sends the crawler elsewhere or nowhere, which the pages alone would not show, and
// Google drops an alternate that is not an indexable page. A state found by links and absent from
// the sitemap is no problem: a `noindex` route's states are left out of sitemaps on purpose.

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

/**
 * The problems of the hreflang alternates against the states crawled: `alternated` maps each URL an
 * alternate named (as the crawl keys it) to the page that named it first, whose problem each is.
 */
export function alternateProblems(states: readonly StateReport[], alternated: ReadonlyMap<string, string>): [page: string, Problem][] {
  const problems: [string, Problem][] = [];
  for (const state of states) {
    const page = alternated.get(state.url);
    if (page === undefined || state.status === 0 || (state.status === 200 && !state.noindex)) continue;
    const where = `the hreflang alternate on ${page} names ${state.url}, which`;
    problems.push([
      page,
      state.status === 200
        ? { code: 'ALTERNATE_NOINDEX', message: `${where} says noindex: Google drops an alternate that is no page to index` }
        : {
            code: 'ALTERNATE_NOT_200',
            message: `${where} ${state.redirect === undefined ? `answers ${state.status}` : `redirects (${state.status}) to ${state.redirect}`}: name the URL of the state itself, which answers 200`,
          },
    ]);
  }
  return problems;
}
