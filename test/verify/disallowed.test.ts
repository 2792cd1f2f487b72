import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsTxt } from '../../src/server/build/robots.js';
import { verify } from '../../src/verify/crawl.js';
import { formatReport } from '../../src/verify/report.js';

// A hashbang app whose robots.txt is what the library writes: its admin states are not for crawlers.
const page = (head: string, body: string) => `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const LINKS =
  '<a href="/#!/admin/users">users</a> <a href="/#!/books/1">book</a> <a href="/admin/settings">settings</a> <a href="/books/2">book 2</a> <a href="/shop.html">shop</a>';

let server: Server;
let origin = '';
let robots = '';
const asked: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, body: string, type = 'text/html') => res.writeHead(status, { 'content-type': type }).end(body);
    if (url.pathname === '/robots.txt') return send(200, robots, 'text/plain');
    if (url.pathname === '/sitemap.xml') return send(404, '');
    const fragment = url.searchParams.get('_escaped_fragment_');
    if (fragment !== null) return send(200, page(`<link rel="canonical" href="${origin}${fragment || '/'}">`, LINKS));
    // A page with the meta tag: its snapshot is at its ugly URL.
    if (url.pathname === '/' || url.pathname === '/shop.html') return send(200, page('<meta name="fragment" content="!">', LINKS));
    return send(200, page(`<link rel="canonical" href="${url.href}">`, 'a page'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const crawl = async (text: string) => {
  robots = text;
  asked.length = 0;
  const report = await verify(`${origin}/`, { agents: false });
  return { report, state: (path: string) => report.states.find((s) => s.url === origin + path) };
};

describe('verify and robots.txt', () => {
  it.each([
    ['/#!/admin/users', '/?_escaped_fragment_=/admin/users', 'pretty'],
    ['/admin/settings', '/admin/settings', 'plain'],
  ])("does not fetch %s, which robotsTxt({ disallow: ['/admin'] }) disallows at %s, and warns of it", async (path, fetched, kind) => {
    const { report, state } = await crawl(robotsTxt({ disallow: ['/admin'] }));
    expect(state(path)).toMatchObject({ kind, status: 0, fetched: origin + fetched, disallowed: true, problems: [] });
    expect(state(path)?.warnings.map((w) => w.code)).toEqual(['DISALLOWED']);
    expect(state(path)?.warnings[0]?.message).toContain(`robots.txt disallows ${origin}${fetched} for Googlebot (Disallow: /`);
    expect(asked).not.toContain(fetched);
    // A warning, not a problem: a site may mean it.
    expect(report.problems).toBe(0);
    expect(report.warnings).toBe(2);
  });

  it('fetches every state robotsTxt({ disallow }) leaves to crawlers', async () => {
    const { state } = await crawl(robotsTxt({ disallow: ['/admin'] }));
    for (const path of ['/', '/#!/books/1', '/books/2', '/shop.html'])
      expect(state(path), path).toMatchObject({ problems: [], warnings: [] });
    expect(state('/#!/books/1')).toMatchObject({ status: 200, kind: 'pretty' });
    expect(state('/books/2')?.disallowed).toBeUndefined();
  });

  it('matches the rules against the URL fetched: Disallow: /*_escaped_fragment_ keeps crawlers from every snapshot', async () => {
    const { report, state } = await crawl(robotsTxt({ optOut: true }));
    expect(state('/#!/books/1')).toMatchObject({ status: 0, disallowed: true, warnings: [{ code: 'DISALLOWED' }] });
    // A meta-tag page is indexed as it is, its snapshot not fetched; a clean URL is fetched.
    expect(state('/shop.html')).toMatchObject({ status: 200, kind: 'plain', fetched: `${origin}/shop.html` });
    expect(state('/shop.html')?.warnings[0]?.message).toContain(`, the snapshot of ${origin}/shop.html,`);
    expect(state('/books/2')).toMatchObject({ status: 200, warnings: [] });
    expect(asked.filter((url) => url.includes('_escaped_fragment_'))).toEqual([]);
    expect(report.problems).toBe(0);
  });

  it('lists a disallowed state apart in the text report, neither an error nor a failure', async () => {
    const { report } = await crawl('User-agent: *\nDisallow: /books/\n');
    const text = formatReport(report);
    expect(text).toMatch(new RegExp(`\\nrobots +plain +0 +unchecked +0 +${origin}/books/2\\n`));
    expect(text).toContain('Warnings:\nDISALLOWED  robots.txt disallows');
    expect(text).toContain('(5 × 200, 1 disallowed by robots.txt)');
    expect(text).not.toContain('failed');
  });

  it('reads the group for Googlebot over the one for *', async () => {
    const { state } = await crawl('User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /books/\n');
    expect(state('/')?.disallowed).toBeUndefined();
    expect(state('/books/2')?.disallowed).toBe(true);
  });

  it('does not fetch a clean URL robots.txt disallows for the bot and browser check', async () => {
    robots = 'User-agent: *\nDisallow: /books/\n';
    asked.length = 0;
    const report = await verify(`${origin}/#!/books/1`, { maxStates: 1 });
    expect(report.states[0]).toMatchObject({ status: 200, warnings: [{ code: 'DISALLOWED' }] });
    expect(report.states[0]?.warnings[0]?.message).toContain(`${origin}/books/1, the clean URL of ${origin}/#!/books/1,`);
    expect(report.states[0]?.clean).toBeUndefined();
    expect(asked).not.toContain('/books/1');
  });
});
