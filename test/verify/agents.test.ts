import { afterEach, describe, expect, it } from 'vitest';
import { isUglyUrl, toPrettyUrl } from '../../src/url/codec.js';
import { toLocation, toUrl } from '../../src/url/location.js';
import { createRoutes } from '../../src/routes/table.js';
import { createSnapshotHandler, type CleanUrls } from '../../src/server/handler.js';
import { BOT_AGENT, BROWSER_AGENT, cleanUrlOf, crawlAsAgents, type AgentAnswer } from '../../src/verify/agents.js';
import { verify } from '../../src/verify/crawl.js';
import { listen, type Running } from '../server/helpers.js';

describe('cleanUrlOf', () => {
  it.each([
    ['https://a.b/app/#!/books/1?x=1', 'https://a.b/app/books/1?x=1'],
    ['https://a.b/#!/books/1', 'https://a.b/books/1'],
    ['https://a.b/#!books', 'https://a.b/books'],
    ['https://a.b/app/index.html?v=2#!/q', 'https://a.b/app/q'],
    ['https://a.b/books/1#reviews', 'https://a.b/books/1'],
    ['https://a.b/books/1?q=2', 'https://a.b/books/1?q=2'],
  ])('reads %s as %s', (url, clean) => {
    expect(cleanUrlOf(url)).toBe(clean);
  });
});

const SHELL = '<!DOCTYPE html><html><head><title>App</title></head><body><div id="app"></div></body></html>';
const RENDERED = '<!DOCTYPE html><html><head><title>Book</title><meta name="description" content="A book"></head><body>Book</body></html>';
const shell = (status = 200): AgentAnswer => ({
  status,
  body: SHELL.replace('<title>', '<meta name="fragment" content="!"><title>'),
  vary: 'User-Agent, Accept-Encoding',
});
const page = (status = 200, body = RENDERED, vary: string | null = 'User-Agent'): AgentAnswer => ({ status, body, vary });

describe('crawlAsAgents', () => {
  it.each([
    ['a bot snapshot and a browser shell, both saying Vary', page(), shell(), 200, []],
    ['the same page for both, no Vary needed', page(200, RENDERED, null), page(200, RENDERED, null), 200, []],
    ['Vary: * as saying it', page(200, RENDERED, '*'), shell(), 200, []],
    ['a bot page with no description', page(200, '<title>Book</title>'), shell(), 200, ['EMPTY_FOR_BOTS']],
    ['a bot page with no title', page(200, '<meta name="description" content="x">'), shell(), 200, ['EMPTY_FOR_BOTS']],
    ['the empty shell for the bot too', shell(), shell(), 200, ['EMPTY_FOR_BOTS']],
    ['a bot 404 for a state crawled 200', page(404), shell(404), 200, ['STATUS_DIFFERS']],
    [
      'a rendered browser page with another status than the bot',
      page(200),
      page(404, RENDERED.replace('Book<', 'Gone<')),
      200,
      ['STATUS_DIFFERS'],
    ],
    ['a shell 200 where the bot gets 404 (only a render knows)', page(404), shell(200), 404, []],
    ['answers that differ without Vary on the browser answer', page(), { ...shell(), vary: 'Accept-Encoding' }, 200, ['MISSING_VARY']],
  ] as const)('reports %s', async (_, bot, browser, status, codes) => {
    const asked: string[] = [];
    const { problems, clean } = await crawlAsAgents('https://a.b/app/#!/books/1', status, async (url, agent) => {
      asked.push(`${url} ${agent}`);
      return agent === BOT_AGENT ? bot : browser;
    });
    expect(problems.map((p) => p.code)).toEqual(codes);
    expect(asked.sort()).toEqual([`https://a.b/app/books/1 ${BOT_AGENT}`, `https://a.b/app/books/1 ${BROWSER_AGENT}`].sort());
    expect(clean.url).toBe('https://a.b/app/books/1');
  });
});

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

/**
 * A site on the snapshot handler in `cleanUrls` mode; `strip` drops Vary from every answer, as a
 * misconfigured proxy would; `moveUgly` answers an ugly URL that names a state with a 301 to its
 * clean URL, as a site that left #! may (docs/serving-crawlers.md).
 */
async function site(cleanUrls: CleanUrls, strip = false, moveUgly = false) {
  const routes = createRoutes(
    [
      {
        path: '/',
        title: 'Home',
        head: () => ({ meta: [{ name: 'description', content: 'The home page' }] }),
        render: () => '<a href="/books/1">one</a>',
      },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id}`,
        head: () => ({ meta: [{ name: 'description', content: 'A book' }] }),
        render: () => 'A book',
      },
    ],
    { notFound: { title: 'Not found', render: () => 'Nothing' } },
  );
  const handler = createSnapshotHandler({ routes, origin: 'http://127.0.0.1', cleanUrls, shell: SHELL });
  const server = await listen((req, res) => {
    const pretty = moveUgly && isUglyUrl(req.url ?? '') ? toPrettyUrl(req.url ?? '') : '';
    if (pretty.includes('#!')) return void res.writeHead(301, { location: server.base + toUrl(toLocation(pretty) ?? '/') }).end();
    const writeHead = res.writeHead.bind(res);
    if (strip)
      res.writeHead = ((status: number, headers: Record<string, string>) =>
        writeHead(status, Object.fromEntries(Object.entries(headers).filter(([n]) => !/^vary$/i.test(n))))) as typeof res.writeHead;
    void handler.node(req, res);
  });
  running.push(server);
  return server.base;
}

describe('verify as the bots', () => {
  it("finds nothing wrong with the handler in 'bots' mode, and reports both answers in the state", async () => {
    const origin = await site('bots');
    const report = await verify(`${origin}/`);
    expect(report.states.map((s) => [s.url.slice(origin.length), s.problems.map((p) => p.code)])).toEqual([
      ['/', []],
      ['/books/1', []],
    ]);
    // The scheme's crawl says it is a browser, so it still meets the shell and its meta tag.
    expect(report.states.map((s) => s.kind)).toEqual(['meta', 'meta']);
    expect(report.states[1]?.clean).toEqual({
      url: `${origin}/books/1`,
      bot: { status: 200, title: 'Book 1', description: 'A book' },
      browser: { status: 200, shell: true },
      differ: true,
    });
  });

  it("finds nothing wrong in 'all' mode, where every agent gets the same page", async () => {
    const origin = await site('all');
    const report = await verify(`${origin}/`);
    expect(report.problems).toBe(0);
    expect(report.states[0]?.clean?.differ).toBe(false);
  });

  it("reports EMPTY_FOR_BOTS for every state in 'shell' mode", async () => {
    const origin = await site('shell');
    const report = await verify(`${origin}/`);
    expect(report.states.map((s) => s.problems.map((p) => p.code))).toEqual([['EMPTY_FOR_BOTS'], ['EMPTY_FOR_BOTS']]);
  });

  it('checks a #! state whose ugly URL moves to its own clean URL at that clean URL, with no STATUS_DIFFERS for the move', async () => {
    const origin = await site('bots', false, true);
    const report = await verify(`${origin}/#!/books/1`);
    expect(report.states.map((s) => [s.url.slice(origin.length), s.status, s.problems.map((p) => p.code)])).toEqual([
      ['/#!/books/1', 301, []],
      ['/books/1', 200, []],
    ]);
  });

  it('reports MISSING_VARY when something drops the header', async () => {
    const origin = await site('bots', true);
    const report = await verify(`${origin}/`);
    expect(report.states.map((s) => s.problems.map((p) => p.code))).toEqual([['MISSING_VARY'], ['MISSING_VARY']]);
  });
});
