import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type TextReader } from '../../src/verify/crawl.js';
import { deadline, StateTimeout } from '../../src/verify/deadline.js';
import { listen, type Running } from '../server/helpers.js';

// A site with a state that never answers (its request is held until the server stops), one that
// answers its head and never ends its body, and one that answers at once.
let site: Running;
beforeAll(async () => {
  site = await listen((req, res) => {
    if (req.url === '/robots.txt' || req.url === '/sitemap.xml') return res.writeHead(404).end();
    if (req.url === '/hang') return;
    if (req.url === '/trickle') return res.writeHead(200, { 'content-type': 'text/html' }).write('<title>t</title>');
    if (req.url === '/fast') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>fast</title>');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>home</title><a href="/hang">hang</a> <a href="/trickle">trickle</a> <a href="/fast">fast</a>');
  });
});
afterAll(() => site.close());

const state = (report: Awaited<ReturnType<typeof verify>>, path: string) => report.states.find((s) => s.url === site.base + path);

describe('verify timeoutMs', () => {
  it.each(['/hang', '/trickle'])('reports %s past the timeout as FETCH_FAILED naming it, and crawls on', async (path) => {
    const report = await verify(`${site.base}/`, { agents: false, timeoutMs: 300 });
    expect(state(report, path)).toMatchObject({ status: 0, problems: [{ code: 'FETCH_FAILED' }] });
    expect(state(report, path)?.problems[0]?.message).toBe(
      `${site.base}${path}: the state took longer than 300 ms, the longest one state may take (verify --timeout)`,
    );
    expect(state(report, '/fast')).toMatchObject({ status: 200, problems: [] });
    expect(report.states).toHaveLength(4);
  });

  it("bounds a state's browser loads too: a reader is given what is left, and one that never answers ends the state", async () => {
    const given: number[] = [];
    const reader: TextReader = {
      visibleText: (_url, { timeoutMs }) => {
        given.push(timeoutMs ?? 0);
        // A reader that ignores its time limit, as a hung page would.
        return new Promise<string>(() => {});
      },
      close: () => Promise.resolve(),
    };
    const report = await verify(`${site.base}/`, { agents: false, timeoutMs: 500, browser: reader, maxStates: 1 });
    expect(given.length).toBeGreaterThan(0);
    expect(given.every((ms) => ms > 0 && ms <= 500)).toBe(true);
    expect(state(report, '/')?.problems.map((p) => p.code)).toEqual(['FETCH_FAILED']);
    expect(state(report, '/')?.problems[0]?.message).toContain('took longer than 500 ms');
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number])('refuses timeoutMs %s', async (timeoutMs) => {
    await expect(verify(`${site.base}/`, { timeoutMs })).rejects.toThrow(/^timeoutMs must be a number of milliseconds above 0/);
  });
});

describe('deadline', () => {
  it('aborts its signal with a StateTimeout naming the time, and gives no less than 1 ms left', async () => {
    const limit = deadline(1);
    await expect(limit.within(new Promise(() => {}))).rejects.toBeInstanceOf(StateTimeout);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.remaining()).toBe(1);
  });

  it('lets work that ends in time through, and a deadline past the longest timer waits rather than fires at once', async () => {
    const limit = deadline(2 ** 40);
    await expect(limit.within(Promise.resolve('done'))).resolves.toBe('done');
    expect(limit.signal.aborted).toBe(false);
    limit.end();
  });
});
