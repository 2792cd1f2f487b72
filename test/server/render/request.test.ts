import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { redirect } from '../../../src/routes/outcome.js';
import type { RouteDefinition } from '../../../src/routes/types.js';
import { createSnapshotHandler, type SnapshotHandlerOptions } from '../../../src/server/handler.js';
import { memoryStore } from '../../../src/server/cache/memory-store.js';
import { SnapshotError } from '../../../src/server/errors.js';
import type { Ask } from '../../../src/server/http/exchange.js';
import { isFor, isPrivate, privateTo, renderFor, requestOf } from '../../../src/server/render/request.js';
import { listen, request, type Running } from '../helpers.js';

// `request` in the hooks' context: the incoming request as a web Request, made when read; a render
// that reads it is that request's own (never stored, never shared, `private, no-store`), and one
// that does not is cached and shared as before.

const ORIGIN = 'https://example.com';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const ask = (fields: [string, string][], target = '/a?b=1'): Ask => ({
  method: 'GET',
  target,
  header: (name) => fields.find(([n]) => n.toLowerCase() === name)?.[1] ?? null,
  fields: () => fields,
});

/** A user name from the `user=` cookie of a hook's request, or `anonymous`. */
const userOf = (req: Request | undefined) => /(?:^|;\s*)user=(\w+)/.exec(req?.headers.get('cookie') ?? '')?.[1] ?? 'anonymous';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('requestOf', () => {
  it('makes a bodiless web Request on the configured origin, with the header fields as sent', () => {
    const req = requestOf(
      ask([
        ['Cookie', 'user=ann'],
        ['Host', 'evil.example'],
        ['Accept', 'text/html'],
        ['Accept', 'x/y'],
      ]),
      ORIGIN,
    );
    expect(req.url).toBe('https://example.com/a?b=1');
    expect(req.method).toBe('GET');
    expect(req.headers.get('cookie')).toBe('user=ann');
    expect(req.headers.get('accept')).toBe('text/html, x/y');
    expect(req.body).toBeNull();
  });

  it('leaves out a field the web Headers refuses, rather than failing the answer', () => {
    const req = requestOf(
      ask([
        ['bad name', 'x'],
        ['X-Ok', 'yes'],
      ]),
      ORIGIN,
    );
    expect([...req.headers]).toEqual([['x-ok', 'yes']]);
  });
});

describe('renderFor', () => {
  it('says whether the request was read, and refuses a read after the render ended', () => {
    const who = renderFor(ask([]), ORIGIN);
    expect(who.used).toBe(false);
    expect(who.read()?.url).toBe('https://example.com/a?b=1');
    expect(who.used).toBe(true);
    who.end();
    expect(() => who.read()).toThrow(expect.objectContaining({ code: 'REQUEST_ENDED' }));
  });

  it('gives undefined for a render asked by no request, and still counts the read', () => {
    const who = renderFor(undefined, ORIGIN);
    expect(who.read()).toBeUndefined();
    expect(who.used).toBe(true);
  });
});

describe('privateTo', () => {
  it('makes a snapshot private to one request, and for no other', () => {
    const [mine, other, snapshot] = [ask([]), ask([]), {}];
    expect([isPrivate(snapshot), isFor(snapshot, other)]).toEqual([false, true]);
    privateTo(snapshot, mine);
    expect([isPrivate(snapshot), isFor(snapshot, mine), isFor(snapshot, other)]).toEqual([true, true, false]);
  });
});

