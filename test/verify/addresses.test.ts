import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalProblem, canonicalProblems } from '../../src/verify/addresses.js';
import { verify, type VerifyReport } from '../../src/verify/crawl.js';
import { listen, type Running } from '../server/helpers.js';

const STATE = 'https://e.com/#!/books/1';

describe('canonicalProblem', () => {
  it.each<[string, href: string, code: string | null]>([
    ['a clean URL', 'https://e.com/books/1', null],
    ['a relative clean URL', '/books/1', null],
    ['a URL with an empty fragment, which names the page', 'https://e.com/books/1#', null],
    ['a #! URL, which crawlers read as the page before the #', 'https://e.com/#!/books/1', 'FRAGMENT_URL'],
    ['a relative #! URL', '/#!/books/1', 'FRAGMENT_URL'],
    ['the #! URL of the base state', 'https://e.com/#!/', 'FRAGMENT_URL'],
    ['a plain anchor', 'https://e.com/books/1#reviews', 'FRAGMENT_URL'],
    ['an ugly URL, once', 'https://e.com/?_escaped_fragment_=/books/1', 'UGLY_CANONICAL'],
    ['an ugly URL with a fragment, once: without it, it is still ugly', 'https://e.com/?_escaped_fragment_=/books/1#!/x', 'UGLY_CANONICAL'],
    ['no URL at all, once, whatever it holds', 'http://[x#!/books/1', 'BAD_CANONICAL'],
    ['a URL with a tracking tag', 'https://e.com/books/1?utm_source=news', 'TRACKING_CANONICAL'],
    ['a URL with an escaped tracking tag', 'https://e.com/books/1?page=2&utm%5Fsource=news', 'TRACKING_CANONICAL'],
    ['a URL with keys that only look like tags', 'https://e.com/books/1?utm=1&gclid_x=2&UTM_SOURCE=3&page=4', null],
    ['a #! URL whose state carries a tag, once', 'https://e.com/#!/books/1?utm_source=x', 'FRAGMENT_URL'],
    ['a #! URL with a tag before the #, once', 'https://e.com/?utm_source=x#!/books/1', 'FRAGMENT_URL'],
    ['an ugly URL with a tag, once', 'https://e.com/?utm_source=x&_escaped_fragment_=/books/1', 'UGLY_CANONICAL'],
  ])('judges %s', (_, href, code) => {
    expect(canonicalProblem(href, STATE)?.code ?? null).toBe(code);
  });

  it.each<[string, href: string, message: string]>([
    [
      'a #! URL, naming the page crawlers read and the state’s clean URL',
      '/#!/books/1?x=1',
      `the canonical link of ${STATE} is the #! URL https://e.com/#!/books/1?x=1: crawlers drop the fragment and read https://e.com/, another page; give them the state's clean URL, https://e.com/books/1?x=1`,
    ],
    [
      'an anchor, naming the page crawlers read',
      '/books/1#reviews',
      `the canonical link of ${STATE} is https://e.com/books/1#reviews: crawlers drop the fragment and read https://e.com/books/1; give them that URL`,
    ],
    [
      'the base state’s #! URL, which is its page',
      '/app/#!/',
      `the canonical link of ${STATE} is https://e.com/app/#!/: crawlers drop the fragment and read https://e.com/app/; give them that URL`,
    ],
  ])('says what crawlers read for %s', (_, href, message) => {
    expect(canonicalProblem(href, STATE)).toEqual({ code: 'FRAGMENT_URL', message });
  });

  it.each(['utm_source', 'utm_campaign', 'gclid', 'fbclid', 'msclkid', 'dclid', 'mc_cid', 'mc_eid', '_ga', '_gl', 'yclid', 'igshid'])(
    'reports the tracking tag %s in a canonical URL',
    (key) => {
      expect(canonicalProblem(`/books/1?${key}=x`, STATE)?.code).toBe('TRACKING_CANONICAL');
    },
  );

  it('names the tracking tags once each and gives the URL without them, every other key kept in order', () => {
    expect(canonicalProblem('/books/1?utm_source=a&page=2&fbclid=b&utm_source=c&q=x', STATE, 'og:url')).toEqual({
      code: 'TRACKING_CANONICAL',
      message: `the og:url of ${STATE} is https://e.com/books/1?utm_source=a&page=2&fbclid=b&utm_source=c&q=x, with the tracking tags utm_source, fbclid: crawlers index the page with them and every visit from search counts as that campaign's; give them https://e.com/books/1?page=2&q=x`,
    });
    expect(canonicalProblem('/books/1?gclid=a', STATE)?.message).toMatch(
      /with the tracking tag gclid: .*; give them https:\/\/e\.com\/books\/1$/,
    );
  });
});

