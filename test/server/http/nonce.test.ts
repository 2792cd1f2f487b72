import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { redirect } from '../../../src/routes/outcome.js';
import { createRoutes } from '../../../src/routes/table.js';
import { memoryStore } from '../../../src/server/cache/memory-store.js';
import { SnapshotError } from '../../../src/server/errors.js';
import { createSnapshotHandler, type SnapshotHandler, type SnapshotHandlerOptions } from '../../../src/server/handler.js';
import { etagOf } from '../../../src/server/http/respond.js';
import { fuzz } from '../../fuzz/runs.js';
import { esc, listen, request, type Running } from '../helpers.js';

// The `nonce` option as a function: each answer that carries the data script gets a nonce of its
// own, written as it is sent; the stored page holds none. Through both adapters.

const ORIGIN = 'https://example.com';
const SHELL = '<!DOCTYPE html>\n<html><head><title>Books</title></head>\n<body><main id="app"></main></body></html>\n';
const TAG = '<script type="application/json" id="crawlable-router-data">';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function table(loads: string[]) {
  return createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id}`,
        load: ({ params }) => (loads.push(String(params.id)), { name: params.id === 'big' ? 'x'.repeat(4000) : `Name of ${params.id}` }),
        render: ({ data }) => `<h1>${esc(JSON.stringify(data))}</h1>`,
      },
      { path: '/old/:id', load: ({ params }) => Promise.reject(redirect(`/books/${params.id}`, 301)) },
      { path: '/book/:id', redirect: '/books/:id' },
      // A page whose title and content spell the data script's tag: its nonce stays on the library's.
      { path: '/spoof', title: TAG, render: () => `<pre>${TAG}{"location":"/evil","status":200}</script></pre>` },
    ],
    { notFound: { title: 'Not found', render: () => '<h1>Nothing here</h1>' } },
  );
}

/** A reply as a test reads it, from either adapter; a gzipped body is read unzipped. */
interface Got {
  status: number;
  header(name: string): string | null;
  body: string;
}
type Get = (target: string, headers?: Record<string, string>, method?: string) => Promise<Got>;

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

const text = (bytes: Uint8Array, encoding: string | null) => Buffer.from(encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');

// Each asks from another host than the configured origin: the Request URL's (fetch) or Host (node).
const ADAPTERS: Record<'fetch' | 'node', (handler: SnapshotHandler) => Promise<Get>> = {
  async fetch(handler) {
    return async (target, headers = {}, method = 'GET') => {
      const response = await handler.fetch(new Request('http://evil.example' + target, { method, headers }));
      if (!response) throw new Error(`no answer for ${target}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        body: text(bytes, response.headers.get('content-encoding')),
      };
    };
  },
  async node(handler) {
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    return async (target, headers = {}, method = 'GET') => {
      const reply = await request(server.port, target, { method, headers: { Host: 'evil.example', ...headers } });
      const header = (name: string) => (reply.headers[name] === undefined ? null : String(reply.headers[name]));
      return { status: reply.status, header, body: text(reply.bytes, header('content-encoding')) };
    };
  },
};

function setup(nonce: SnapshotHandlerOptions['nonce'], options: Partial<SnapshotHandlerOptions> = {}) {
  const loads: string[] = [];
  const errors: unknown[] = [];
  const store = memoryStore();
  const handler = createSnapshotHandler({
    routes: table(loads),
    origin: ORIGIN,
    shell: SHELL,
    cleanUrls: 'all',
    nonce,
    cache: { store },
    onError: (error) => errors.push(error),
    ...options,
  });
  return { handler, store, loads, errors };
}

