import { describe, expect, it } from 'vitest';
import type { Fetched, SiteFetch } from '../../src/verify/fetch.js';
import type { Problem } from '../../src/verify/problems.js';
import { readRobotsTxt, readSitemaps } from '../../src/verify/sitemaps.js';

const ORIGIN = 'https://example.com';
const answer = (status: number, body = ''): Fetched => ({ status, body, bytes: body.length, type: 'text/xml', location: null, vary: null });
const urlset = (...locs: string[]) => `<urlset>${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;

/** A site of fixed answers; every URL asked is noted. */
function site(pages: Record<string, Fetched>): { get: SiteFetch; asked: string[] } {
  const asked: string[] = [];
  const get: SiteFetch = (url) => {
    asked.push(url);
    return Promise.resolve(pages[url] ?? answer(404));
  };
  return { get, asked };
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

  it('gives null when no sitemap answers and nothing was wrong', async () => {
    expect(await readSitemaps(ORIGIN, site({}).get, () => {}, '')).toBeNull();
  });
});
