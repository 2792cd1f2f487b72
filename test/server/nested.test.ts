import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/routes/table.js';
import type { StoredSnapshot, SnapshotStore } from '../../src/server/cache/store.js';
import { createSnapshotHandler, type SnapshotHandler, type SnapshotHandlerOptions } from '../../src/server/handler.js';
import { RENDER_HEADER } from '../../src/server/nested.js';
import type { RenderJob, SnapshotRenderer } from '../../src/server/render/render.js';
import { listen, request, type Running } from './helpers.js';

// A request made by a page being rendered (it carries RENDER_HEADER, which the headless gate sets)
// never starts a render: it gets a stored snapshot, else 508. Without the header, nothing changes.

const ORIGIN = 'https://example.com';
const SHELL =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Books</title></head>\n<body><main id="app"></main></body></html>\n';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

/** A renderer that counts its renders; `hold` keeps each one waiting until it is resolved. */
function counting(hold?: Promise<void>): SnapshotRenderer & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    async render(job: RenderJob) {
      started.push(job.location);
      await hold;
      return { html: `<!DOCTYPE html><html><body><h1>${job.location}</h1></body></html>` };
    },
  };
}

/** An answer as either adapter gave it: status, the headers the tests read, body. */
interface Got {
  status: number;
  cacheControl: string | null;
  vary: string | null;
  body: string;
}

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

/** A way to ask a handler, through its web `fetch` core or its Node adapter on a real server. */
type Adapter = (handler: SnapshotHandler) => Promise<(target: string, headers?: Record<string, string>, method?: string) => Promise<Got>>;

const ADAPTERS: Array<[string, Adapter]> = [
  [
    'fetch',
    async (handler) =>
      async (target, headers = {}, method = 'GET') => {
        const answer = await handler.fetch(new Request(ORIGIN + target, { method, headers }));
        if (!answer) throw new Error(`no answer for ${target}`);
        return {
          status: answer.status,
          cacheControl: answer.headers.get('cache-control'),
          vary: answer.headers.get('vary'),
          body: await answer.text(),
        };
      },
  ],
  [
    'node',
    async (handler) => {
      const server = await listen((req, res) => void handler.node(req, res, () => res.writeHead(404).end()));
      running.push(server);
      return async (target, headers = {}, method = 'GET') => {
        const reply = await request(server.port, target, { method, headers });
        const one = (name: string) => (reply.headers[name] as string | undefined) ?? null;
        return { status: reply.status, cacheControl: one('cache-control'), vary: one('vary'), body: reply.body };
      };
    },
  ],
];

function make(renderer: SnapshotRenderer, options: Partial<SnapshotHandlerOptions> = {}) {
  const errors: unknown[] = [];
  const handler = createSnapshotHandler({
    routes: createRoutes([{ path: '/' }, { path: '/books/:id' }]),
    origin: ORIGIN,
    shell: SHELL,
    renderer,
    onError: (error) => void errors.push(error),
    ...options,
  });
  return { handler, errors };
}

const NESTED = { [RENDER_HEADER]: '1' };

