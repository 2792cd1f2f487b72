import { gunzipSync } from 'node:zlib';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { notFound } from '../../src/routes/outcome.js';
import { createRoutes } from '../../src/routes/table.js';
import type { Head } from '../../src/contract/head.js';
import { createSnapshotHandler, type CleanUrls, type SnapshotHandlerOptions } from '../../src/server/handler.js';
import type { SnapshotStore, StoredSnapshot } from '../../src/server/cache/store.js';
import { etagOf } from '../../src/server/http/respond.js';
import { headWithNoindex, robotsWithNoindex } from '../../src/server/noindex.js';
import { sitemap } from '../../src/server/build/sitemap.js';
import { verify } from '../../src/verify/crawl.js';
import { listen, request, type Reply, type Running } from './helpers.js';

// A route's `noindex: true`: its snapshots say `noindex` in the robots meta and in X-Robots-Tag,
// at every URL form and from every store; other routes' snapshots say neither.

const ORIGIN = 'https://example.com';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="robots" content="max-snippet:50"><title>Site</title></head>\n' +
  '<body><main id="app"></main></body></html>\n';

function table(head?: Head) {
  return createRoutes(
    [
      { path: '/books/:id', title: 'Book', render: () => '<h1>Book</h1>' },
      { path: '/search', noindex: true, queryKeys: ['q'], title: 'Search', render: () => '<h1>Results</h1>' },
      { path: '/drafts/:id', noindex: true, load: ({ params }) => (params.id === '0' ? Promise.reject(notFound()) : params.id) },
      { path: '/private/:id', noindex: true, head: () => ({ meta: [{ name: 'robots', content: 'nofollow, noarchive' }] }) },
      { path: '/hidden', noindex: true, head: () => ({ meta: [{ name: 'ROBOTS', content: 'none' }] }) },
      { path: '/moved', noindex: true, redirect: '/books/1' },
    ],
    { head, notFound: { title: 'Not found' } },
  );
}

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function serve(options: Partial<SnapshotHandlerOptions> = {}) {
  const handler = createSnapshotHandler({ routes: table(), origin: ORIGIN, shell: SHELL, onError: () => {}, ...options });
  const server = await listen((req, res) => void handler.node(req, res));
  running.push(server);
  return { handler, port: server.port };
}

/** The content of every `<meta name="robots">` (in any case) of a page, in order. */
function robots(html: string): string[] {
  type Node = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[] };
  const found: string[] = [];
  const walk = (n: Node) => {
    const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value;
    if (n.tagName === 'meta' && attr('name')?.toLowerCase() === 'robots') found.push(attr('content') ?? '');
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

// How a state is asked for: its target, the cleanUrls mode and the User-Agent.
const FORMS: [string, (path: string) => string, CleanUrls, string | undefined][] = [
  ['its ugly URL', (p) => `/?_escaped_fragment_=${p}`, 'bots', undefined],
  ['its meta-tag ugly URL', (p) => `${p}?_escaped_fragment_=`, 'bots', undefined],
  ['its clean URL, by a bot', (p) => p, 'bots', BOT],
  ['its clean URL in cleanUrls all', (p) => p, 'all', undefined],
];

describe.each(FORMS)('a snapshot asked for at %s', (_, target, cleanUrls, agent) => {
  const headers = agent ? { 'User-Agent': agent } : undefined;

  it('of a noindex route says noindex in its robots meta and X-Robots-Tag, on a miss and on a hit', async () => {
    const { port } = await serve({ cleanUrls });
    for (const round of ['miss', 'hit']) {
      const reply = await request(port, target('/search'), { headers });
      expect([round, reply.status]).toEqual([round, 200]);
      expect(reply.headers['x-robots-tag']).toBe('noindex');
      // The route's tag is the state's, in place of the shell's.
      expect(robots(reply.body)).toEqual(['noindex']);
      expect(reply.body).toContain('<meta name="robots" content="noindex" data-router-head="/search">');
    }
  });

  it('of any other route says neither, and keeps the shell’s robots meta', async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, target('/books/1'), { headers });
    expect(reply.status).toBe(200);
    expect(reply.headers['x-robots-tag']).toBeUndefined();
    expect(robots(reply.body)).toEqual(['max-snippet:50']);
  });

  it('of a noindex route that is not found (404) says so too', async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, target('/drafts/0'), { headers });
    expect(reply.status).toBe(404);
    expect(reply.headers['x-robots-tag']).toBe('noindex');
    expect(robots(reply.body)).toEqual(['noindex']);
  });
});

