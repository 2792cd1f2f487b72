import { readFileSync } from 'node:fs';
import { parse } from 'parse5';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the demo server is plain JavaScript with no types of its own
import { startDemo } from '../../demo/server.mjs';
// @ts-expect-error: the demo's routes are plain JavaScript with no types of their own
import { appRoutes } from '../../demo/app/routes.js';
import type { RouteTable } from '../../src/index.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';
import { leftOut, SPA_LEFT_OUT } from './sample.js';

// The demo as a crawler that runs no JavaScript sees it (Googlebot without rendering, every
// link-preview bot): plain GETs with Googlebot's User-Agent, every `<a href>` followed with its
// fragment dropped (such a crawler never sees what follows `#`, and never asks for
// `_escaped_fragment_`), every `<loc>` of the app's sitemaps that robots.txt names, redirects
// followed. Each app is crawled on its own, from its base URL, never leaving it. What it must find:
// every state of the app, each at one URL; and each page it would index naming a canonical URL that
// is a page it indexes, with no fragment and no tracking tag, and no two pages with the same text
// under two canonical URLs.
// The client-only app (/spa/), whose every page is a headless render, is fetched but for its book
// and author pages out of the sample (test/demo/sample.ts): the crawler still finds each of them,
// linked from the pages it fetches, and fetches every other state, each route and each outcome.
// The other three apps render every page, the same routes on the same data, and are crawled whole.
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
// Bounds: no app has more states than this; requests in flight per app.
const MAX_PAGES = 1000;
const CONCURRENCY = 6;
// Campaign and click tags a shared link carries (utm_source, fbclid, …): never in a canonical URL.
const TRACKING = /^(?:utm_.+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_[ce]id|_ga|_gl|yclid|igshid|twclid|li_fat_id|ttclid)$/i;

const data = JSON.parse(readFileSync('demo/public/data/books.json', 'utf8')) as { books: { id: string }[]; authors: unknown[] };
// Every state of an app, as app locations. What its sitemap lists: the route table's locations()
// (home, /books, every book, every author). What only links reach: the pages of /books after the
// first (40 books a page; the first page is /books itself), the home page's six searches (one page
// each), the deliberate 404s and the old URL of a book (301 to /books/3).
const pages = Math.ceil(data.books.length / 40);
const SEARCHES = ['Les Misérables', 'C++', '日本', 'Pride & Prejudice', '100%', 'Notes on'];
const NOT_FOUND = ['/nowhere', '/books/99999'];
const MOVED: Record<string, string> = { '/book/3': '/books/3' };

async function everyState(): Promise<string[]> {
  const listed: string[] = [];
  const { routes } = appRoutes({ catalogue: async () => data, origin: 'http://127.0.0.1', base: '/', mode: 'history' }) as {
    routes: RouteTable;
  };
  for await (const location of routes.locations()) listed.push(location);
  return [
    ...listed,
    ...Array.from({ length: pages - 1 }, (_, i) => `/books?page=${i + 2}`),
    ...SEARCHES.map((term) => `/books?q=${encodeURIComponent(term)}`),
    ...NOT_FOUND,
    ...Object.keys(MOVED),
  ];
}

type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
const attr = (node: Node, name: string) => node.attrs?.find((a) => a.name === name)?.value;
function* elements(node: Node): Generator<Node> {
  if (node.tagName) yield node;
  for (const child of node.childNodes ?? []) yield* elements(child);
}
const textOf = (node: Node): string => (node.value ?? '') + (node.childNodes ?? []).map(textOf).join('');

/** One URL as the crawler fetched it. */
interface Document {
  url: string;
  status: number;
  /** A redirect's target, absolute. */
  location?: string;
  /** Every `<link rel="canonical">` href and `og:url`, resolved against the page's URL. */
  canonicals: string[];
  ogUrls: string[];
  /** Every `og:image`, as written. */
  ogImages: string[];
  /** The page's title and the text of its `<main>`, whitespace squashed: two pages alike say the same. */
  text: string;
  links: string[];
}