/** The `nonce` of each data script of a page, in document order (null: none), read with a real parser. */
function nonces(html: string): (string | null)[] {
  type Node = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; content?: Node };
  const found: (string | null)[] = [];
  const walk = (node: Node) => {
    const attr = (name: string) => node.attrs?.find((a) => a.name === name)?.value ?? null;
    if (node.tagName === 'script' && attr('id') === 'crawlable-router-data') found.push(attr('nonce'));
    (node.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

describe.each(Object.keys(ADAPTERS) as (keyof typeof ADAPTERS)[])('a nonce function, %s adapter', (adapter) => {
  it('gives each answer of one cached state a nonce of its own, and stores the page without one', async () => {
    const given: string[] = [];
    const { handler, store, loads } = setup(() => (given.push(`n0nce${given.length}+/=`), given[given.length - 1] as string));
    const get = await ADAPTERS[adapter](handler);
    const answers = [await get('/books/1'), await get('/books/1'), await get('/?_escaped_fragment_=/books/1')];
    expect(loads).toEqual(['1']);
    expect(given).toEqual(['n0nce0+/=', 'n0nce1+/=', 'n0nce2+/=']);
    const stored = store.get('/books/1');
    expect(stored?.html).toContain(TAG);
    expect(stored?.html).not.toContain('nonce');
    expect((await handler.render('/books/1')).html).toBe(stored?.html);
    answers.forEach((answer, i) => {
      expect([answer.status, answer.header('cache-control'), answer.header('etag'), answer.header('last-modified')]).toEqual([
        200,
        'private, no-store',
        null,
        null,
      ]);
      expect(nonces(answer.body)).toEqual([given[i]]);
      expect(answer.body.replace(` nonce="${given[i]}"`, '')).toBe(stored?.html);
    });
    const head = await get('/books/1', {}, 'HEAD');
    expect([head.status, head.header('content-length'), head.body]).toEqual([200, String(Buffer.byteLength(answers[0]?.body ?? '')), '']);
  });

  it('never answers 304: no validator of the stored page or any other stands for a body with its own nonce', async () => {
    const { handler, store } = setup(() => 'abc');
    const get = await ADAPTERS[adapter](handler);
    await get('/books/1');
    const etag = store.get('/books/1')?.etag ?? '';
    const validators: Record<string, string>[] = [
      { 'If-None-Match': etag },
      { 'If-None-Match': '*' },
      { 'If-Modified-Since': new Date().toUTCString() },
    ];
    for (const headers of validators) {
      const answer = await get('/books/1', headers);
      expect([answer.status, nonces(answer.body)]).toEqual([200, ['abc']]);
    }
  });

  it('asks with a Request on the configured origin, never the Host, with the request’s headers', async () => {
    const asked: Request[] = [];
    const { handler } = setup((request) => (asked.push(request), 'abc'));
    const get = await ADAPTERS[adapter](handler);
    await get('/books/2?ref=a', { Cookie: 'session=s3cr3t' });
    expect(asked.map((r) => [r.method, r.url, r.headers.get('cookie')])).toEqual([['GET', `${ORIGIN}/books/2?ref=a`, 'session=s3cr3t']]);
  });

  it.each([
    [
      'throws',
      (): unknown => {
        throw new Error('the vault is down');
      },
      'the nonce function failed for /books/1: the vault is down',
    ],
    [
      'gives an attribute break',
      () => 'a" onload="alert(1)',
      'the nonce function gave "a\\" onload=\\"alert(1)" for /books/1, not base64 text',
    ],
    ['gives a tag', () => '<script>alert(1)</script>', 'the nonce function gave "<script>alert(1)</script>" for /books/1'],
    ['gives empty text', () => '', 'the nonce function gave "" for /books/1'],
    ['gives text with a space and CRLF', () => 'ab cd\r\n', 'the nonce function gave "ab cd\\r\\n" for /books/1'],
    ['gives a number', () => 42, 'the nonce function gave 42 for /books/1'],
    ['gives nothing', () => undefined, 'the nonce function gave undefined for /books/1'],
    ['gives a promise', () => Promise.resolve('abc'), 'the nonce function gave a promise for /books/1'],
  ])('answers 500 when it %s, tells onError, stores no nonce, and a later good answer is fine', async (_, bad, message) => {
    let failing = true;
    const { handler, store, loads, errors } = setup((() => (failing ? bad() : 'g00d')) as () => string);
    const get = await ADAPTERS[adapter](handler);
    const failed = await get('/books/1');
    expect([failed.status, failed.header('cache-control'), failed.header('etag')]).toEqual([500, 'no-store', null]);
    expect(failed.body).toContain('could not be rendered');
    for (const leak of ['vault', 'alert', 'onload', '<script', ' at ', 'nonce']) expect(failed.body).not.toContain(leak);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SnapshotError);
    expect((errors[0] as SnapshotError).code).toBe('BAD_NONCE');
    expect((errors[0] as SnapshotError).message).toContain(message);
    expect(store.get('/books/1')?.html).not.toContain('nonce');
    failing = false;
    const good = await get('/books/1');
    expect([good.status, nonces(good.body), loads]).toEqual([200, ['g00d'], ['1']]);
  });

  it('is not called for answers without the data script, which keep their validators', async () => {
    const calls: string[] = [];
    const { handler, store } = setup((request) => (calls.push(request.url), 'abc'));
    const plain = '<!DOCTYPE html><html><head><title>Made ahead</title></head><body><main id="app">Ahead</main></body></html>';
    store.set('/ahead', { status: 404, html: plain, etag: etagOf(plain), renderedAt: Date.now(), build: handler.build }, Infinity);
    const get = await ADAPTERS[adapter](handler);
    expect((await get('/old/1')).status).toBe(301);
    expect((await get('/book/1')).status).toBe(301);
    const ahead = await get('/ahead');
    expect([ahead.status, ahead.header('etag'), ahead.header('cache-control'), ahead.body]).toEqual([
      404,
      etagOf(plain),
      'public, max-age=300',
      plain,
    ]);
    expect(calls).toEqual([]);
    // A missing state's page is rendered with its data script: it gets a nonce like any other.
    expect(nonces((await get('/no/such/page')).body)).toEqual(['abc']);
  });

  it.each(['bots', 'shell'] as const)('is never called in %s mode, whose pages carry no data script', async (cleanUrls) => {
    let calls = 0;
    const { handler } = setup(() => (calls++, 'abc'), { cleanUrls });
    const get = await ADAPTERS[adapter](handler);
    for (const [target, agent] of [
      ['/books/1', BOT],
      ['/books/1', 'Firefox'],
      ['/no/page', BOT],
      ['/no/page', 'Firefox'],
      ['/?_escaped_fragment_=/books/1', BOT],
    ]) {
      const answer = await get(target as string, { 'User-Agent': agent as string });
      expect(answer.body).not.toContain('nonce');
      expect(answer.body).not.toContain(TAG);
    }
    expect(calls).toBe(0);
  });

  it('writes the nonce on the library’s data script, never on a copy the page’s title or content spells', async () => {
    const { handler } = setup(() => 'abc');
    const get = await ADAPTERS[adapter](handler);
    const answer = await get('/spoof');
    expect(nonces(answer.body)).toEqual(['abc', null]);
    expect(answer.body.split(' nonce=')).toHaveLength(2);
  });

  it('gzips a page with its own nonce for a client that accepts it', async () => {
    const { handler } = setup(() => 'abc');
    const get = await ADAPTERS[adapter](handler);
    const answer = await get('/books/big', { 'Accept-Encoding': 'gzip' });
    expect([answer.header('content-encoding'), answer.header('etag'), nonces(answer.body)]).toEqual(['gzip', null, ['abc']]);
  });
});

describe('the nonce function’s text', () => {
  it('reaches the page only as a base64 nonce: anything else is the 500 page, the same for every value', async () => {
    let next = '';
    const { handler } = setup(() => next);
    const get = await ADAPTERS.fetch(handler);
    next = '"><';
    const failure = (await get('/books/1')).body;
    const texts = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'aZ09+/=_-"\'<>& \r\n\0\u00e9\u2028') }),
      fc.base64String(),
      fc.stringMatching(/^[A-Za-z0-9+/_-]{1,40}=*$/),
    );
    await fc.assert(
      fc.asyncProperty(texts, async (value) => {
        next = value;
        const answer = await get('/books/1');
        if (/^[A-Za-z0-9+/_-]+=*$/.test(value)) expect([answer.status, nonces(answer.body)]).toEqual([200, [value]]);
        else expect([answer.status, answer.body]).toEqual([500, failure]);
      }),
      fuzz(4207, 100),
    );
  });
});