describe('canonicalProblems', () => {
  const codes = (canonicals: string[], ogUrls: string[]) =>
    [...canonicalProblems(canonicals, ogUrls, STATE)].map((p) => `${p.code} ${p.message.slice(0, p.message.indexOf(' of '))}`);

  it.each<[string, canonicals: string[], ogUrls: string[], found: string[]]>([
    ['a clean canonical link and og:url', ['/books/1'], ['https://e.com/books/1'], []],
    [
      'an og:url naming the canonical link’s URL, which has the fault: once',
      ['/#!/books/1'],
      ['https://e.com/#!/books/1'],
      ['FRAGMENT_URL the canonical link'],
    ],
    ['an og:url of its own with a fault', ['/books/1'], ['/books/1?fbclid=x'], ['TRACKING_CANONICAL the og:url']],
    ['an og:url and no canonical link', [], ['/#!/books/1'], ['FRAGMENT_URL the og:url']],
    [
      'two og:urls naming one URL: once',
      [],
      ['/?_escaped_fragment_=/a', 'https://e.com/?_escaped_fragment_=/a'],
      ['UGLY_CANONICAL the og:url'],
    ],
    [
      'each canonical link, as always',
      ['/?_escaped_fragment_=/a', '/?_escaped_fragment_=/a'],
      [],
      ['UGLY_CANONICAL the canonical link', 'UGLY_CANONICAL the canonical link'],
    ],
  ])('judges %s', (_, canonicals, ogUrls, found) => {
    expect(codes(canonicals, ogUrls)).toEqual(found);
  });
});

// A scheme-only #! site (its server answers the ugly URLs alone, as cleanUrls: 'shell' does) whose
// snapshots give their addresses in every form: each state's head is the table's.
const heads: Record<string, string> = {
  '': '<link rel="canonical" href="/">',
  '/hashbang': '<link rel="canonical" href="/#!/hashbang">',
  '/anchor': '<link rel="canonical" href="/anchor#top">',
  '/ugly': '<link rel="canonical" href="/?_escaped_fragment_=/ugly#top">',
  '/bad': '<link rel="canonical" href="http://[x#!/bad">',
  '/fr': '<link rel="canonical" href="/fr"><link rel="alternate" hreflang="fr" href="/#!/fr-page">',
  '/de': '<link rel="canonical" href="/de"><link rel="alternate" hreflang="de" href="/?_escaped_fragment_=/de-page#x">',
  '/en': '<link rel="canonical" href="/en"><link rel="alternate" hreflang="en" href="https://other.example/#!/en">',
  '/fr-page': '<link rel="canonical" href="/fr-page">',
  '/listed': '<link rel="canonical" href="/listed">',
  '/tracked': '<link rel="canonical" href="/tracked?utm_source=feed&amp;page=2">',
  '/og': '<link rel="canonical" href="/og"><meta property="og:url" content="/#!/og">',
  '/og-same': '<link rel="canonical" href="/#!/og-same"><meta property="og:url" content="/#!/og-same">',
};

describe('verify on a #! site that gives its addresses with a fragment', () => {
  let server: Running;
  let origin = '';
  let report: VerifyReport;
  beforeAll(async () => {
    server = await listen((req, res) => {
      const url = new URL(req.url ?? '/', origin);
      const html = (head: string, body = '') =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
      if (url.pathname === '/sitemap.xml')
        return res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<urlset><url><loc>${origin}/#!/listed</loc></url><url><loc>${origin}/page#top</loc></url>` +
              `<url><loc>${origin}/?_escaped_fragment_=/x#y</loc></url><url><loc>https://other.example/#!/x</loc></url></urlset>`,
          );
      if (url.pathname === '/page') return html('<title>Page</title>');
      const state = url.searchParams.get('_escaped_fragment_');
      if (state === null) return html('<meta name="fragment" content="!"><title>App</title>');
      const head = heads[state];
      if (head === undefined) return res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      // The start page links to every state as the scheme does, with #! links: no fault.
      html(
        `<title>${state}</title>${head}`,
        state === ''
          ? Object.keys(heads)
              .map((s) => `<a href="#!${s}">${s}</a>`)
              .join(' ')
          : '',
      );
    });
    origin = server.base;
    report = await verify(`${origin}/`, { agents: false });
  });
  afterAll(() => server.close());

  const codes = (path: string) => report.states.find((s) => s.url === origin + path)?.problems.map((p) => p.code);

  it.each<[path: string, codes: string[]]>([
    ['/', []],
    ['/#!/hashbang', ['FRAGMENT_URL']],
    ['/#!/anchor', ['FRAGMENT_URL']],
    ['/#!/ugly', ['UGLY_CANONICAL']],
    ['/#!/bad', ['BAD_CANONICAL']],
    ['/#!/fr', ['FRAGMENT_URL']],
    ['/#!/de', ['UGLY_LINK']],
    ['/#!/en', []],
    ['/#!/fr-page', []],
    ['/#!/tracked', ['TRACKING_CANONICAL']],
    ['/#!/og', ['FRAGMENT_URL']],
    ['/#!/og-same', ['FRAGMENT_URL']],
  ])('reports for %s: %j', (path, expected) => {
    expect(codes(path)).toEqual(expected);
  });

  it('names the hreflang alternate with a fragment and what crawlers read for it', () => {
    expect(report.states.find((s) => s.url === `${origin}/#!/fr`)?.problems[0]?.message).toBe(
      `the hreflang alternate on ${origin}/#!/fr is the #! URL ${origin}/#!/fr-page: crawlers drop the fragment and read ${origin}/, another page; give them the state's clean URL, ${origin}/fr-page`,
    );
  });

  it('reports each sitemap entry with a fragment once, beside the ugly and the off-origin ones', () => {
    expect(report.sitemap?.problems.map((p) => p.code)).toEqual(['FRAGMENT_URL', 'FRAGMENT_URL', 'UGLY_SITEMAP', 'OFF_ORIGIN']);
    expect(report.sitemap?.problems[0]?.message).toBe(
      `the sitemap ${origin}/sitemap.xml lists the #! URL ${origin}/#!/listed: crawlers drop the fragment and read ${origin}/, another page; give them the state's clean URL, ${origin}/listed`,
    );
  });

  it('still crawls the #! states that a sitemap and an alternate name, as the scheme’s crawler does', () => {
    expect(report.states.find((s) => s.url === `${origin}/#!/listed`)).toMatchObject({ kind: 'pretty', status: 200, problems: [] });
    expect(report.states.find((s) => s.url === `${origin}/#!/fr-page`)).toMatchObject({ kind: 'pretty', status: 200 });
    expect(report.states.find((s) => s.url === `${origin}/page`)).toMatchObject({ kind: 'plain', status: 200 });
    // Nine states with one fault each, and four sitemap entries.
    expect(report.problems).toBe(9 + 4);
  });
});