describe.each(ADAPTERS)('a request made by a page being rendered, through %s', (_, adapter) => {
  it('gets the cached snapshot of a state, as any request does', async () => {
    const renderer = counting();
    const ask = await adapter(make(renderer).handler);
    const plain = await ask('/?_escaped_fragment_=/books/1');
    expect(plain.status).toBe(200);
    const nested = await ask('/?_escaped_fragment_=/books/1', NESTED);
    expect(nested).toEqual(plain);
    expect(renderer.started).toEqual(['/books/1']);
  });

  it.each([
    ['its ugly URL', '/?_escaped_fragment_=/books/1', {}, 'bots'],
    ['the meta-tag form', '/books/1?_escaped_fragment_=', {}, 'bots'],
    ['its clean URL, asked by a bot', '/books/1', { 'user-agent': BOT }, 'bots'],
    ['its clean URL, where everyone gets snapshots', '/books/1', { 'user-agent': BROWSER }, 'all'],
  ] as const)('answers 508, no-store, for a state not cached at %s, and starts no render', async (_, target, headers, cleanUrls) => {
    const renderer = counting();
    const { handler, errors } = make(renderer, { cleanUrls });
    const ask = await adapter(handler);
    const nested = await ask(target, { ...headers, ...NESTED });
    expect(nested.status).toBe(508);
    expect(nested.cacheControl).toBe('no-store');
    // At a clean URL in 'bots' mode the answer varies by User-Agent, as a failed render's does.
    expect(/User-Agent/.test(nested.vary ?? '')).toBe(target === '/books/1' && cleanUrls === 'bots');
    expect(nested.body).toContain('<title>508 Loop Detected</title>');
    expect(nested.body).toContain('a render never starts another');
    expect(renderer.started).toEqual([]);
    // Never cached, never told to onError: the next request without the header renders the state.
    expect((await ask(target, headers)).status).toBe(200);
    expect(renderer.started).toEqual(['/books/1']);
    expect(errors).toEqual([]);
  });

  it.each(['', '0', 'false', 'no'])('reads the header by its presence alone: %j is a render’s request too', async (value) => {
    const renderer = counting();
    const ask = await adapter(make(renderer).handler);
    expect((await ask('/?_escaped_fragment_=/books/1', { [RENDER_HEADER]: value })).status).toBe(508);
    expect(renderer.started).toEqual([]);
  });

  it('answers HEAD with 508 and no body', async () => {
    const renderer = counting();
    const ask = await adapter(make(renderer).handler);
    const nested = await ask('/?_escaped_fragment_=/books/1', NESTED, 'HEAD');
    expect([nested.status, nested.body]).toEqual([508, '']);
    expect(renderer.started).toEqual([]);
  });

  it('answers the shell to a browser at a clean URL, as without the header', async () => {
    const renderer = counting();
    const ask = await adapter(make(renderer).handler);
    const plain = await ask('/books/1', { 'user-agent': BROWSER });
    const nested = await ask('/books/1', { 'user-agent': BROWSER, ...NESTED });
    expect(plain.status).toBe(200);
    expect(nested).toEqual(plain);
    expect(renderer.started).toEqual([]);
  });

  it('never waits for a render of the state in flight: it may be its own ancestor’s', async () => {
    let release = () => {};
    const renderer = counting(new Promise<void>((resolve) => (release = resolve)));
    const ask = await adapter(make(renderer).handler);
    const crawler = ask('/?_escaped_fragment_=/books/1');
    // Bounded: the crawler's render starts within a few turns.
    for (let turn = 0; turn < 100 && renderer.started.length === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(renderer.started).toEqual(['/books/1']);
    expect((await ask('/?_escaped_fragment_=/books/1', NESTED)).status).toBe(508);
    release();
    expect((await crawler).status).toBe(200);
    expect(renderer.started).toEqual(['/books/1']);
  });

  it('never takes a slot: answers 508 while the render queue is full, where a crawler gets 503', async () => {
    let release = () => {};
    const renderer = counting(new Promise<void>((resolve) => (release = resolve)));
    const ask = await adapter(make(renderer, { queue: { concurrency: 1, maxWaiting: 0 } }).handler);
    const crawler = ask('/?_escaped_fragment_=/books/1');
    for (let turn = 0; turn < 100 && renderer.started.length === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await ask('/?_escaped_fragment_=/books/2')).status).toBe(503);
    expect((await ask('/?_escaped_fragment_=/books/2', NESTED)).status).toBe(508);
    release();
    expect((await crawler).status).toBe(200);
    expect(renderer.started).toEqual(['/books/1']);
  });

  it('gets a snapshot another process kept in a shared store, with no render here', async () => {
    // A store that answers asynchronously, as a fleet's does: the handler's synchronous look misses it.
    const kept = new Map<string, StoredSnapshot>();
    const store: SnapshotStore = {
      get: async (key) => kept.get(key),
      set: async (key, snapshot) => void kept.set(key, snapshot),
      delete: async (key) => void kept.delete(key),
      keys: () => kept.keys(),
    };
    const other = counting();
    const first = await adapter(make(other, { cache: { store } }).handler);
    const plain = await first('/?_escaped_fragment_=/books/1');
    const renderer = counting();
    const ask = await adapter(make(renderer, { cache: { store } }).handler);
    expect(await ask('/?_escaped_fragment_=/books/1', NESTED)).toEqual(plain);
    expect((await ask('/?_escaped_fragment_=/books/2', NESTED)).status).toBe(508);
    expect([other.started, renderer.started]).toEqual([['/books/1'], []]);
  });
});
