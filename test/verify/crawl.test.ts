import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/verify/crawl.js';
import { TEXT_MAX } from '../../src/verify/page.js';
import { LISTED_PER_CODE } from '../../src/verify/problems.js';
import { MAX_DEPTH } from '../../src/verify/tree.js';
import { formatReport } from '../../src/verify/report.js';
import { startSite } from './site.js';

// The fixture site has one of each fault the crawler must report (see site.ts).
let origin = '';
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startSite());
});
afterAll(() => close());

const codes = (report: VerifyReport, url: string) => report.states.find((s) => s.url === url)?.problems.map((p) => p.code);

describe('verify', () => {
  let report: VerifyReport;
  beforeAll(async () => {
    // The fixture is a scheme-only site: its faults of the scheme, without the bots' clean-URL checks (test/verify/agents.test.ts).
    report = await verify(`${origin}/`, { agents: false });
  });

  it('crawls the start page, its #! links, plain links and the sitemap, and nothing else', () => {
    expect(report.states.map((s) => s.url.slice(origin.length)).sort()).toEqual(
      [
        '/',
        '/#!/a',
        '/#!/b',
        '/#!/boom',
        '/#!/missing',
        '/#!/u',
        '/#!/v',
        '/#!/old',
        '/#!/away',
        '/gone.html',
        '/meta404.html',
        '/meta500.html',
        '/plain.html',
      ].sort(),
    );
    // Every URL met was crawled: nothing to say about stopping short.
    expect(report.stopped).toBeNull();
  });

  it.each([
    ['/', 'meta', 200, `/?_escaped_fragment_=`],
    ['/#!/a', 'pretty', 200, '/?_escaped_fragment_=/a'],
    ['/#!/missing', 'pretty', 404, '/?_escaped_fragment_=/missing'],
    ['/plain.html', 'plain', 200, '/plain.html'],
    ['/gone.html', 'plain', 404, '/gone.html'],
    ['/meta404.html', 'meta', 404, '/meta404.html?_escaped_fragment_='],
    ['/#!/old', 'pretty', 301, '/?_escaped_fragment_=/old'],
  ])('fetches %s as a %s state through its ugly URL (status %s)', (path, kind, status, fetched) => {
    expect(report.states.find((s) => s.url === origin + path)).toMatchObject({ kind, status, fetched: origin + fetched });
  });

  it.each([
    ['/', ['UGLY_LINK']],
    // Its canonical link is its #! URL, which crawlers read as the start page's.
    ['/#!/a', ['FRAGMENT_URL']],
    ['/#!/b', ['MISSING_CANONICAL']],
    ['/#!/u', ['UGLY_CANONICAL']],
    ['/#!/v', ['BAD_CANONICAL']],
    ['/#!/missing', []],
    ['/#!/boom', ['BAD_STATUS']],
    ['/plain.html', ['MALFORMED_META']],
    ['/gone.html', []],
    ['/meta404.html', []],
    ['/meta500.html', ['META_NOT_200']],
    ['/#!/old', []],
    ['/#!/away', ['OFF_ORIGIN_REDIRECT']],
  ])('reports for %s: %j', (path, expected) => {
    expect(codes(report, origin + path)).toEqual(expected);
  });

  it('reports an ugly URL in the sitemap and does not follow it, and each #! URL it lists', () => {
    expect(report.sitemap).toMatchObject({ url: `${origin}/sitemap.xml`, entries: 4 });
    expect(report.sitemap?.problems.map((p) => p.code)).toEqual([
      'FRAGMENT_URL',
      'UGLY_SITEMAP',
      'FRAGMENT_URL',
      'FRAGMENT_URL',
      'SITEMAP_NOT_200',
      'SITEMAP_NOT_200',
    ]);
    expect(report.states.some((s) => s.url.includes('/c'))).toBe(false);
    expect(report.problems).toBe(15);
  });

  it('reports a sitemap entry that redirects or is not found, where it reported nothing', () => {
    // A sitemap lists what a crawler should index; the pages alone (a 301, a 404) are no fault.
    expect(report.sitemap?.problems.filter((p) => p.code === 'SITEMAP_NOT_200')).toEqual([
      {
        code: 'SITEMAP_NOT_200',
        message: `the sitemap ${origin}/sitemap.xml lists ${origin}/#!/old, which redirects (301) to ${origin}/#!/a: list the URL of the state itself, which answers 200`,
      },
      {
        code: 'SITEMAP_NOT_200',
        message: `the sitemap ${origin}/sitemap.xml lists ${origin}/#!/missing, which answers 404: list the URL of the state itself, which answers 200`,
      },
    ]);
    expect(codes(report, `${origin}/#!/old`)).toEqual([]);
  });

  it('reports a redirect with its target in the form a person sees, and crawls the target', () => {
    expect(report.states.find((s) => s.url === `${origin}/#!/old`)).toMatchObject({ status: 301, redirect: `${origin}/#!/a` });
    expect(report.states.find((s) => s.url === `${origin}/#!/away`)).toMatchObject({ status: 302, redirect: 'https://other.test/x' });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxPageBytes %s with a RangeError', async (maxPageBytes) => {
    await expect(verify(`${origin}/`, { maxPageBytes, agents: false })).rejects.toThrow(
      `maxPageBytes must be a whole number of bytes above 0, got ${JSON.stringify(maxPageBytes)}`,
    );
  });

  it('starts from an ugly URL at the state it names: an old URL a crawler kept is checked as it is', async () => {
    const fromUgly = await verify(`${origin}/?_escaped_fragment_=/old`, { maxStates: 2, agents: false });
    expect(fromUgly.start).toBe(`${origin}/?_escaped_fragment_=/old`);
    expect(fromUgly.states[0]).toMatchObject({ url: `${origin}/#!/old`, fetched: `${origin}/?_escaped_fragment_=/old`, status: 301 });
  });

  it('refuses a start URL in the ugly form that names no state, rather than crawl nothing', async () => {
    await expect(verify(`${origin}/?_escaped_fragment_=%zz`, { agents: false })).rejects.toMatchObject({ code: 'MALFORMED_ESCAPE' });
    await expect(verify(`${origin}/?_escaped_fragment_=/a&_escaped_fragment_=/b`, { agents: false })).rejects.toMatchObject({
      code: 'NOT_UGLY',
    });
  });

  it('stops at maxStates, and checks only the sitemap entries it crawled', async () => {
    const small = await verify(`${origin}/`, { maxStates: 3, agents: false });
    expect(small.states).toHaveLength(3);
    // It says it stopped short: the sitemap's /#!/missing and the pages' links were left.
    expect(small.stopped).toMatchObject({ maxStates: 3, notCrawled: expect.any(Number) });
    expect(small.stopped?.notCrawled).toBeGreaterThan(0);
    // The sitemap's /#!/old is the third state; its /#!/missing is past it: neither crawled nor kept.
    // Its #! entries are faults of its own text, crawled or not.
    expect(small.sitemap?.problems.map((p) => p.code)).toEqual([
      'FRAGMENT_URL',
      'UGLY_SITEMAP',
      'FRAGMENT_URL',
      'FRAGMENT_URL',
      'SITEMAP_NOT_200',
    ]);
    expect(small.sitemap?.problems[4]?.message).toContain(`lists ${origin}/#!/old,`);
  });
});

