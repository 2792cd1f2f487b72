import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchProblem, OffOrigin, siteFetch, TooLarge } from '../../src/verify/fetch.js';
import { TooDeep } from '../../src/verify/tree.js';

// The most bytes read of a body in these tests, and the most a streaming answer sends if nobody stops it.
const LIMIT = 1024 * 1024;
const FOREVER = 256 * 1024 * 1024;

/** What the server handed its socket of each streamed answer, and when the answer closed. */
const streams: { written: number; closed: Promise<void> }[] = [];

/**
 * Streams `x` in 64 KiB parts (chunked, no Content-Length unless `declared`) while the client reads,
 * waiting for each part to drain: FOREVER bytes at most, counted as they are handed to the socket.
 */
function stream(res: ServerResponse, declared?: number): void {
  const sent = { written: 0, closed: new Promise<void>((resolve) => res.once('close', resolve)) };
  streams.push(sent);
  res.writeHead(200, { 'content-type': 'text/html', ...(declared !== undefined && { 'content-length': declared }) });
  const part = Buffer.alloc(64 * 1024, 'x');
  void (async () => {
    while (sent.written < FOREVER && !res.destroyed) {
      sent.written += part.length;
      if (!res.write(part)) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
    }
    res.end();
  })();
}

// A site whose paths each answer one way: redirects on and off the origin, a loop, and bodies around the limit.
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
    if (req.url === '/at-limit') return res.writeHead(200).end(Buffer.alloc(LIMIT, 'x'));
    if (req.url === '/past-limit') return res.writeHead(200).end(Buffer.alloc(LIMIT + 1, 'x'));
    if (req.url === '/forever') return stream(res);
    if (req.url === '/declared') return stream(res, FOREVER);
    // é split between two writes: a part ends inside a character.
    if (req.url === '/split') return res.writeHead(200).write(Buffer.from([0x61, 0xc3]), () => res.end(Buffer.from([0xa9, 0x62])));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

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
    const answer = await siteFetch(origin, 5000, 1024)(`${origin}/here`, { follow: false });
    expect([answer.status, answer.location]).toEqual([302, '/there']);
  });

  it('refuses a redirect off the origin with OffOrigin, and a redirect loop after five hops', async () => {
    const get = siteFetch(origin, 5000, 1024);
    await expect(get(`${origin}/away`)).rejects.toBeInstanceOf(OffOrigin);
    await expect(get(`${origin}/loop`)).rejects.toThrow('redirects more than 5 times');
    await expect(get('http://example.com/')).rejects.toBeInstanceOf(OffOrigin);
  });

  it('refuses a body past the limit with TooLarge naming the URL and the limit, or with cut reads exactly up to it', async () => {
    const get = siteFetch(origin, 5000, 1000);
    const refused = get(`${origin}/big`);
    await expect(refused).rejects.toBeInstanceOf(TooLarge);
    await expect(refused).rejects.toMatchObject({ url: `${origin}/big`, limit: 1000, message: `${origin}/big sends more than 1000 bytes` });
    const cut = await get(`${origin}/big`, { limit: 1000, cut: true });
    expect([cut.bytes, cut.body.length]).toEqual([1000, 1000]);
  });

  it('reads a body of exactly the limit whole, and refuses one a byte longer', async () => {
    const get = siteFetch(origin, 5000, LIMIT);
    const whole = await get(`${origin}/at-limit`);
    expect([whole.bytes, whole.body.length, whole.body.endsWith('x')]).toEqual([LIMIT, LIMIT, true]);
    await expect(get(`${origin}/past-limit`)).rejects.toBeInstanceOf(TooLarge);
  });

  it.each([
    ['refuses', '/forever', false],
    ['reads up to the limit with cut', '/forever', true],
    ['refuses from its Content-Length', '/declared', false],
  ])('%s an answer that streams for ever, and cancels it: the server gets to write a bounded part of it', async (_, path, cut) => {
    const get = siteFetch(origin, 30_000, LIMIT);
    const answer = get(`${origin}${path}`, { cut });
    if (cut) expect((await answer).bytes).toBe(LIMIT);
    else await expect(answer).rejects.toMatchObject({ limit: LIMIT });
    const sent = streams.at(-1);
    await sent?.closed;
    // What the socket buffers hold besides (a few MiB on loopback) is all it could send past the limit.
    expect(sent?.written).toBeLessThan(LIMIT + 16 * 1024 * 1024);
  });

  it('hands the body to onText as it streams, decoded across parts, and gives no body then', async () => {
    const parts: string[] = [];
    const answer = await siteFetch(origin, 5000, 1024)(`${origin}/split`, { onText: (text) => parts.push(text) });
    expect([parts.join(''), answer.body, answer.bytes]).toEqual(['aéb', '', 4]);
  });

  it('says it is a browser unless told which agent it is', async () => {
    agents.length = 0;
    const get = siteFetch(origin, 5000, 1024);
    await get(`${origin}/there`);
    await get(`${origin}/there`, { userAgent: 'Googlebot/2.1' });
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

describe('fetchProblem', () => {
  it.each([
    [new OffOrigin('https://a.b/x leads off the site'), { code: 'OFF_ORIGIN', message: 'https://a.b/x leads off the site' }],
    [
      new TooLarge('https://a.b/x', 5),
      {
        code: 'PAGE_TOO_LARGE',
        message:
          'https://a.b/x sends more than 5 bytes, the most verify reads of a page: the rest was not read, nor the state checked (raise --max-page-bytes to check it)',
      },
    ],
    [
      new TooDeep(),
      {
        code: 'PAGE_TOO_DEEP',
        message:
          "https://a.b/#!/x nests elements more than 262144 deep, the deepest verify reads (Chromium's parser nests no deeper than 512): the state was not checked",
      },
    ],
    [new Error('fetch failed'), { code: 'FETCH_FAILED', message: 'https://a.b/#!/x: fetch failed' }],
  ])('gives the problem of %s', (error, problem) => {
    expect(fetchProblem('https://a.b/#!/x', error)).toEqual(problem);
  });
});