describe('the robots meta of a noindex route’s state', () => {
  it.each([
    ['the route’s own head', '/private/1', undefined, ['nofollow, noarchive, noindex']],
    ['the route’s own head saying none, in another case', '/hidden', undefined, ['none']],
    [
      'the table’s default',
      '/search',
      { meta: [{ name: 'robots', content: 'index, follow, max-image-preview:large' }] },
      ['follow, max-image-preview:large, noindex'],
    ],
    [
      'the table’s default, under the route’s own head',
      '/private/1',
      { meta: [{ name: 'robots', content: 'all' }] },
      ['nofollow, noarchive, noindex'],
    ],
  ])('merges noindex into %s (at %s): one tag, its directives kept', async (_, path, head, expected) => {
    const handler = createSnapshotHandler({ routes: table(head), origin: ORIGIN, shell: SHELL, onError: () => {} });
    const snapshot = await handler.render(path);
    expect(robots(snapshot.html)).toEqual(expected);
  });

  it.each([
    ['', 'noindex'],
    ['nofollow', 'nofollow, noindex'],
    ['index, follow', 'follow, noindex'],
    ['ALL', 'noindex'],
    ['noindex, nofollow', 'noindex, nofollow'],
    ['NoIndex', 'NoIndex'],
    ['none', 'none'],
    [' max-snippet:-1 , noarchive ', 'max-snippet:-1, noarchive, noindex'],
  ])('reads robots content %j as %j', (content, expected) => {
    expect(robotsWithNoindex(content)).toBe(expected);
  });

  it('is added to head tags that have none, and merged into the one they have', () => {
    const meta = (content: string) => ({
      key: 'meta name robots',
      tag: 'meta' as const,
      attrs: [
        ['name', 'robots'],
        ['content', content],
      ] as [string, string][],
    });
    const other = {
      key: 'meta name description',
      tag: 'meta' as const,
      attrs: [
        ['name', 'description'],
        ['content', 'd'],
      ] as [string, string][],
    };
    expect(headWithNoindex([other])).toEqual([other, meta('noindex')]);
    expect(headWithNoindex([meta('nofollow'), other])).toEqual([meta('nofollow, noindex'), other]);
  });
});