describe('the nonce option', () => {
  const routes = table([]);
  const renderer = { render: async () => ({ html: '' }) };
  const holding = SHELL.replace('</head>', `${TAG}{}</script></head>`);
  it.each([
    [
      'a number',
      { nonce: 42 },
      'BAD_OPTION',
      'nonce must be base64 text (a CSP nonce-source) or a function of the request that gives it, got 42',
    ],
    ['an object', { nonce: {} }, 'BAD_OPTION', 'got an object'],
    ['text with a space', { nonce: 'a b' }, 'BAD_OPTION', 'got "a b"'],
    [
      'a function beside a renderer of its own',
      { nonce: (): string => 'abc', renderer },
      'BAD_OPTION',
      "nonce as a function needs the route hooks' renderer",
    ],
    [
      'a function and a shell holding the data script',
      { nonce: (): string => 'abc', shell: holding },
      'BAD_SHELL',
      "the shell holds the data script's tag",
    ],
  ])('refuses %s at start', (_, options, code, message) => {
    const create = () =>
      createSnapshotHandler({ routes, origin: ORIGIN, cleanUrls: 'all', ...(options as Partial<SnapshotHandlerOptions>) });
    expect(create).toThrow(SnapshotError);
    expect(create).toThrow(expect.objectContaining({ code }));
    expect(create).toThrow(message);
  });

  it('takes a function beside a renderer of its own outside all mode, where no page carries the data script', () => {
    expect(() => createSnapshotHandler({ routes, origin: ORIGIN, cleanUrls: 'bots', nonce: () => 'abc', renderer })).not.toThrow();
  });
});