/** Reads what the crawler uses of an HTML page. */
function read(url: string, status: number, html: string): Document {
  const doc: Document = { url, status, canonicals: [], ogUrls: [], ogImages: [], text: '', links: [] };
  const resolve = (href: string) => (URL.canParse(href, url) ? new URL(href, url).href : `(not a URL: ${href})`);
  let title = '';
  let main = '';
  for (const element of elements(parse(html) as unknown as Node)) {
    const tag = element.tagName;
    const href = attr(element, 'href');
    if (tag === 'a' && href !== undefined) doc.links.push(href);
    if (tag === 'link' && href !== undefined && (attr(element, 'rel') ?? '').toLowerCase().split(/\s+/).includes('canonical'))
      doc.canonicals.push(resolve(href));
    if (tag === 'meta' && attr(element, 'property') === 'og:url') doc.ogUrls.push(resolve(attr(element, 'content') ?? ''));
    if (tag === 'meta' && attr(element, 'property') === 'og:image') doc.ogImages.push(attr(element, 'content') ?? '');
    if (tag === 'title') title = textOf(element);
    if (tag === 'main') main = textOf(element);
  }
  doc.text = `${title}\n${main}`.replace(/\s+/g, ' ').trim();
  return doc;
}

/** The `<loc>` entries of a sitemap, read with an XML parser. */
function sitemapLocs(xml: string): string[] {
  const locs: string[] = [];
  const parser = new SaxesParser();
  let text: string | null = null;
  parser.on('opentag', (tag) => void (tag.name === 'loc' && (text = '')));
  parser.on('text', (chunk) => void (text !== null && (text += chunk)));
  parser.on('closetag', (tag) => {
    if (tag.name === 'loc' && text !== null) locs.push(text.trim());
    if (tag.name === 'loc') text = null;
  });
  parser.write(xml).close();
  return locs;
}

const get = (url: string) => fetch(url, { headers: { 'user-agent': GOOGLEBOT }, redirect: 'manual' });

interface App {
  base: string;
  url: string;
}

let demo: { origin: string; apps: App[]; close: () => Promise<void> };
/** The app a path belongs to, as the demo's server picks it: the longest base that holds it. */
const appOf = (pathname: string): string | undefined =>
  demo.apps
    .map((a) => a.base)
    .sort((a, b) => b.length - a.length)
    .find((base) => pathname.startsWith(base) || pathname === base.slice(0, -1));

interface Crawl {
  /** Every URL fetched, in the order found. */
  documents: Map<string, Document>;
  /** URLs found and left out of the sample, never fetched (the client-only app's). */
  skipped: Set<string>;
  /** URLs asking for `_escaped_fragment_` that links or sitemaps named (never fetched). */
  ugly: string[];
  /** The `<loc>` entries of the app's sitemaps that robots.txt names, as written. */
  listed: string[];
}

/** Crawls one app as a crawler without JavaScript does. */
async function crawl(app: App, robots: string): Promise<Crawl> {
  const documents = new Map<string, Document>();
  const skipped = new Set<string>();
  const ugly: string[] = [];
  const listed: string[] = [];
  const queue: string[] = [];
  const queued = new Set<string>();
  const enqueue = (href: string, from: string) => {
    if (!URL.canParse(href, from)) return;
    const url = new URL(href, from);
    url.hash = '';
    if (url.origin !== demo.origin || appOf(url.pathname) !== app.base) return;
    if (url.searchParams.has('_escaped_fragment_')) return void ugly.push(url.href);
    if (queued.has(url.href) || queue.length >= MAX_PAGES) return;
    queued.add(url.href);
    if (app.base === '/spa/' && leftOut(url.pathname)) return void skipped.add(url.href);
    queue.push(url.href);
  };
  enqueue(app.url, app.url);
  const sitemaps = robots
    .split(/\r?\n/)
    .map((line) => /^sitemap:\s*(\S+)/i.exec(line.trim())?.[1])
    .filter((url): url is string => url !== undefined && URL.canParse(url) && appOf(new URL(url).pathname) === app.base);
  for (const sitemap of sitemaps) {
    const answer = await get(sitemap);
    if (answer.ok) listed.push(...sitemapLocs(await answer.text()));
  }
  for (const loc of listed) enqueue(loc, loc);
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const url = queue[next++] as string;
      const answer = await get(url);
      const location = answer.headers.get('location');
      const html = (answer.headers.get('content-type') ?? '').includes('html') ? await answer.text() : (await answer.body?.cancel(), '');
      const doc = read(url, answer.status, html);
      if (location !== null && answer.status >= 300 && answer.status < 400) {
        doc.location = new URL(location, url).href;
        enqueue(location, url);
      }
      documents.set(url, doc);
      for (const href of doc.links) enqueue(href, url);
    }
  };
  // Workers stop when the queue runs dry; a link found late starts new ones until none are left.
  while (next < queue.length) await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { documents, skipped, ugly, listed };
}

