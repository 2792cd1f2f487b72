// The sitemaps a crawl starts from: those robots.txt announces (or /sitemap.xml), read only on the
// site's own origin and at most MAX_SITEMAPS of them. Each entry is handed to the crawl, which
// decides whether it is a state to visit. robots.txt is read once, here, for its rules too.

import { OffOrigin, TooLarge, type SiteFetch } from './fetch.js';
import { robotsSitemaps, sitemapReader } from './page.js';
import { addProblem, type Problem, type VerifyReport } from './problems.js';
import { ROBOTS_BYTES } from './robots.js';

// Sitemaps read per crawl, all on the site's origin.
const MAX_SITEMAPS = 10;

/**
 * The largest sitemap read, in bytes: the protocol's limit (sitemaps.org: 50 MB, 52,428,800 bytes,
 * uncompressed), past which crawlers refuse the file. It is read as it streams, never held whole.
 */
export const SITEMAP_BYTES = 50 * 2 ** 20;

/** What the crawl does with a sitemap's entry: `loc` as the sitemap at `sitemap` lists it, its problems told to `problems`. */
export type OnEntry = (loc: string, sitemap: string, problems: Problem[]) => void;

/**
 * The text of the site's robots.txt, its first ROBOTS_BYTES (Google's limit; the rest is cut), or
 * `''` when it does not answer 200: no rules, as crawlers read a missing one.
 */
export async function readRobotsTxt(origin: string, get: SiteFetch): Promise<string> {
  const robots = await get(`${origin}/robots.txt`, { limit: ROBOTS_BYTES, cut: true }).catch(() => null);
  return robots?.status === 200 ? robots.body : '';
}

/**
 * Reads the site's sitemaps, those `robots` (the text of its robots.txt) names, handing each entry
 * to `onEntry`; gives the report's `sitemap`: the URLs read, their entries and their problems, or
 * null when none was read and nothing was wrong.
 */
export async function readSitemaps(origin: string, get: SiteFetch, onEntry: OnEntry, robots: string): Promise<VerifyReport['sitemap']> {
  let sitemap: VerifyReport['sitemap'] = null;
  const sitemapProblems: Problem[] = [];
  const declared = robotsSitemaps(robots);
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
    const reader = sitemapReader();
    const answer = await get(url, { limit: SITEMAP_BYTES, onText: reader.write }).catch((error: Error) => {
      if (error instanceof OffOrigin) addProblem(sitemapProblems, { code: 'OFF_ORIGIN', message: error.message });
      if (error instanceof TooLarge)
        addProblem(sitemapProblems, {
          code: 'BAD_SITEMAP',
          message: `${error.message}, the protocol's limit for a sitemap (50 MiB uncompressed): crawlers refuse it, and it was not read`,
        });
      return null;
    });
    if (answer?.status !== 200) continue;
    const { locs, error } = reader.close();
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