describe('X-Robots-Tag of a noindex route’s state', () => {
  it('comes from the route table, not the store: a snapshot stored without it (another process, an older table) is answered with it', async () => {
    const html = '<!DOCTYPE html><html><head><title>Stored</title></head><body></body></html>';
    // Of this handler's build (`build: 'v1'`), as a store shared by its processes holds it.
    const kept: StoredSnapshot = { status: 200, html, etag: etagOf(html), renderedAt: Date.now(), build: 'v1' };
    const store: SnapshotStore = {
      get: (key) => (key === '/search' || key === '/books/1' ? kept : undefined),
      set: () => {},
      delete: () => {},
      keys: () => [],
    };
    const { port } = await serve({ cache: { store }, build: 'v1' });
    for (const [path, header] of [
      ['/search', 'noindex'],
      ['/books/1', undefined],
    ] as const) {
      const reply = await request(port, `/?_escaped_fragment_=${path}`);
      expect(reply.body).toBe(html);
      expect(reply.headers['x-robots-tag']).toBe(header);
    }
  });

  // A crawler revalidates the copy it indexed: a snapshot stored before the route said noindex
  // keeps its ETag, so the 304 is where the crawler hears of it (RFC 9111 §4.3.4: a 304's
  // headers update the stored response's), at every form and at the shell alike.
  it('is on a 304, of a snapshot and of the shell', async () => {
    const html = '<!DOCTYPE html><html><head><title>Stored</title></head><body></body></html>';
    const kept: StoredSnapshot = { status: 200, html, etag: etagOf(html), renderedAt: Date.now(), build: 'v1' };
    const store: SnapshotStore = { get: () => kept, set: () => {}, delete: () => {}, keys: () => [] };
    for (const cleanUrls of ['bots', 'all', 'shell'] as const) {
      const { port } = await serve({ cleanUrls, cache: { store }, build: 'v1' });
      for (const [target, agent] of [
        ['/?_escaped_fragment_=/search', undefined],
        ['/search?_escaped_fragment_=', undefined],
        ['/search', BOT],
        ['/search', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0 Safari/537.36'],
      ] as const) {
        const headers: Record<string, string> = agent ? { 'User-Agent': agent } : {};
        const first = await request(port, target, { headers });
        expect([cleanUrls, target, first.status, first.headers['x-robots-tag']]).toEqual([cleanUrls, target, 200, 'noindex']);
        const again = await request(port, target, { headers: { ...headers, 'If-None-Match': String(first.headers.etag) } });
        expect([cleanUrls, target, again.status, again.headers['x-robots-tag']]).toEqual([cleanUrls, target, 304, 'noindex']);
        const dated = await request(port, target, { headers: { ...headers, 'If-Modified-Since': String(first.headers['last-modified']) } });
        expect([cleanUrls, target, dated.status, dated.headers['x-robots-tag']]).toEqual([cleanUrls, target, 304, 'noindex']);
      }
      // A state of no noindex route has none on its 304 either.
      const plain = await request(port, '/?_escaped_fragment_=/books/1');
      const revalidated = await request(port, '/?_escaped_fragment_=/books/1', {
        headers: { 'If-None-Match': String(plain.headers.etag) },
      });
      expect([revalidated.status, revalidated.headers['x-robots-tag']]).toEqual([304, undefined]);
    }
  });

  it('is on a redirect route’s answer', async () => {
    const { port } = await serve();
    const moved = await request(port, '/?_escaped_fragment_=/moved');
    expect(moved.status).toBe(301);
    expect(moved.headers['x-robots-tag']).toBe('noindex');
  });

  // A crawler that runs the shell's script (one that no user agent list names, or Googlebot in
  // 'shell' mode) indexes the state the app draws: the shell at a noindex state's URL says noindex.
  it.each(['bots', 'shell'] as const)(
    'is on the shell at a noindex route’s URL alone, gzipped or not (cleanUrls %s)',
    async (cleanUrls) => {
      // A shell large enough to be gzipped for a client that accepts it.
      const shell = SHELL.replace('</main>', `</main><p>${'filler '.repeat(300)}</p>`);
      const { port } = await serve({ cleanUrls, shell });
      const page = (reply: Reply) => (reply.headers['content-encoding'] === 'gzip' ? gunzipSync(reply.bytes).toString('utf8') : reply.body);
      for (const round of ['first', 'kept']) {
        for (const encoding of ['identity', 'gzip']) {
          const headers = { 'Accept-Encoding': encoding, ...(cleanUrls === 'shell' ? { 'User-Agent': BOT } : {}) };
          const noindex = await request(port, '/search?q=dune', { headers });
          const plain = await request(port, '/books/1', { headers });
          expect([round, encoding, noindex.status, plain.status]).toEqual([round, encoding, 200, 200]);
          expect(noindex.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
          expect(noindex.headers['x-robots-tag']).toBe('noindex');
          expect(plain.headers['x-robots-tag']).toBeUndefined();
          // The shell's own page, the same at both: its robots meta is the shell's.
          expect(page(noindex)).toBe(page(plain));
          expect(robots(page(plain))).toEqual(['max-snippet:50']);
          expect(page(plain)).toContain('filler filler');
        }
      }
      // Not an unmatched URL's shell (404, never indexed).
      const lost = await request(port, '/nowhere');
      expect([lost.status, lost.headers['x-robots-tag']]).toEqual([404, undefined]);
    },
  );

  it('is read for the state, whatever query it was asked with', async () => {
    const { port } = await serve();
    for (const target of ['/?_escaped_fragment_=/search?q=dune', '/search?q=dune&utm_source=x&_escaped_fragment_=']) {
      const reply = await request(port, target);
      expect(reply.status).toBe(200);
      expect(reply.headers['x-robots-tag']).toBe('noindex');
    }
  });
});

describe('a site with a noindex route, as verify crawls it', () => {
  it('lists no noindex state in sitemap(routes.locations()), and verify, finding one by a link, reports nothing', async () => {
    const routes = createRoutes([
      { path: '/', title: 'Home', render: () => '<a href="/search">Search</a> <a href="/books/1">Book</a>' },
      { path: '/books/:id', title: 'Book', entries: () => [{ id: '1' }], render: () => '<a href="/">Home</a>' },
      { path: '/search', noindex: true, title: 'Search', render: () => '<a href="/">Home</a>' },
    ]);
    const server = await listen((req, res) => {
      if (req.url === '/sitemap.xml')
        return void sitemap(routes.locations(), { origin: server.base }).then(([file]) =>
          res.writeHead(200, { 'content-type': 'application/xml' }).end(file?.xml),
        );
      void handler.node(req, res);
    });
    running.push(server);
    const handler = createSnapshotHandler({ routes, origin: server.base, onError: () => {} });
    const report = await verify(`${server.base}/`, { agents: false });
    expect(report.sitemap?.entries).toBe(2);
    expect(report.states.map((state) => [state.url.slice(server.base.length), state.status, state.noindex ?? false])).toEqual([
      ['/', 200, false],
      ['/books/1', 200, false],
      ['/search', 200, true],
    ]);
    expect(report.problems).toBe(0);
  });
});