describe('verify leaving the origin (security, second round)', () => {
  // Two servers: the site, and "elsewhere" (standing in for another host, a metadata address), which counts what reaches it.
  let site: Server;
  let elsewhere: Server;
  let siteOrigin = '';
  let elsewhereOrigin = '';
  let reached: string[] = [];
  let robots = '';
  const listenOn = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      reached.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>${elsewhereOrigin}/#!/x</loc></url></urlset>`);
    });
    elsewhereOrigin = await listenOn(elsewhere);
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', siteOrigin);
      if (url.pathname === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      if (url.pathname === '/away') return res.writeHead(302, { location: `${elsewhereOrigin}/latest/meta-data/` }).end();
      if (url.pathname === '/hop') return res.writeHead(301, { location: '/here' }).end();
      if (url.pathname === '/sitemap.xml' || url.pathname.startsWith('/map-')) {
        return res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>${siteOrigin}/here</loc></url></urlset>`);
      }
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>t</title><a href="/away">away</a> <a href="/hop">hop</a>');
    });
    siteOrigin = await listenOn(site);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => site.close(() => resolve()));
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  });

  it('reports a state that redirects off the origin instead of following it, and crawls an on-origin target as a state', async () => {
    reached = [];
    robots = '';
    const report = await verify(`${siteOrigin}/`);
    expect(reached).toEqual([]);
    expect(report.states.find((s) => s.url === `${siteOrigin}/away`)?.problems).toEqual([
      { code: 'OFF_ORIGIN_REDIRECT', message: `${siteOrigin}/away redirects (302) off the site, to ${elsewhereOrigin}/latest/meta-data/` },
    ]);
    expect(report.states.find((s) => s.url === `${siteOrigin}/hop`)).toMatchObject({
      status: 301,
      redirect: `${siteOrigin}/here`,
      problems: [],
    });
    expect(report.states.find((s) => s.url === `${siteOrigin}/here`)).toMatchObject({ status: 200 });
  });

  it('never follows a sitemap redirect off the origin', async () => {
    reached = [];
    robots = `Sitemap: ${siteOrigin}/away`;
    const report = await verify(`${siteOrigin}/`);
    expect(reached).toEqual([]);
    expect(report.sitemap?.problems).toEqual([
      {
        code: 'OFF_ORIGIN',
        message: `${siteOrigin}/away leads off the site to ${elsewhereOrigin}/latest/meta-data/; verify stays on ${siteOrigin}`,
      },
    ]);
  });

  it('reads sitemaps only on the origin, at most ten of them', async () => {
    reached = [];
    robots = [
      `Sitemap: ${elsewhereOrigin}/sitemap.xml`,
      'Sitemap: http://169.254.169.254/latest/meta-data/',
      ...Array.from({ length: 12 }, (_, i) => `Sitemap: ${siteOrigin}/map-${i}.xml`),
    ].join('\n');
    const report = await verify(`${siteOrigin}/`);
    expect(reached).toEqual([]);
    expect(report.sitemap?.url.split(' ')).toHaveLength(10);
    expect(report.sitemap?.problems.map((p) => p.code)).toEqual(['OFF_ORIGIN', 'OFF_ORIGIN', 'BAD_SITEMAP', 'BAD_SITEMAP']);
  });

  it('reads at most 500 KiB of a robots.txt', async () => {
    robots = '\n'.repeat(600 * 1024) + `Sitemap: ${siteOrigin}/map-late.xml`;
    const report = await verify(`${siteOrigin}/`);
    expect(report.sitemap?.url).toBe(`${siteOrigin}/sitemap.xml`);
  });
});

describe('verify against a hostile site (security, seventh round)', () => {
  let site: Server;
  let siteOrigin = '';
  let page = '';
  let robots: string | null = null;
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/robots.txt' && robots !== null) return res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      if (req.url === '/robots.txt' || req.url === '/sitemap.xml') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

  it('lists at most LISTED_PER_CODE problems of a code for a state, and counts the rest', async () => {
    // Each of 30 bytes, each a problem naming the page's URL: a 10 MiB page of them was 350,000
    // problems, and with a URL of 2 kB a page took 700 MB of the crawler's heap (three pages ended it).
    page =
      '<head><meta name="fragment" content="?">' +
      '<meta name="fragment" content="x">'.repeat(30) +
      '<link rel="canonical" href="?_escaped_fragment_=">'.repeat(25) +
      '</head><body>' +
      '<a href="?_escaped_fragment_=">'.repeat(5000) +
      '<a href="#!/a">a</a>';
    const report = await verify(`${siteOrigin}/`, { agents: false, maxStates: 2 });
    // The #! state: its snapshot's canonical links are checked too.
    const problems = report.states.find((s) => s.kind === 'pretty')?.problems ?? [];
    const of = (code: string) => problems.filter((p) => p.code === code);
    expect(of('UGLY_LINK')).toHaveLength(LISTED_PER_CODE);
    expect(of('UGLY_LINK').at(-1)?.more).toBe(5000 - LISTED_PER_CODE);
    expect(
      of('UGLY_LINK')
        .slice(0, -1)
        .every((p) => p.more === undefined),
    ).toBe(true);
    expect(of('MALFORMED_META')).toHaveLength(LISTED_PER_CODE);
    expect(of('MALFORMED_META').at(-1)?.more).toBe(31 - LISTED_PER_CODE);
    expect(of('UGLY_CANONICAL')).toHaveLength(LISTED_PER_CODE);
    expect(of('UGLY_CANONICAL').at(-1)?.more).toBe(25 - LISTED_PER_CODE);
    // Every one found is counted: the plain start page's and the #! state's.
    expect(report.states).toHaveLength(2);
    expect(report.problems).toBe(5000 + 31 + (5000 + 31 + 25));
  });

  it('writes no control character a site sent into the text report (terminal escapes, line breaks)', async () => {
    // A title (OSC 0), a screen clear, a hyperlink (OSC 8), a forged line, an 8-bit CSI: as robots.txt and a canonical link send them.
    const hostile = '\x1b]0;owned\x07\x1b[2J\x1b]8;;https://evil.test/\x07click\x1b]8;;\x07\rOK  0 problems\x9b31m';
    robots = `Sitemap: https://evil.test/${hostile}\n`;
    page = `<head><link rel="canonical" href="?_escaped_fragment_=${hostile.replace('\r', '\n')}"></head><a href="#!/a">a</a>`;
    try {
      const report = await verify(`${siteOrigin}/`, { agents: false, maxStates: 2 });
      expect(report.states[1]?.problems.map((p) => p.code)).toEqual(['UGLY_CANONICAL']);
      const text = formatReport(report);
      expect(text).not.toMatch(/[\0-\x09\x0b-\x1f\x7f-\x9f]/);
      expect(text).toContain('\\x1b]0;owned\\x07\\x1b[2J');
      // The table (two lines and a row a state), a blank line, the heading, two problems, a blank line, the summary.
      expect(text.split('\n')).toHaveLength(2 + 2 + 1 + 1 + 2 + 1 + 1);
    } finally {
      robots = null;
    }
  });

  it('keeps a bounded part of what a page chose, whatever its size: titles, descriptions, texts in messages, URLs', async () => {
    // Each a megabyte: a title, a description, a meta tag's content, a canonical link and a link.
    // Kept whole, a site of 500 such pages held 9 GB of the crawler's memory (21 pages: 386 MB).
    const mega = 'x'.repeat(2 ** 20);
    page =
      `<head><title>${mega}</title><meta name="description" content="${mega}"><meta name="fragment" content="${mega}">` +
      `<link rel="canonical" href="http://[${mega}"></head><a href="/${mega}">long</a><a href="#!/a">a</a>`;
    const report = await verify(`${siteOrigin}/`, { maxStates: 3, maxPageBytes: 8 * 2 ** 20 });
    expect(report.states.map((s) => s.url)).toEqual([`${siteOrigin}/`, `${siteOrigin}/#!/a`]);
    expect(JSON.stringify(report).length).toBeLessThan(40_000);
    expect(report.states[0]?.title).toBe('x'.repeat(TEXT_MAX) + '…');
    expect(report.states[0]?.clean?.bot.description).toBe('x'.repeat(TEXT_MAX) + '…');
    expect(report.states.map((s) => s.problems.map((p) => p.code))).toEqual([
      ['MALFORMED_META', 'LONG_URL'],
      ['MALFORMED_META', 'BAD_CANONICAL', 'LONG_URL'],
    ]);
  });
});

