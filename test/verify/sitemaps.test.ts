import { describe, expect, it } from 'vitest';
import { TooLarge, type Fetched, type SiteFetch } from '../../src/verify/fetch.js';
import type { Problem } from '../../src/verify/problems.js';
import { ROBOTS_BYTES } from '../../src/verify/robots.js';
import { readRobotsTxt, readSitemaps, SITEMAP_BYTES } from '../../src/verify/sitemaps.js';

const ORIGIN = 'https://example.com';
const answer = (status: number, body = ''): Fetched => ({ status, body, bytes: body.length, type: 'text/xml', location: null, vary: null });
const urlset = (...locs: string[]) => `<urlset>${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;

/**
 * A site of fixed answers, each body handed to `onText` in parts of 7 characters when asked so;
 * an answer longer than the limit asked is TooLarge (or, with `cut`, cut). Every URL and limit asked is noted.
 */
function site(pages: Record<string, Fetched>): { get: SiteFetch; asked: string[]; limits: number[] } {
  const asked: string[] = [];
  const limits: number[] = [];
  const get: SiteFetch = async (url, { limit = Infinity, cut = false, onText } = {}) => {
    asked.push(url);
    limits.push(limit);
    const page = pages[url] ?? answer(404);
    if (page.bytes > limit && !cut) throw new TooLarge(url, limit);
    if (!onText) return page;
    for (let i = 0; i < page.body.length; i += 7) onText(page.body.slice(i, i + 7));
    return { ...page, body: '' };
  };
  return { get, asked, limits };
}

describe('readSitemaps', () => {
  it("reads /sitemap.xml when robots.txt names none, and hands each entry to the crawl with the sitemap's URL", async () => {
    const { get, asked } = site({ [`${ORIGIN}/sitemap.xml`]: answer(200, urlset(`${ORIGIN}/a`, `${ORIGIN}/b`)) });
    const entries: [string, string][] = [];
    const report = await readSitemaps(ORIGIN, get, (loc, sitemap) => entries.push([loc, sitemap]), await readRobotsTxt(ORIGIN, get));
    expect(asked).toEqual([`${ORIGIN}/robots.txt`, `${ORIGIN}/sitemap.xml`]);
    expect(entries).toEqual([
      [`${ORIGIN}/a`, `${ORIGIN}/sitemap.xml`],
      [`${ORIGIN}/b`, `${ORIGIN}/sitemap.xml`],
    ]);
    expect(report).toEqual({ url: `${ORIGIN}/sitemap.xml`, entries: 2, problems: [] });
  });

  it("reads those robots.txt names on the site's origin only, each once, and says what it left and what is malformed", async () => {
    const robots = ['https://other.example/s.xml', '/one.xml', '/one.xml', '/two.xml'].map((url) => `Sitemap: ${url}`).join('\n');
    const { get, asked } = site({
      [`${ORIGIN}/robots.txt`]: answer(200, robots),
      [`${ORIGIN}/one.xml`]: answer(200, urlset(`${ORIGIN}/a`)),
      [`${ORIGIN}/two.xml`]: answer(200, `<urlset><url><loc>${ORIGIN}/b</loc></url><url>`),
    });
    const seen: Problem[][] = [];
    const report = await readSitemaps(ORIGIN, get, (_loc, _sitemap, problems) => seen.push(problems), await readRobotsTxt(ORIGIN, get));
    expect(asked).toEqual([`${ORIGIN}/robots.txt`, `${ORIGIN}/one.xml`, `${ORIGIN}/two.xml`]);
    expect(report).toMatchObject({ url: `${ORIGIN}/one.xml ${ORIGIN}/two.xml`, entries: 2 });
    expect(report?.problems.map((p) => p.code)).toEqual(['OFF_ORIGIN', 'BAD_SITEMAP']);
    // An entry's problems are the sitemaps' own.
    expect(seen.every((problems) => problems === report?.problems)).toBe(true);
  });

  it("reads robots.txt up to Google's limit and a sitemap up to the protocol's, and refuses a sitemap past it as crawlers do", async () => {
    const huge: Fetched = { ...answer(200, urlset(`${ORIGIN}/a`)), bytes: SITEMAP_BYTES + 1 };
    const { get, limits } = site({
      [`${ORIGIN}/robots.txt`]: answer(200, 'Sitemap: /huge.xml\nSitemap: /fine.xml'),
      [`${ORIGIN}/huge.xml`]: huge,
      [`${ORIGIN}/fine.xml`]: answer(200, urlset(`${ORIGIN}/b`)),
    });
    const entries: string[] = [];
    const report = await readSitemaps(ORIGIN, get, (loc) => entries.push(loc), await readRobotsTxt(ORIGIN, get));
    expect(limits).toEqual([ROBOTS_BYTES, SITEMAP_BYTES, SITEMAP_BYTES]);
    expect(entries).toEqual([`${ORIGIN}/b`]);
    expect(report?.problems).toEqual([
      {
        code: 'BAD_SITEMAP',
        message: `${ORIGIN}/huge.xml sends more than 52428800 bytes, the protocol's limit for a sitemap (50 MiB uncompressed): crawlers refuse it, and it was not read`,
      },
    ]);
  });

  it("reads the sitemaps an index lists, as crawlers do, handing on their pages and never the index's entries", async () => {
    // What sitemap() writes past 50,000 URLs: an index at /sitemap.xml over numbered parts.
    const index = (...locs: string[]) =>
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
    const { get, asked } = site({
      [`${ORIGIN}/sitemap.xml`]: answer(200, index(`${ORIGIN}/sitemap-1.xml`, `${ORIGIN}/sitemap-2.xml`, `https://other.example/s.xml`)),
      [`${ORIGIN}/sitemap-1.xml`]: answer(200, urlset(`${ORIGIN}/a`, `${ORIGIN}/b`)),
      [`${ORIGIN}/sitemap-2.xml`]: answer(200, urlset(`${ORIGIN}/c`)),
    });
    const entries: [string, string][] = [];
    const report = await readSitemaps(ORIGIN, get, (loc, sitemap) => entries.push([loc, sitemap]), '');
    expect(asked).toEqual([`${ORIGIN}/sitemap.xml`, `${ORIGIN}/sitemap-1.xml`, `${ORIGIN}/sitemap-2.xml`]);
    expect(entries).toEqual([
      [`${ORIGIN}/a`, `${ORIGIN}/sitemap-1.xml`],
      [`${ORIGIN}/b`, `${ORIGIN}/sitemap-1.xml`],
      [`${ORIGIN}/c`, `${ORIGIN}/sitemap-2.xml`],
    ]);
    expect(report).toMatchObject({ url: `${ORIGIN}/sitemap.xml ${ORIGIN}/sitemap-1.xml ${ORIGIN}/sitemap-2.xml`, entries: 3 });
    expect(report?.problems.map((p) => p.code)).toEqual(['OFF_ORIGIN']);
  });

  it('reads at most 10 sitemaps besides the index that lists them, and no index an index lists', async () => {
    const index = (...locs: string[]) =>
      `<sitemapindex>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
    const parts = Array.from({ length: 12 }, (_, i) => `${ORIGIN}/part-${i}.xml`);
    const pages: Record<string, Fetched> = {
      [`${ORIGIN}/sitemap.xml`]: answer(200, index(`${ORIGIN}/nested.xml`, ...parts)),
      [`${ORIGIN}/nested.xml`]: answer(200, index(`${ORIGIN}/deep.xml`)),
      [`${ORIGIN}/deep.xml`]: answer(200, urlset(`${ORIGIN}/deep`)),
    };
    for (const [i, part] of parts.entries()) pages[part] = answer(200, urlset(`${ORIGIN}/p${i}`));
    const { get, asked } = site(pages);
    const entries: string[] = [];
    const report = await readSitemaps(ORIGIN, get, (loc) => entries.push(loc), '');
    expect(asked).toEqual([`${ORIGIN}/sitemap.xml`, `${ORIGIN}/nested.xml`, ...parts.slice(0, 9)]);
    expect(entries).toEqual(Array.from({ length: 9 }, (_, i) => `${ORIGIN}/p${i}`));
    // One for each part left (part-9, part-10, part-11), and the nested index.
    expect(report?.problems.map((p) => p.code)).toEqual(['BAD_SITEMAP', 'BAD_SITEMAP', 'BAD_SITEMAP', 'BAD_SITEMAP']);
    expect(report?.problems.at(-1)?.message).toContain(`${ORIGIN}/nested.xml is a sitemap index listed in a sitemap index`);
  });

  it('gives null when no sitemap answers and nothing was wrong', async () => {
    expect(await readSitemaps(ORIGIN, site({}).get, () => {}, '')).toBeNull();
  });
});
