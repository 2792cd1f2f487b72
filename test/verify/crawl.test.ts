import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/verify/crawl.js';
import { verifyCommand } from '../../src/verify/report.js';

// A small hashbang site with one of each fault the crawler must report.
const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
let origin = '';
const snapshots: Record<string, [number, string]> = {
  '': [200, page('<title>Home</title><link rel="canonical" href="/">', '<a href="#!/a">a</a> <a href="#!/missing">gone</a> <a href="?_escaped_fragment_=/b">ugly</a> <a href="https://other.test/#!/x">out</a> <a href="mailto:x@y.z">mail</a>')],
  '/a': [200, page('<title>A</title><link rel="canonical" href="/#!/a">', '<a href="#!/b">b</a> <a href="/plain.html">plain</a> <a href="/meta404.html#top">meta</a> <a href="#!/u">u</a> <a href="#!/boom">boom</a>')],
  '/b': [200, page('<title>B</title>', '<a href="#!/a">back</a>')],
  '/u': [200, page('<title>U</title><link rel="canonical" href="/?_escaped_fragment_=/u">', '')],
  '/missing': [404, page('<title>Not found</title><link rel="canonical" href="/#!/missing">', 'no such state')],
  '/boom': [500, 'oops'],
};

let server: Server;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, body: string, type = 'text/html; charset=utf-8') => res.writeHead(status, { 'content-type': type }).end(body);
    if (url.pathname === '/robots.txt') return send(200, `User-agent: *\nSitemap: ${origin}/sitemap.xml\n`, 'text/plain');
    if (url.pathname === '/sitemap.xml') {
      return send(200, `<?xml version="1.0"?><urlset><url><loc>${origin}/#!/a</loc></url><url><loc>${origin}/?_escaped_fragment_=/c&amp;x=1</loc></url></urlset>`, 'application/xml');
    }
    if (url.pathname === '/plain.html') return send(200, page('<title>Plain</title>', '<meta name="fragment" content="!"><p>plain</p>'));
    if (url.pathname === '/meta404.html') return url.searchParams.has('_escaped_fragment_') ? send(404, 'none') : send(200, page('<meta name="fragment" content="!">', ''));
    const fragment = url.searchParams.get('_escaped_fragment_');
    if (url.pathname === '/' && fragment !== null) {
      const [status, body] = snapshots[fragment] ?? [404, 'unknown'];
      return send(status, body);
    }
    if (url.pathname === '/') return send(200, page('<meta name="fragment" content="!"><title>App</title>', '<script src="/app.js"></script>'));
    return send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const codes = (report: VerifyReport, url: string) => report.states.find((s) => s.url === url)?.problems.map((p) => p.code);

describe('verify', () => {
  let report: VerifyReport;
  beforeAll(async () => {
    report = await verify(`${origin}/`);
  });

  it('crawls the start page, its #! links, plain links and the sitemap, and nothing else', () => {
    expect(report.states.map((s) => s.url.slice(origin.length)).sort()).toEqual(
      ['/', '/#!/a', '/#!/b', '/#!/boom', '/#!/missing', '/#!/u', '/meta404.html', '/plain.html'].sort(),
    );
  });

  it.each([
    ['/', 'meta', 200, `/?_escaped_fragment_=`],
    ['/#!/a', 'pretty', 200, '/?_escaped_fragment_=/a'],
    ['/#!/missing', 'pretty', 404, '/?_escaped_fragment_=/missing'],
    ['/plain.html', 'plain', 200, '/plain.html'],
    ['/meta404.html', 'meta', 404, '/meta404.html?_escaped_fragment_='],
  ])('fetches %s as a %s state through its ugly URL (status %s)', (path, kind, status, fetched) => {
    expect(report.states.find((s) => s.url === origin + path)).toMatchObject({ kind, status, fetched: origin + fetched });
  });

  it.each([
    ['/', ['UGLY_LINK']],
    ['/#!/a', []],
    ['/#!/b', ['MISSING_CANONICAL']],
    ['/#!/u', ['UGLY_CANONICAL']],
    ['/#!/missing', []],
    ['/#!/boom', ['BAD_STATUS', 'MISSING_CANONICAL']],
    ['/plain.html', ['MALFORMED_META']],
    ['/meta404.html', ['META_NOT_200', 'MISSING_CANONICAL']],
  ])('reports for %s: %j', (path, expected) => {
    expect(codes(report, origin + path)).toEqual(expected);
  });

  it('reports an ugly URL in the sitemap and does not follow it', () => {
    expect(report.sitemap).toMatchObject({ url: `${origin}/sitemap.xml`, entries: 2, problems: [{ code: 'UGLY_SITEMAP' }] });
    expect(report.states.some((s) => s.url.includes('/c'))).toBe(false);
    expect(report.problems).toBe(9);
  });

  it('stops at maxStates', async () => {
    expect((await verify(`${origin}/`, { maxStates: 3 })).states).toHaveLength(3);
  });
});

describe('verify command', () => {
  it('prints a table and a summary, and exits 1 when it finds problems', async () => {
    let out = '';
    const progress: string[] = [];
    const code = await verifyCommand([`${origin}/`], { out: (t) => (out += t), progress: (t) => progress.push(t) });
    expect(code).toBe(1);
    expect(out).toMatch(/^status\s+kind\s+bytes\s+text\s+problems\s+state/);
    expect(out).toContain('UGLY_CANONICAL  the canonical link of');
    expect(out).toContain('8 states crawled (5 × 200, 2 × 404, 1 × 500), sitemap');
    expect(out.trimEnd().endsWith('9 problems')).toBe(true);
    expect(progress.some((p) => p.includes('[8/8]'))).toBe(true);
  });

  it('writes JSON with --json', async () => {
    let out = '';
    await verifyCommand([`${origin}/`, '--json'], { out: (t) => (out += t), progress: () => {} });
    expect(JSON.parse(out)).toMatchObject({ start: `${origin}/`, problems: 9, browser: false });
  });

  it('exits 2 with usage for a missing URL', async () => {
    let out = '';
    expect(await verifyCommand(['--json'], { out: (t) => (out += t), progress: () => {} })).toBe(2);
    expect(out).toContain('usage: crawlable-router verify URL');
  });
});
