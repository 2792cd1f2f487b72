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
  const candidates: string[] = [];
  // The sitemaps an index lists (sitemap() writes one past 50,000 URLs): read in turn, but an index
  // among them is not followed, as crawlers follow none. An index read gives its place back, so the
  // sitemaps of an index of 10 are all read; one listed in an index does not, so the reads stay bounded.
  const listedByIndex = new Set<string>();
  let room = MAX_SITEMAPS;
  /** Queues a sitemap `url` that `by` names (robots.txt, or an index), or says why it is not read. */
  const add = (url: string, by: string): void => {
    const href = URL.canParse(url, origin) ? new URL(url, origin).href : null;
    if (href === null || new URL(href).origin !== origin)
      addProblem(sitemapProblems, { code: 'OFF_ORIGIN', message: `${by} names the sitemap ${url}, not on ${origin}: not read` });
    else if (candidates.includes(href)) return;
    else if (candidates.length >= room)
      addProblem(sitemapProblems, {
        code: 'BAD_SITEMAP',
        message: `${by} names more than ${MAX_SITEMAPS} sitemaps: ${url} and the rest are not read`,
      });
    else candidates.push(href);
  };
  const declared = robotsSitemaps(robots);
  for (const url of declared.length ? declared : [`${origin}/sitemap.xml`]) add(url, 'robots.txt');
  // The list grows as indexes are read: a for…of over an array reads what is pushed meanwhile.
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
    const { locs, error, index } = reader.close();
    sitemap ??= { url, entries: 0, problems: sitemapProblems };
    if (sitemap.url !== url) sitemap.url += ` ${url}`;
    if (error)
      addProblem(sitemap.problems, {
        code: 'BAD_SITEMAP',
        message: `the sitemap ${url} is not well-formed XML (${error}); ${locs.length} entries read before it`,
      });
    if (!index) {
      sitemap.entries += locs.length;
      for (const loc of locs) onEntry(loc, url, sitemap.problems);
    } else if (listedByIndex.has(url))
      addProblem(sitemap.problems, {
        code: 'BAD_SITEMAP',
        message: `the sitemap ${url} is a sitemap index listed in a sitemap index: crawlers read no index an index lists, and its ${locs.length} sitemaps were not read`,
      });
    else {
      room++;
      for (const loc of locs) {
        const before = candidates.length;
        add(loc, `the sitemap index ${url}`);
        if (candidates.length > before) listedByIndex.add(candidates[candidates.length - 1] as string);
      }
    }
  }
  if (!sitemap && sitemapProblems.length) sitemap = { url: '(none read)', entries: 0, problems: sitemapProblems };
  return sitemap;
}