const states = await everyState();
const crawls = new Map<string, Crawl>();
beforeAll(async () => {
  demo = await startDemo({ timeoutMs: RENDER_LIVENESS_MS });
  const robots = await (await get(`${demo.origin}/robots.txt`)).text();
  for (const app of demo.apps) crawls.set(app.base, await crawl(app, robots));
  if (process.env['CRAWL_REPORT'])
    for (const [base, { documents }] of crawls) {
      const ok = [...documents.values()].filter((d) => d.status === 200);
      console.log(
        `${base}: ${documents.size} documents, ${ok.length} × 200, ${new Set(ok.flatMap((d) => d.canonicals)).size} canonical URLs`,
      );
    }
}, 600_000);
afterAll(() => demo?.close());

const path = (url: string) => url.slice(demo.origin.length);
// The first few of a list, and how many more: a crawl that reaches one page of 237 says so in a line.
const few = (list: string[]) => (list.length > 5 ? [...list.slice(0, 5), `… ${list.length - 5} more`] : list);

/** What is wrong with a page's canonical link and og:url: not one of each, a fragment, a tracking tag, an og:url elsewhere. */
function headFaults(doc: Document): string[] {
  const bad: string[] = [];
  if (doc.canonicals.length !== 1) bad.push(`${path(doc.url)}: ${doc.canonicals.length} canonical links`);
  if (doc.ogUrls.length !== 1) bad.push(`${path(doc.url)}: ${doc.ogUrls.length} og:url`);
  for (const url of [...doc.canonicals, ...doc.ogUrls]) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || parsed.hash || [...parsed.searchParams.keys()].some((key) => TRACKING.test(key))) bad.push(`${path(doc.url)}: ${url}`);
  }
  for (const og of doc.ogUrls) if (og !== doc.canonicals[0]) bad.push(`${path(doc.url)}: og:url ${og} is not its canonical URL`);
  return bad;
}

