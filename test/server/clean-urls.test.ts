import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { notFound, redirect } from '../../src/routes/outcome.js';
import { createRoutes } from '../../src/routes/table.js';
import { createSnapshotHandler, type CleanUrls, type SnapshotHandlerOptions } from '../../src/server/handler.js';
import { SnapshotError } from '../../src/server/errors.js';
import { esc, headerText, listen, request, type Running } from './helpers.js';

// What a clean URL gets in each `cleanUrls` mode, for a bot, a browser and a request with no
// User-Agent: status, body, Vary, and which answers share one render.

const ORIGIN = 'https://example.com';
const SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Books</title><script type="module" src="/app.js"></script></head>\n' +
  '<body><main id="app"><p>Loading…</p></main></body></html>\n';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

function table(loads: string[], data: (id: string) => unknown = (id) => ({ name: `Name of ${id}` })) {
  return createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        name: 'book',
        title: ({ params }) => `Book ${params.id}`,
        load: ({ params }) => {
          loads.push(String(params.id));
          if (params.id === '0') throw notFound();
          return data(String(params.id));
        },
        render: ({ data: d }) => `<h1>${esc(JSON.stringify(d))}</h1>`,
      },
      { path: '/old/:id', load: ({ params }) => Promise.reject(redirect(`/books/${params.id}`, 301)) },
      { path: '/book/:id', redirect: '/books/:id' },
      // A redirect route that keeps one query key: its target and the location it is given are the state's.
      {
        path: '/shelf/:id',
        queryKeys: ['page'],
        redirect: ({ params, location }) => `/books/${params.id}?from=${encodeURIComponent(location)}`,
      },
    ],
    { notFound: { title: 'Not found', render: () => '<h1>Nothing here</h1>' } },
  );
}

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function serve(options: Partial<SnapshotHandlerOptions> = {}, data?: (id: string) => unknown) {
  const loads: string[] = [];
  const errors: unknown[] = [];
  const handler = createSnapshotHandler({
    routes: table(loads, data),
    origin: ORIGIN,
    shell: SHELL,
    onError: (e) => errors.push(e),
    ...options,
  });
  const server = await listen((req, res) => void handler.node(req, res));
  running.push(server);
  return { handler, port: server.port, loads, errors };
}

const agentHeaders = (agent: string | null): Record<string, string> => (agent === null ? {} : { 'User-Agent': agent });