describe('verify on a site with a page past maxPageBytes, and one nested past MAX_DEPTH', () => {
  it('reports them as PAGE_TOO_LARGE and PAGE_TOO_DEEP naming them and the cap, checks nothing of them, and crawls on', async () => {
    const links =
      '<title>t</title><meta name="description" content="d"><a href="/large">large</a><a href="/small">small</a><a href="/bots">bots</a><a href="/deep">deep</a>';
    const large = `<title>large</title>${'x'.repeat(2 ** 21)}`;
    const site = createServer((req, res) => {
      // /bots is large for a bot only: its clean URL, fetched as one, is past the cap.
      const bot = /Googlebot/.test(req.headers['user-agent'] ?? '');
      const body =
        req.url === '/large' || (req.url === '/bots' && bot)
          ? large
          : req.url === '/deep'
            ? '<div>'.repeat(MAX_DEPTH)
            : ['/', '/small', '/bots'].includes(req.url ?? '')
              ? links
              : '';
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html', vary: 'User-Agent' }).end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const report = await verify(`${origin}/`, { maxPageBytes: 2 ** 21 });
      expect(report.states.map((s) => [s.url.slice(origin.length), s.status, s.title, s.problems.map((p) => p.code)])).toEqual([
        ['/', 200, 't', []],
        ['/large', 0, '', ['PAGE_TOO_LARGE']],
        ['/small', 200, 't', []],
        ['/bots', 200, 't', ['PAGE_TOO_LARGE']],
        ['/deep', 0, '', ['PAGE_TOO_DEEP']],
      ]);
      const tail =
        'sends more than 2097152 bytes, the most verify reads of a page: the rest was not read, nor the state checked (raise --max-page-bytes to check it)';
      expect(report.states.map((s) => s.problems[0]?.message)).toEqual([
        undefined,
        `${origin}/large ${tail}`,
        undefined,
        `${origin}/bots ${tail}`,
        `${origin}/deep nests elements more than ${MAX_DEPTH} deep, the deepest verify reads (Chromium's parser nests no deeper than 512): the state was not checked`,
      ]);
      expect(report.problems).toBe(3);
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});

describe('verify on a site whose sitemap names another origin', () => {
  it('reports each entry on another origin (a sitemap written for production, read on staging), never crawled', async () => {
    let origin = '';
    const site = createServer((req, res) => {
      if (req.url === '/sitemap.xml')
        return res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<urlset><url><loc>https://shop.example/items/1</loc></url><url><loc>${origin}/</loc></url></urlset>`);
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' }).end('<title>t</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const report = await verify(`${origin}/`, { agents: false });
      expect(report.states.map((s) => s.url)).toEqual([`${origin}/`]);
      expect(report.sitemap?.problems).toEqual([
        {
          code: 'OFF_ORIGIN',
          message: `the sitemap ${origin}/sitemap.xml lists https://shop.example/items/1, not on ${origin}: crawlers skip a sitemap's URLs on another origin (write it with this site's origin); not crawled`,
        },
      ]);
      expect(report.problems).toBe(1);
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});

describe('verify on pages that say noindex', () => {
  /** Serves `pages` (path → status, head, X-Robots-Tag) and a sitemap of `listed` paths on 127.0.0.1, runs `verify`, and stops. */
  async function crawlSite(pages: Record<string, [string, string?]>, listed: string[]): Promise<{ report: VerifyReport; origin: string }> {
    let origin = '';
    const site = createServer((req, res) => {
      if (req.url === '/sitemap.xml')
        return res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<urlset>${listed.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`);
      const found = pages[req.url ?? ''];
      if (!found) return res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      const [head, robots] = found;
      res.writeHead(200, { 'content-type': 'text/html', ...(robots ? { 'x-robots-tag': robots } : {}) });
      res.end(`<!doctype html><html><head>${head}</head><body><a href="/search">s</a> <a href="/drafts/1">d</a></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      return { report: await verify(`${origin}/`, { agents: false }), origin };
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  }
  // Plain pages are checked for a canonical link only as snapshots: each is one here (`?_escaped_fragment_=`).
  const meta = '<meta name="fragment" content="!">';

  it('checks no canonical link of one, and reports none found by links and absent from the sitemap', async () => {
    const { report, origin } = await crawlSite(
      {
        '/': [meta],
        '/?_escaped_fragment_=': [`<title>Home</title><link rel="canonical" href="/">`],
        '/search': [meta],
        '/search?_escaped_fragment_=': ['<title>Search</title><meta name="robots" content="nofollow, NOINDEX">'],
        '/drafts/1': [meta],
        '/drafts/1?_escaped_fragment_=': [
          '<title>Draft</title><link rel="canonical" href="/?_escaped_fragment_=/x">',
          'googlebot: noindex',
        ],
      },
      ['/'],
    );
    expect(report.states.map((s) => [s.url.slice(origin.length), s.status, s.noindex ?? false])).toEqual([
      ['/', 200, false],
      ['/search', 200, true],
      ['/drafts/1', 200, true],
    ]);
    expect(report.problems).toBe(0);
    expect(report.sitemap?.problems).toEqual([]);
  });

  it('reports a sitemap that lists one (SITEMAP_NOINDEX), and still the canonical link an indexed page lacks', async () => {
    const { report, origin } = await crawlSite(
      {
        '/': [meta],
        '/?_escaped_fragment_=': ['<title>Home</title>'],
        '/search': [meta],
        '/search?_escaped_fragment_=': ['<title>Search</title>', 'noindex'],
        '/drafts/1': [meta],
        '/drafts/1?_escaped_fragment_=': ['<title>Draft</title><meta name="robots" content="index, follow">'],
      },
      ['/', '/search'],
    );
    expect(report.sitemap?.problems).toEqual([
      {
        code: 'SITEMAP_NOINDEX',
        message: `the sitemap ${origin}/sitemap.xml lists ${origin}/search, which says noindex: leave it out of the sitemap, or let it be indexed`,
      },
    ]);
    expect(codes(report, `${origin}/`)).toEqual(['MISSING_CANONICAL']);
    expect(codes(report, `${origin}/drafts/1`)).toEqual(['MISSING_CANONICAL']);
    expect(codes(report, `${origin}/search`)).toEqual([]);
    expect(report.problems).toBe(3);
  });
});
