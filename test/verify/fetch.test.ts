import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffOrigin, siteFetch } from '../../src/verify/fetch.js';

// A site whose paths each answer one way: redirects on and off the origin, a loop, and a big body.
let server: Server;
let origin = '';
const agents: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    agents.push(String(req.headers['user-agent']));
    const to = (location: string) => res.writeHead(302, { location }).end();
    if (req.url === '/here') return to('/there');
    if (req.url === '/there')
      return res.writeHead(200, { 'content-type': 'text/html', vary: 'User-Agent', 'x-robots-tag': 'noindex' }).end('<p>there</p>');
    if (req.url === '/away') return to('http://example.com/');
    if (req.url?.startsWith('/loop')) return to(`/loop${req.url.length}`);
    if (req.url === '/big') return res.writeHead(200).end('x'.repeat(100_000));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('siteFetch', () => {
  it('follows a redirect on the origin and gives status, body, bytes and the headers verify reads', async () => {
    const get = siteFetch(origin, 5000, 1024);
    expect(await get(`${origin}/here`)).toEqual({
      status: 200,
      body: '<p>there</p>',
      bytes: 12,
      type: 'text/html',
      location: null,
      vary: 'User-Agent',
      robots: 'noindex',
    });
  });

  it('with follow false gives the redirect itself, with its Location', async () => {
    const answer = await siteFetch(origin, 5000, 1024)(`${origin}/here`, 1024, false, false);
    expect([answer.status, answer.location]).toEqual([302, '/there']);
  });

  it('refuses a redirect off the origin with OffOrigin, and a redirect loop after five hops', async () => {
    const get = siteFetch(origin, 5000, 1024);
    await expect(get(`${origin}/away`)).rejects.toBeInstanceOf(OffOrigin);
    await expect(get(`${origin}/loop`)).rejects.toThrow('redirects more than 5 times');
    await expect(get('http://example.com/')).rejects.toBeInstanceOf(OffOrigin);
  });

  it('refuses a body past the limit, or with cut reads exactly up to it', async () => {
    const get = siteFetch(origin, 5000, 1000);
    await expect(get(`${origin}/big`)).rejects.toThrow('sends more than 1000 bytes');
    const cut = await get(`${origin}/big`, 1000, true);
    expect([cut.bytes, cut.body.length]).toEqual([1000, 1000]);
  });

  it('says it is a browser unless told which agent it is', async () => {
    agents.length = 0;
    const get = siteFetch(origin, 5000, 1024);
    await get(`${origin}/there`);
    await get(`${origin}/there`, 1024, false, true, 'Googlebot/2.1');
    expect(agents[0]).toMatch(/Mozilla/);
    expect(agents[1]).toBe('Googlebot/2.1');
  });
});

describe('siteFetch on a site that does not answer', () => {
  it("names the network's cause (undici says only 'fetch failed')", async () => {
    // A port just closed: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(siteFetch(at, 5000, 1024)(`${at}/`)).rejects.toThrow(/^fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });
});