/** Title, meta fragment tags, the data script and the outlet, read with a real parser. */
function read(html: string) {
  type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
  const found = { title: '', meta: 0, data: null as unknown, outlet: '', rendered: null as string | null };
  const text = (n: Node): string => (n.value ?? '') + (n.childNodes ?? []).map(text).join('');
  const walk = (n: Node) => {
    const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value;
    if (n.tagName === 'title') found.title = text(n);
    if (n.tagName === 'meta' && attr('name') === 'fragment') found.meta++;
    if (n.tagName === 'script' && attr('id') === 'crawlable-router-data') found.data = JSON.parse(text(n));
    if (attr('id') === 'app') {
      found.outlet = text(n);
      found.rendered = attr('data-router-rendered') ?? null;
    }
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

type Agent = 'bot' | 'browser' | 'none';
const AGENTS: Record<Agent, string | null> = { bot: BOT, browser: BROWSER, none: null };
// mode, agent: whether the answer is the rendered state, and the Vary it carries.
const MATRIX: [CleanUrls, Agent, boolean, string][] = [
  ['bots', 'bot', true, 'User-Agent, Accept-Encoding'],
  ['bots', 'browser', false, 'User-Agent, Accept-Encoding'],
  ['bots', 'none', false, 'User-Agent, Accept-Encoding'],
  ['all', 'bot', true, 'Accept-Encoding'],
  ['all', 'browser', true, 'Accept-Encoding'],
  ['all', 'none', true, 'Accept-Encoding'],
  ['shell', 'bot', false, 'Accept-Encoding'],
  ['shell', 'browser', false, 'Accept-Encoding'],
  ['shell', 'none', false, 'Accept-Encoding'],
];

describe.each(MATRIX)('cleanUrls %s, %s user agent', (cleanUrls, agent, rendered, vary) => {
  const headers = agentHeaders(AGENTS[agent]);

  it(`answers a found state ${rendered ? 'rendered' : 'with the shell'}, 200`, async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/books/7', { headers });
    expect(reply.status).toBe(200);
    expect(reply.headers.vary).toBe(vary);
    const page = read(reply.body);
    if (rendered) {
      expect(page).toMatchObject({ title: 'Book 7', meta: 0, outlet: '{"name":"Name of 7"}' });
      expect(page.data).toEqual(cleanUrls === 'all' ? { location: '/books/7', status: 200, data: { name: 'Name of 7' } } : null);
      expect(page.rendered).toBe(cleanUrls === 'all' ? '/books/7' : null);
      // The shell's title, for the routes without one, on the <title> the state's replaced.
      expect(reply.body).toContain('<title data-router-title="Books">Book 7</title>');
    } else {
      expect(page).toEqual({ title: 'Books', meta: 1, data: null, outlet: 'Loading…', rendered: null });
    }
  });

  it(`answers a missing state ${rendered ? 'rendered' : 'with the shell'}, 404`, async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/no/such/page', { headers });
    expect(reply.status).toBe(404);
    expect(reply.headers.vary).toBe(vary);
    expect(read(reply.body)).toMatchObject(
      rendered ? { title: 'Not found', meta: 0, outlet: 'Nothing here' } : { title: 'Books', meta: 1 },
    );
  });

  it(`answers a state whose load throws notFound() ${rendered ? 'rendered, 404' : 'with the shell, 200 (only a render can know)'}`, async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/books/0', { headers });
    expect([reply.status, reply.headers.vary]).toEqual([rendered ? 404 : 200, vary]);
    expect(read(reply.body)).toMatchObject(
      rendered ? { title: 'Not found', meta: 0, outlet: 'Nothing here' } : { title: 'Books', meta: 1 },
    );
  });

  it(`answers a state whose load redirects ${rendered ? 'with the 301 to the clean URL of the target' : 'with the shell'}`, async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/old/7?x=1', { headers });
    expect([reply.status, reply.headers.location, reply.headers.vary]).toEqual(
      rendered ? [301, `${ORIGIN}/books/7`, vary] : [200, undefined, vary],
    );
  });

  it('answers a redirect route with its 301 to the clean URL of the target', async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/book/7', { headers });
    expect([reply.status, reply.headers.location, reply.headers.vary]).toEqual([301, `${ORIGIN}/books/7`, vary]);
  });

  it('answers a redirect route at a URL with undeclared query keys with the target of its state, as a bot, a browser and the client get it', async () => {
    const { port } = await serve({ cleanUrls });
    const reply = await request(port, '/shelf/7?page=2&utm_source=mail', { headers });
    expect([reply.status, reply.headers.location]).toEqual([301, `${ORIGIN}/books/7?from=%2Fshelf%2F7%3Fpage%3D2`]);
  });

  it('keeps Vary on a 304 and on HEAD', async () => {
    const { port } = await serve({ cleanUrls });
    const first = await request(port, '/books/7', { headers });
    const again = await request(port, '/books/7', { headers: { ...headers, 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toBe(vary);
    const head = await request(port, '/books/7', { method: 'HEAD', headers });
    expect([head.status, head.headers.vary, head.body]).toEqual([200, vary, '']);
  });
});

describe('one cache for a state, whatever the form', () => {
  it('renders a state once for its ugly URL and a bot at its clean URL, and never gives a browser the bot answer', async () => {
    const { port, loads } = await serve({ cleanUrls: 'bots' });
    const ugly = await request(port, '/?_escaped_fragment_=/books/3');
    const bot = await request(port, '/books/3', { headers: { 'User-Agent': BOT } });
    const browser = await request(port, '/books/3', { headers: { 'User-Agent': BROWSER } });
    expect(loads).toEqual(['3']);
    expect(bot.body).toBe(ugly.body);
    expect(bot.headers.etag).toBe(ugly.headers.etag);
    expect(ugly.headers.vary).toBe('Accept-Encoding');
    expect(read(browser.body).meta).toBe(1);
    expect(browser.headers.etag).not.toBe(bot.headers.etag);
    // The browser's validator is the shell's: a bot's ETag never makes its copy current.
    const revalidated = await request(port, '/books/3', { headers: { 'User-Agent': BROWSER, 'If-None-Match': String(bot.headers.etag) } });
    expect([revalidated.status, read(revalidated.body).meta]).toEqual([200, 1]);
  });

  it('serves the same cached page with gzip to bots that accept it', async () => {
    const { port, loads } = await serve({ cleanUrls: 'bots' }, (id) => ({ name: `Name of ${id}`, text: 'x'.repeat(4000) }));
    const plain = await request(port, '/books/5', { headers: { 'User-Agent': BOT } });
    const zipped = await request(port, '/books/5', { headers: { 'User-Agent': BOT, 'Accept-Encoding': 'gzip' } });
    expect(loads).toEqual(['5']);
    expect([zipped.headers['content-encoding'], zipped.headers.vary]).toEqual(['gzip', 'User-Agent, Accept-Encoding']);
    expect(plain.headers.vary).toBe('User-Agent, Accept-Encoding');
  });

  it("in 'all' mode gives the ugly URL the same page as the clean URL, rendered once", async () => {
    const { port, loads } = await serve({ cleanUrls: 'all' });
    const clean = await request(port, '/books/9', { headers: { 'User-Agent': BROWSER } });
    const ugly = await request(port, '/?_escaped_fragment_=/books/9');
    expect(loads).toEqual(['9']);
    expect(ugly.body).toBe(clean.body);
  });
});

describe("'all' mode, a state whose render fails", () => {
  it('answers its clean URL with the shell and the failure’s status (500, 504, 503), never stored; the ugly URL keeps the plain page', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let endSlow = () => {};
    const slowEnds = new Promise<never>((_, reject) => (endSlow = () => reject(new Error('too late'))));
    const { port, errors } = await serve({ cleanUrls: 'all', timeoutMs: 300, queue: { concurrency: 1, maxWaiting: 0 } }, (id) => {
      if (id === 'slow') return slowEnds;
      if (id === 'held') return held.then(() => ({ name: 'held' }));
      throw new Error('the database is down');
    });
    for (const agent of [BROWSER, BOT]) {
      const answer = await request(port, '/books/7', { headers: { 'User-Agent': agent } });
      expect(answer.status).toBe(500);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(read(answer.body)).toEqual({ title: 'Books', meta: 1, data: null, outlet: 'Loading…', rendered: null });
    }
    expect(errors).toHaveLength(2); // each request rendered again: a failure is never cached
    const ugly = await request(port, '/?_escaped_fragment_=/books/7');
    expect(ugly.status).toBe(500);
    expect(ugly.body).not.toContain('Loading…');
    const slow = await request(port, '/books/slow', { headers: { 'User-Agent': BROWSER } });
    expect([slow.status, read(slow.body).outlet]).toEqual([504, 'Loading…']);
    // Its load ends late: while it ran on, it counted against the queue's one place (503 for all).
    endSlow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One render holds the only slot and none may wait: the next state is refused, with Retry-After.
    const holding = request(port, '/books/held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const busy = await request(port, '/books/8', { headers: { 'User-Agent': BROWSER } });
    expect([busy.status, busy.headers['retry-after'], read(busy.body).outlet]).toEqual([503, '5', 'Loading…']);
    release();
    expect((await holding).status).toBe(200);
  });
});

describe('hostile requests', () => {
  const hostile: [string, string | null][] = [
    ['a 100 kB agent', 'Googlebot/2.1 ' + 'x'.repeat(100_000)],
    ['an agent of high bytes', 'Mozilla/5.0 \u00ff\u00e9\u0080 bot'],
    ['an agent that is HTML', '"><script>alert(1)</script> Googlebot'],
    ['no agent', null],
  ];
  it.each(hostile.flatMap(([name, agent]) => (['bots', 'all', 'shell'] as const).map((mode) => [name, mode, agent] as const)))(
    'answers %s in %s mode with today’s statuses and never echoes it',
    async (_, cleanUrls, agent) => {
      const { port } = await serve({ cleanUrls });
      const headers: Record<string, string> = agent === null ? {} : { 'User-Agent': agent };
      for (const [target, status] of [
        ['/books/1', 200],
        ['/no/page', 404],
        ['/books/%zz', 200],
        ['/%2e%2e/%2e%2e/etc/passwd', 404],
        ['/?_escaped_fragment_=%zz', 400],
      ] as const) {
        const reply = await request(port, target, { headers });
        expect([target, reply.status]).toEqual([target, status]);
        if (agent) expect(headerText(reply)).not.toContain(agent.slice(0, 40));
        if (agent) expect(reply.body).not.toContain('<script>alert(1)');
      }
    },
  );

  it('reads only the first 2048 characters of an agent: a bot name past them is a browser', async () => {
    const { port } = await serve({ cleanUrls: 'bots' });
    const late = await request(port, '/books/1', { headers: { 'User-Agent': 'Mozilla/5.0 ' + ' '.repeat(2100) + 'Googlebot/2.1' } });
    expect(read(late.body).meta).toBe(1);
  });
});

describe('options', () => {
  it('asks isBot about the User-Agent, null when there is none', async () => {
    const asked: (string | null)[] = [];
    const { port } = await serve({ isBot: (ua) => (asked.push(ua), ua === 'my-preview-bot') });
    expect(read((await request(port, '/books/1', { headers: { 'User-Agent': 'my-preview-bot' } })).body).meta).toBe(0);
    expect(read((await request(port, '/books/1', { headers: { 'User-Agent': BOT } })).body).meta).toBe(1);
    expect(read((await request(port, '/books/1')).body).meta).toBe(1);
    expect(asked).toEqual(['my-preview-bot', BOT, null]);
  });

  it('leaves browsers to the next handler with serveShell: false, and still answers bots and redirect routes', async () => {
    const { port } = await serve({ serveShell: false });
    expect((await request(port, '/books/1')).body).toBe('Not Found\n');
    expect(read((await request(port, '/books/1', { headers: { 'User-Agent': BOT } })).body).title).toBe('Book 1');
    // A redirect route's move is no shell: browsers get its 301 too, as bots do.
    const moved = await request(port, '/book/7?x=1');
    expect([moved.status, moved.headers.location, moved.headers.vary]).toEqual([
      301,
      `${ORIGIN}/books/7?x=1`,
      'User-Agent, Accept-Encoding',
    ]);
  });

  it.each([
    [{ cleanUrls: 'some' as CleanUrls }, "cleanUrls must be 'bots', 'all' or 'shell', got \"some\""],
    [{ isBot: 'googlebot' as unknown as () => boolean }, 'isBot must be a function of the User-Agent header'],
    [
      { cleanUrls: 'all' as const, nonce: 'a" onload="x' },
      'nonce must be base64 text (a CSP nonce-source) or a function of the request that gives it, got "a\\" onload=\\"x"',
    ],
  ])('refuses %j', (options, message) => {
    const create = () => createSnapshotHandler({ routes: table([]), origin: ORIGIN, ...options });
    expect(create).toThrow(SnapshotError);
    expect(create).toThrow(message);
  });
});