// A site of clean URLs whose start page names its versions in other languages: relative, not found,
// moved, noindex, and itself.
describe('verify on a site whose hreflang alternates are no page to index', () => {
  let server: Running;
  let origin = '';
  let report: VerifyReport;
  beforeAll(async () => {
    server = await listen((req, res) => {
      const path = new URL(req.url ?? '/', origin).pathname;
      const html = (head: string, headers: Record<string, string> = {}) =>
        res
          .writeHead(200, { 'content-type': 'text/html', ...headers })
          .end(`<!doctype html><html><head>${head}</head><body></body></html>`);
      if (path === '/')
        return html(
          `<title>Home</title><link rel="alternate" hreflang="x-default" href="${origin}/">` +
            `<link rel="alternate" hreflang="fr" href="/fr"><link rel="alternate" hreflang="de" href="${origin}/de">` +
            `<link rel="alternate" hreflang="es" href="${origin}/es"><link rel="alternate" hreflang="it" href="${origin}/it">` +
            `<link rel="alternate" hreflang="pt" href="${origin}/pt">`,
        );
      if (path === '/fr' || path === '/es/') return html('<title>Ok</title>');
      if (path === '/es') return res.writeHead(301, { location: '/es/' }).end();
      if (path === '/it') return html('<title>Hidden</title><meta name="robots" content="noindex">');
      if (path === '/pt') return html('<title>Hidden</title>', { 'x-robots-tag': 'noindex' });
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    });
    origin = server.base;
    report = await verify(`${origin}/`, { agents: false });
  });
  afterAll(() => server.close());

  it('reports on the page that names them a relative alternate, and each one that does not answer 200 or says noindex', () => {
    const home = report.states.find((s) => s.url === `${origin}/`);
    expect(home?.problems.map((p) => [p.code, p.message])).toEqual([
      [
        'RELATIVE_ALTERNATE',
        `the hreflang alternate on ${origin}/ is "/fr", not a full URL: Google ignores an hreflang alternate without its scheme and host; give it ${origin}/fr`,
      ],
      [
        'ALTERNATE_NOT_200',
        `the hreflang alternate on ${origin}/ names ${origin}/de, which answers 404: name the URL of the state itself, which answers 200`,
      ],
      [
        'ALTERNATE_NOT_200',
        `the hreflang alternate on ${origin}/ names ${origin}/es, which redirects (301) to ${origin}/es/: name the URL of the state itself, which answers 200`,
      ],
      [
        'ALTERNATE_NOINDEX',
        `the hreflang alternate on ${origin}/ names ${origin}/it, which says noindex: Google drops an alternate that is no page to index`,
      ],
      [
        'ALTERNATE_NOINDEX',
        `the hreflang alternate on ${origin}/ names ${origin}/pt, which says noindex: Google drops an alternate that is no page to index`,
      ],
    ]);
    // The alternates themselves are crawled, each with no problem of its own.
    expect(report.states.filter((s) => s.url !== `${origin}/`).flatMap((s) => s.problems)).toEqual([]);
    expect(report.problems).toBe(5);
  });
});
