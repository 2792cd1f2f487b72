import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { escapeXml, sitemap } from '../../../src/server/build/sitemap.js';
import { parseXml } from '../xml.js';

const locs = (xml: string) => parseXml(xml).children.map((url) => url.children.find((c) => c.name === 'loc')?.text);

describe('sitemap', () => {
  it.each([
    [
      'hashbang',
      'shell',
      '/',
      [
        'https://example.com/',
        'https://example.com/#!/books/42',
        "https://example.com/#!/q/C++?a=1&b='x'",
        'https://example.com/#!key1=value1&key2=value2',
      ],
    ],
    [
      'history',
      'bots',
      '/',
      [
        'https://example.com/',
        'https://example.com/books/42',
        "https://example.com/q/C++?a=1&b='x'",
        'https://example.com/?key1=value1&key2=value2',
      ],
    ],
    [
      'hashbang',
      'shell',
      '/app/',
      [
        'https://example.com/app/',
        'https://example.com/app/#!/books/42',
        "https://example.com/app/#!/q/C++?a=1&b='x'",
        'https://example.com/app/#!key1=value1&key2=value2',
      ],
    ],
    // A hashbang app whose server answers clean URLs lists them: crawlers drop the fragment.
    [
      'hashbang',
      undefined,
      '/app/',
      [
        'https://example.com/app/',
        'https://example.com/app/books/42',
        "https://example.com/app/q/C++?a=1&b='x'",
        'https://example.com/app/?key1=value1&key2=value2',
      ],
    ],
    [
      'hashbang',
      'all',
      '/',
      [
        'https://example.com/',
        'https://example.com/books/42',
        "https://example.com/q/C++?a=1&b='x'",
        'https://example.com/?key1=value1&key2=value2',
      ],
    ],
  ] as const)('lists %s URLs with cleanUrls %s (base %s), XML-escaped', async (mode, cleanUrls, base, urls) => {
    const [file, ...rest] = await sitemap(['/', '/books/42', "/q/C++?a=1&b='x'", '/?key1=value1&key2=value2'], {
      origin: 'https://example.com',
      base,
      mode,
      ...(cleanUrls && { cleanUrls }),
    });
    expect(rest).toEqual([]);
    expect(file?.name).toBe('sitemap.xml');
    const root = parseXml(file?.xml ?? '');
    expect(root.name).toBe('urlset');
    expect(root.attributes['xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(locs(file?.xml ?? '')).toEqual(urls);
    expect(file?.xml).toContain('&amp;b=&apos;x&apos;');
  });

  it('escapes hostile states and lists each URL once, anchors dropped', async () => {
    const [file] = await sitemap(['/q/"><img onerror=x>', '/q/</loc>&', '/books/1#a', '/books/1#b', '/books/1'], {
      origin: 'https://example.com',
      mode: 'history',
    });
    expect(locs(file?.xml ?? '')).toEqual([
      'https://example.com/q/%22%3E%3Cimg%20onerror=x%3E',
      'https://example.com/q/%3C/loc%3E&',
      'https://example.com/books/1',
    ]);
    expect(file?.xml).not.toContain('<img');
  });

  // Tracking tags never make a state: a sitemap URL with one is a duplicate whose canonical link
  // names another URL (Search Console: "Duplicate, submitted URL not selected as canonical").
  it.each([
    ['history', 'bots'],
    ['hashbang', 'shell'],
  ] as const)('lists no tracking tag, each state once (%s, %s)', async (mode, cleanUrls) => {
    const [file] = await sitemap(
      ['/books/1?utm_source=news&fbclid=x', '/books/1', '/search?q=a&gclid=1&utm_medium=email', '/?_ga=1', '/?utm_campaign=x#top'],
      { origin: 'https://example.com', mode, cleanUrls },
    );
    const page = mode === 'hashbang' ? 'https://example.com/#!' : 'https://example.com';
    expect(locs(file?.xml ?? '')).toEqual([`${page}/books/1`, `${page}/search?q=a`, 'https://example.com/']);
  });

  it('lists the good records of a route table whose entries() holds a bad one (slug "..") instead of throwing', async () => {
    const routes = createRoutes([{ path: '/books/:slug', entries: () => [{ slug: 'a' }, { slug: '..' }, { slug: 'b' }] }]);
    const [file] = await sitemap(routes.locations(), { origin: 'https://example.com' });
    expect(locs(file?.xml ?? '')).toEqual(['https://example.com/books/a', 'https://example.com/books/b']);
  });

  it('adds lastmod to every URL', async () => {
    const [file] = await sitemap(['/a'], { origin: 'https://example.com', lastmod: new Date(Date.UTC(2024, 4, 6)) });
    expect(parseXml(file?.xml ?? '').children[0]?.children.map((c) => [c.name, c.text])).toEqual([
      ['loc', 'https://example.com/a'],
      ['lastmod', '2024-05-06T00:00:00.000Z'],
    ]);
  });

  it('splits past 50,000 URLs into numbered files under a sitemap index', async () => {
    async function* many() {
      for (let i = 0; i < 50_001; i++) yield `/items/${i}`;
    }
    const files = await sitemap(many(), { origin: 'https://example.com', baseUrl: 'https://cdn.example.com/maps/' });
    expect(files.map((f) => f.name)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml']);
    const index = parseXml(files[0]?.xml ?? '');
    expect(index.name).toBe('sitemapindex');
    expect(index.children.map((s) => s.children[0]?.text)).toEqual([
      'https://cdn.example.com/maps/sitemap-1.xml',
      'https://cdn.example.com/maps/sitemap-2.xml',
    ]);
    expect(parseXml(files[1]?.xml ?? '').children).toHaveLength(50_000);
    expect(locs(files[2]?.xml ?? '')).toEqual(['https://example.com/items/50000']);
  });

  it('splits at a smaller maxUrls, and writes an empty urlset for no locations', async () => {
    expect((await sitemap(['/a', '/b', '/c'], { origin: 'https://example.com', maxUrls: 2 })).map((f) => f.name)).toEqual([
      'sitemap.xml',
      'sitemap-1.xml',
      'sitemap-2.xml',
    ]);
    const [empty] = await sitemap([], { origin: 'https://example.com' });
    expect(parseXml(empty?.xml ?? '').children).toEqual([]);
  });

  it.each([
    [{ origin: 'example.com' }, /origin must be an http\(s\) origin/],
    [{ origin: 'https://example.com', maxUrls: 50_001 }, /maxUrls must be an integer from 1 to 50000/],
    [{ origin: 'https://example.com', mode: 'auto' as 'history' }, /mode must be "history" or "hashbang"/],
    // A JavaScript caller's date string, and a Date that names no time, are option errors, not a TypeError or RangeError.
    [{ origin: 'https://example.com', lastmod: '2024-05-06' as unknown as Date }, /^lastmod must be a valid Date, got "2024-05-06"$/],
    [{ origin: 'https://example.com', lastmod: new Date('soon') }, /^lastmod must be a valid Date, got Invalid Date$/],
  ])('refuses %o', async (options, message) => {
    await expect(sitemap(['/'], options)).rejects.toThrow(message);
    await expect(sitemap(['/'], options)).rejects.toMatchObject({ code: 'BAD_OPTION' });
  });

  it('escapes the five XML characters', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });
});