describe.each(['/', '/classic/', '/spa/', '/ssr/'])('the app at %s, crawled with no JavaScript and no fragments', (base) => {
  const mine = () => crawls.get(base) as Crawl;
  const urlOf = (location: string) => new URL(`${base}${location.slice(1)}`, demo.origin).href;

  it(`reaches every state at one URL each (${states.length}), with its status`, () => {
    const found = new Map<string, number | undefined>([...mine().documents.values()].map((d) => [path(d.url), d.status]));
    // Found and left out of the sample (the client-only app's book and author pages): no status.
    const skipped = [...mine().skipped].map(path);
    expect(skipped).toHaveLength(base === '/spa/' ? SPA_LEFT_OUT.length : 0);
    for (const url of skipped) found.set(url, undefined);
    const expected = new Map(
      states.map((location) => [path(urlOf(location)), NOT_FOUND.includes(location) ? 404 : location in MOVED ? 301 : 200]),
    );
    expect({
      missing: few([...expected.keys()].filter((url) => !found.has(url))),
      extra: few([...found.keys()].filter((url) => !expected.has(url))),
      status: [...found]
        .filter(([url, status]) => status !== undefined && expected.has(url) && expected.get(url) !== status)
        .map(([url, s]) => `${s} ${url}`),
    }).toEqual({ missing: [], extra: [], status: [] });
    expect(mine().ugly).toEqual([]);
    for (const [from, to] of Object.entries(MOVED)) expect(mine().documents.get(urlOf(from))?.location).toBe(urlOf(to));
  });

  it('gives every page it indexes one canonical URL and og:url, with no fragment and no tracking tag', () => {
    const bad: string[] = [];
    for (const doc of mine().documents.values()) if (doc.status === 200) bad.push(...headFaults(doc));
    expect(bad).toEqual([]);
  });

  it('gives each page it indexes its own canonical URL', () => {
    const named = new Map<string, string[]>();
    for (const doc of mine().documents.values())
      if (doc.status === 200) named.set(doc.canonicals[0] ?? '', [...(named.get(doc.canonicals[0] ?? '') ?? []), path(doc.url)]);
    expect(few([...named].filter(([, urls]) => urls.length > 1).map(([canonical, urls]) => `${canonical}: ${urls.join(' ')}`))).toEqual([]);
  });

  it('gives every page it indexes, each book among them, an og:image: an absolute URL of a PNG the demo serves', async () => {
    const ok = [...mine().documents.values()].filter((d) => d.status === 200);
    const books = data.books.filter((book) => base !== '/spa/' || !leftOut(`/books/${book.id}`));
    expect(ok.filter((d) => /\/books\/\d+$/.test(d.url))).toHaveLength(books.length);
    const images = new Set(ok.flatMap((d) => (d.ogImages.length === 1 ? d.ogImages : [`${path(d.url)}: ${d.ogImages.length} og:image`])));
    for (const image of images) {
      expect(URL.canParse(image) && new URL(image).origin, image).toBe(demo.origin);
      const answer = await get(image);
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'image/png']);
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('answers a page of /books past the last with 404, and ?page=1 with a 301 to /books', async () => {
    expect((await get(urlOf('/books?page=99'))).status).toBe(404);
    const first = await get(urlOf('/books?page=1'));
    expect([first.status, first.headers.get('location') && new URL(first.headers.get('location') as string, first.url).href]).toEqual([
      301,
      urlOf('/books'),
    ]);
  });

  it('names the canonical URL of a campaign link without its tracking tags', async () => {
    const answer = await get(urlOf('/books/1'));
    const plain = read(answer.url, answer.status, await answer.text());
    const shared = await get(urlOf('/books/1?utm_source=newsletter&utm_medium=email&fbclid=IwAR0x&gclid=Cj0K'));
    expect(shared.status).toBe(200);
    const doc = read(shared.url, shared.status, await shared.text());
    expect(headFaults(doc)).toEqual([]);
    expect(doc.canonicals).toEqual(plain.canonicals);
    expect(doc.ogUrls).toEqual(plain.ogUrls);
  });
});

describe('the four apps together', () => {
  it('say which page is the one to index: each canonical URL is a page that names itself, and pages alike share one', () => {
    const all = [...crawls.values()].flatMap((c) => [...c.documents.values()]).filter((d) => d.status === 200);
    const byUrl = new Map(all.map((d) => [d.url, d]));
    const bad: string[] = [];
    for (const doc of all) {
      const target = byUrl.get(doc.canonicals[0] ?? '');
      if (!target || target.canonicals[0] !== target.url)
        bad.push(`${path(doc.url)} names ${doc.canonicals[0]}, not a page that names itself`);
    }
    // Pages with the same title and text are one page to a search engine: one canonical URL for them.
    const byText = new Map<string, Set<string>>();
    for (const doc of all) byText.set(doc.text, (byText.get(doc.text) ?? new Set()).add(doc.canonicals[0] ?? ''));
    for (const [text, canonicals] of byText)
      if (canonicals.size > 1)
        bad.push(`${canonicals.size} canonical URLs for one page (${text.slice(0, 40)}…): ${[...canonicals].join(' ')}`);
    expect(few(bad)).toEqual([]);
  });

  it('list in their sitemaps only pages that name themselves', () => {
    const all = new Map([...crawls.values()].flatMap((c) => [...c.documents.values()]).map((d) => [d.url, d]));
    const listed = [...crawls.values()].flatMap((c) => c.listed);
    expect(listed.length).toBeGreaterThan(0);
    const bad = listed.filter((loc) => all.get(loc)?.status !== 200 || all.get(loc)?.canonicals[0] !== loc);
    expect(few(bad)).toEqual([]);
  });
});