describe('a render that reads the request', () => {
  let running: Running[] = [];
  afterEach(async () => {
    await Promise.all(running.map((r) => r.close()));
    running = [];
  });

  function setup(extra: Partial<SnapshotHandlerOptions> = {}, delayMs = 0) {
    const renders: string[] = [];
    const late: unknown[] = [];
    const routes: RouteDefinition<string>[] = [
      {
        path: '/account',
        load: async () => (delayMs ? sleep(delayMs) : undefined),
        render: ({ request }) => (renders.push(`account:${userOf(request)}`), `<p>Hello ${userOf(request)}</p>`),
      },
      { path: '/books/:id', render: ({ params }) => (renders.push(`book:${String(params.id)}`), `<p>Book ${String(params.id)}</p>`) },
      {
        path: '/late',
        render: (context) => {
          setTimeout(() => {
            try {
              void context.request;
            } catch (error) {
              late.push(error);
            }
          }, 1);
          return '<p>late</p>';
        },
      },
    ];
    const store = memoryStore();
    const handler = createSnapshotHandler({ routes: createRoutes(routes), origin: ORIGIN, cleanUrls: 'all', cache: { store }, ...extra });
    const get = (target: string, cookie?: string) =>
      handler.fetch(new Request('http://localhost' + target, { headers: cookie ? { cookie } : {} })) as Promise<Response>;
    return { handler, store, renders, late, get };
  }

  it('gives each visitor their own page, answered private, and keeps it in no store', async () => {
    const { store, renders, get } = setup();
    const ann = await get('/account', 'user=ann');
    const bob = await get('/account', 'user=bob');
    const anonymous = await get('/account');
    expect(await ann.text()).toContain('<p>Hello ann</p>');
    expect(await bob.text()).toContain('<p>Hello bob</p>');
    expect(await anonymous.text()).toContain('<p>Hello anonymous</p>');
    expect(ann.headers.get('cache-control')).toBe('private, no-store');
    expect(renders).toEqual(['account:ann', 'account:bob', 'account:anonymous']);
    expect([...store.keys()]).toEqual([]);
  });

  it('never shares one render between two requests asking at the same time', async () => {
    const { renders, get } = setup({}, 30);
    const answers = await Promise.all(['ann', 'bob', 'cy', 'ann'].map((user) => get('/account', `user=${user}`)));
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(bodies.map((b) => /Hello (\w+)/.exec(b)?.[1])).toEqual(['ann', 'bob', 'cy', 'ann']);
    expect(renders.sort()).toEqual(['account:ann', 'account:ann', 'account:bob', 'account:cy']);
  });

  it('leaves a render that does not read it cached and shared, as before', async () => {
    const { store, renders, get } = setup();
    const answers = await Promise.all([get('/books/1', 'user=ann'), get('/books/1', 'user=bob')]);
    await get('/books/1');
    expect(renders).toEqual(['book:1']);
    expect(answers[0]?.headers.get('cache-control')).toBe('public, max-age=300');
    expect([...store.keys()]).toEqual(['/books/1']);
  });

  it('is an error to read after the render ended', async () => {
    const { late, get } = setup();
    expect((await get('/late')).status).toBe(200);
    await sleep(20);
    expect(late).toEqual([expect.any(SnapshotError)]);
    expect((late[0] as SnapshotError).code).toBe('REQUEST_ENDED');
  });

  it('is undefined in handler.render(), whose render is not kept either', async () => {
    const { handler, store } = setup();
    expect((await handler.render('/account')).html).toContain('Hello anonymous');
    expect([...store.keys()]).toEqual([]);
  });

  it("makes a custom renderer's render private when it reads the job's request, and only then", async () => {
    const store = memoryStore();
    const renderer = {
      render: async (job: { location: string; request?: Request | undefined }) => ({
        html: job.location === '/mine' ? `<p>${userOf(job.request)}</p>` : '<p>everyone</p>',
      }),
    };
    const routes = createRoutes([{ path: '/mine' }, { path: '/all' }]);
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, cleanUrls: 'all', renderer, cache: { store } });
    const get = (target: string) => handler.fetch(new Request('http://localhost' + target, { headers: { cookie: 'user=eve' } }));
    const mine = await get('/mine');
    expect([await mine?.text(), mine?.headers.get('cache-control')]).toEqual(['<p>eve</p>', 'private, no-store']);
    expect((await get('/all'))?.headers.get('cache-control')).toBe('public, max-age=300');
    expect([...(store.keys() as Iterable<string>)]).toEqual(['/all']);
  });

  it('reaches the node adapter with the headers the client sent, on the configured origin', async () => {
    const seen: string[] = [];
    const routes = createRoutes([{ path: '/me', render: ({ request }) => (seen.push(request?.url ?? ''), `<p>${userOf(request)}</p>`) }]);
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, cleanUrls: 'all' });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    const reply = await request(server.port, '/me?x=1', { headers: { cookie: 'user=dee', host: 'evil.example' } });
    expect(reply.body).toContain('<p>dee</p>');
    expect(reply.headers['cache-control']).toBe('private, no-store');
    expect(seen).toEqual(['https://example.com/me?x=1']);
  });

  it('makes a guard that reads it answer each bot its own redirect, never a stored one', async () => {
    const routes = createRoutes([
      { path: '/login', render: () => '<p>Log in</p>' },
      {
        path: '/post',
        beforeLoad: ({ request }) => {
          if (userOf(request) === 'anonymous') throw redirect('/login');
        },
        render: () => '<form>Post a job</form>',
      },
    ]);
    const store = memoryStore();
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, cache: { store } });
    const bot = await handler.fetch(new Request('http://localhost/post', { headers: { 'user-agent': BOT } }));
    expect(bot?.status).toBe(302);
    expect(bot?.headers.get('location')).toBe('https://example.com/login');
    expect(bot?.headers.get('cache-control')).toBe('private, no-store');
    const member = await handler.fetch(new Request('http://localhost/post', { headers: { 'user-agent': BOT, cookie: 'user=ann' } }));
    expect([member?.status, await member?.text()]).toEqual([200, expect.stringContaining('Post a job')]);
    expect([...store.keys()]).toEqual([]);
  });
});
