// The sitemaps a crawl starts from: those robots.txt announces (or /sitemap.xml), read only on the
// site's own origin and at most MAX_SITEMAPS of them. Each entry is handed to the crawl, which
// decides whether it is a state to visit.

import { OffOrigin, type SiteFetch } from './fetch.js';
import { readSitemap, robotsSitemaps } from './page.js';
import { addProblem, type Problem, type VerifyReport } from './problems.js';

// Sitemaps read per crawl, all on the site's origin.
const MAX_SITEMAPS = 10;
// Google reads the first 500 KiB of a robots.txt; a longer one is cut there.
const ROBOTS_BYTES = 500 * 1024;

/** What the crawl does with a sitemap's entry: `loc` as the sitemap at `sitemap` lists it, its problems told to `problems`. */
export type OnEntry = (loc: string, sitemap: string, problems: Problem[]) => void;

/**
 * Reads the site's sitemaps, handing each entry to `onEntry`; gives the report's `sitemap`: the URLs
 * read, their entries and their problems, or null when none was read and nothing was wrong.
 */
export async function readSitemaps(origin: string, get: SiteFetch, onEntry: OnEntry): Promise<VerifyReport['sitemap']> {
  let sitemap: VerifyReport['sitemap'] = null;
  const sitemapProblems: Problem[] = [];
  const robots = await get(`${origin}/robots.txt`, ROBOTS_BYTES, true).catch(() => null);
  const declared = robots?.status === 200 ? robotsSitemaps(robots.body) : [];
  const candidates: string[] = [];
  for (const url of declared.length ? declared : [`${origin}/sitemap.xml`]) {
    const href = URL.canParse(url, origin) ? new URL(url, origin).href : null;
    if (href === null || new URL(href).origin !== origin)
      addProblem(sitemapProblems, { code: 'OFF_ORIGIN', message: `robots.txt names the sitemap ${url}, not on ${origin}: not read` });
    else if (candidates.length === MAX_SITEMAPS)
      addProblem(sitemapProblems, {
        code: 'BAD_SITEMAP',
        message: `robots.txt names more than ${MAX_SITEMAPS} sitemaps: ${url} and the rest are not read`,
      });
    else if (!candidates.includes(href)) candidates.push(href);
  }
  for (const url of candidates) {
    const answer = await get(url).catch((error: Error) => {
      if (error instanceof OffOrigin) addProblem(sitemapProblems, { code: 'OFF_ORIGIN', message: error.message });
      return null;
    });
    if (answer?.status !== 200) continue;
    const { locs, error } = readSitemap(answer.body);
    sitemap ??= { url, entries: 0, problems: sitemapProblems };
    if (sitemap.url !== url) sitemap.url += ` ${url}`;
    sitemap.entries += locs.length;
    if (error)
      addProblem(sitemap.problems, {
        code: 'BAD_SITEMAP',
        message: `the sitemap ${url} is not well-formed XML (${error}); ${locs.length} entries read before it`,
      });
    for (const loc of locs) onEntry(loc, url, sitemap.problems);
  }
  if (!sitemap && sitemapProblems.length) sitemap = { url: '(none read)', entries: 0, problems: sitemapProblems };
  return sitemap;
}
