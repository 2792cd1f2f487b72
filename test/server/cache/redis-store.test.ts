import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { createSnapshotCache } from '../../../src/server/cache/cache.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import type { StoredSnapshot } from '../../../src/server/cache/store.js';
import { decodeSnapshot, encodeSnapshot, redisStore, type RedisStoreOptions } from '../../../src/server/cache/redis-store.js';
import { redisServerPath } from '../../../scripts/redis-server.mjs';
import { useRedis } from './redis.js';

// redisStore against Debian's redis-server, through a real node-redis client.

const redisServer = useRedis();
const connect = redisServer.connect;

/**
 * The command timeout of every test that is not about it: liveness only. The store's default (500 ms)
 * is a production choice; a loaded test machine (load average 20 on 2 cores) has taken longer than
 * that for a batch of SETs or a SCAN page, and such a test must fail only on a Redis that hangs.
 */
const LIVENESS_COMMAND_TIMEOUT_MS = 30_000;

let n = 0;
/** A store on its own prefix, so tests share one redis-server without seeing each other. */
async function store(options: Partial<RedisStoreOptions> = {}) {
  const client = await connect();
  const prefix = `t${++n}:`;
  return { store: redisStore({ client, prefix, commandTimeoutMs: LIVENESS_COMMAND_TIMEOUT_MS, ...options }), client, prefix };
}

/** Counts the commands `client` sends from now on. */
function countCommands(client: { sendCommand: (...args: never[]) => Promise<unknown> }): () => number {
  let sent = 0;
  const send = client.sendCommand.bind(client);
  client.sendCommand = (...args) => (sent++, send(...args));
  return () => sent;
}

const snap = (html: string, extra: Partial<StoredSnapshot> = {}): StoredSnapshot => ({
  status: 200,
  html,
  etag: '"e"',
  renderedAt: Date.now() - 0.5,
  ...extra,
});
// Every code point 0-255, CR LF, NUL, astral characters, and our own framing inside the body.
const HOSTILE =
  Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('') + '\r\n\0😀 crawlable-router/1\n{"bytes":1}\n"><img onerror=x>';

describe('redisStore values', () => {
  it('gives back status, ETag, time, extra fields and every byte of the HTML', async () => {
    const { store: s } = await store();
    const stored = { ...snap(HOSTILE, { status: 404, etag: '"xyz-gz"' }), headers: { 'x-robots-tag': 'noindex' } };
    await s.set('/a?q=é', stored, 60_000);
    expect(await s.get('/a?q=é')).toEqual(stored);
    expect(await s.get('/other')).toBeUndefined();
  });

  // The TTLs of these tests are minutes: an entry must still be there when it is read back, and a
  // loaded machine took more than the 800 ms they had between two commands. Liveness only.
  it('writes every entry with its TTL in one SET, capped at maxTtlMs even for Infinity', async () => {
    const { store: s, client, prefix } = await store({ maxTtlMs: 600_000 });
    await s.set('/short', snap('a'), 60_000);
    await s.set('/forever', snap('b'), Infinity);
    const short = await client.pTTL(`${prefix}snapshot:/short`);
    const forever = await client.pTTL(`${prefix}snapshot:/forever`);
    expect(short).toBeGreaterThan(0);
    expect(short).toBeLessThanOrEqual(60_000);
    expect(forever).toBeGreaterThan(60_000);
    expect(forever).toBeLessThanOrEqual(600_000);
  });

  it('lets an entry expire when the cache would call it stale: renderedAt + ttlMs', async () => {
    const { store: s, client, prefix } = await store();
    await s.set('/rendered-earlier', snap('a', { renderedAt: Date.now() - 50_000 }), 80_000);
    await s.set('/too-old', snap('b', { renderedAt: Date.now() - 90_000 }), 80_000);
    const left = await client.pTTL(`${prefix}snapshot:/rendered-earlier`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(30_000);
    expect(await client.exists(`${prefix}snapshot:/too-old`)).toBe(0);
  });

  it('keeps no entry larger than maxBytes', async () => {
    const { store: s } = await store({ maxBytes: 200 });
    await s.set('/big', snap('x'.repeat(300)), 1000);
    await s.set('/small', snap('x'.repeat(10)), 1000);
    expect(await s.get('/big')).toBeUndefined();
    expect((await s.get('/small'))?.html).toBe('x'.repeat(10));
  });

  it.each<[string, (valid: Buffer) => Buffer | string]>([
    ['a plain string', () => 'hello'],
    ['JSON of another app', () => '{"status":200,"html":"<p>hi</p>"}'],
    ['a truncated value', (valid) => valid.subarray(0, valid.length - 3)],
    ['a value with bytes added', (valid) => Buffer.concat([valid, Buffer.from('x')])],
    ['a header that is not JSON', () => 'crawlable-router/1\n{nope\n<p>'],
    ['a status that is no status', () => 'crawlable-router/1\n{"status":"200","etag":"\\"e\\"","renderedAt":1,"bytes":0}\n'],
    ['no time', () => 'crawlable-router/1\n{"status":200,"etag":"\\"e\\"","bytes":0}\n'],
    [
      'invalid UTF-8 in the HTML',
      () =>
        Buffer.concat([Buffer.from('crawlable-router/1\n{"status":200,"etag":"e","renderedAt":1,"bytes":2}\n'), Buffer.from([0xc3, 0x28])]),
    ],
  ])('reads %s at its key as a miss', async (_, corrupt) => {
    const { store: s, client, prefix } = await store();
    await client.set(`${prefix}snapshot:/x`, corrupt(encodeSnapshot(snap('<p>hello</p>'))));
    expect(await s.get('/x')).toBeUndefined();
  });

  it('reads a key of another type at its key as a miss', async () => {
    const { store: s, client, prefix } = await store();
    await client.hSet(`${prefix}snapshot:/x`, 'f', 'v');
    expect(await s.get('/x')).toBeUndefined();
  });

  it('decodes what it encodes, and nothing else', () => {
    const hostile = snap(HOSTILE);
    expect(decodeSnapshot(encodeSnapshot(hostile))).toEqual(hostile);
    expect(decodeSnapshot('crawlable-router/1\n')).toBeUndefined();
    expect(decodeSnapshot(null)).toBeUndefined();
  });
});

describe('redisStore keys', () => {
  it('walks every state of its prefix with SCAN (snapshots and locks), none of another prefix', async () => {
    const client = await connect();
    const prefix = `glob*[x]?${++n}:`;
    const s = redisStore({ client, prefix, commandTimeoutMs: LIVENESS_COMMAND_TIMEOUT_MS });
    const other = redisStore({ client, prefix: `glob-other${n}:`, commandTimeoutMs: LIVENESS_COMMAND_TIMEOUT_MS });
    const states = Array.from({ length: 2500 }, (_, i) => `/s/${i}`);
    for (let i = 0; i < states.length; i += 500)
      await Promise.all(states.slice(i, i + 500).map(async (key) => s.set(key, snap('x'), 60_000)));
    await other.set('/s/0', snap('y'), 60_000);
    await other.set('/elsewhere', snap('y'), 60_000);
    const held = await s.lock('/locked-only', 60_000);
    expect(held).not.toBeNull();
    const seen: string[] = [];
    for await (const key of s.keys()) seen.push(key);
    expect(seen.sort()).toEqual([...states, '/locked-only'].sort());
  });
});

describe('redisStore locks', () => {
  it('lets one holder at a time have a state, until it lets go', async () => {
    const { store: s } = await store();
    const first = await s.lock('/a', 10_000);
    expect(first).not.toBeNull();
    expect(await s.lock('/a', 10_000)).toBeNull();
    expect(await s.lock('/b', 10_000)).not.toBeNull();
    await first?.release();
    expect(await s.lock('/a', 10_000)).not.toBeNull();
  });

  it('gives no lock for a state already kept, in the same step that would take it', async () => {
    const { store: s } = await store();
    await s.set('/kept', snap('here'), 60_000);
    expect(await s.lock('/kept', 10_000)).toBeNull();
  });

  it.each<[string, (client: Awaited<ReturnType<typeof connect>>, key: string) => Promise<unknown>]>([
    ['a plain string', (client, key) => client.set(key, 'hello')],
    ['a snapshot of another format (a later version)', (client, key) => client.set(key, 'crawlable-router/2\n{"bytes":0}\n')],
    ['a key of another type', (client, key) => client.hSet(key, 'f', 'v')],
  ])('locks a state whose key holds %s, which is no snapshot, so it is rendered, not waited for', async (_, plant) => {
    const { store: s, client, prefix } = await store();
    await plant(client, `${prefix}snapshot:/x`);
    const lock = await s.lock('/x', 10_000);
    expect(lock).not.toBeNull();
    await lock?.commit(snap('rendered'), 60_000);
    expect((await s.get('/x'))?.html).toBe('rendered');
    // Through the cache: the request renders at once, where it waited for waitMs and failed (a 504).
    await plant(client, `${prefix}snapshot:/y`);
    const cache = createSnapshotCache({ store: s, ttlMs: 60_000, onError: () => {}, waitMs: 1000, lockTtlMs: 2000 });
    const take = s.lock.bind(s);
    let asked = 0;
    s.lock = (key, ttl) => (asked++, take(key, ttl));
    expect((await cache.get('/y', async () => snap('fresh'))).html).toBe('fresh');
    // Locked on the first ask: no poll of the store (5 ms apart, doubling) waiting for a render.
    expect(asked).toBe(1);
  });

  it.each<[string, (client: Awaited<ReturnType<typeof connect>>, key: string) => Promise<unknown>]>([
    ['a value the store never writes, without a TTL', (client, key) => client.set(key, 'x')],
    ['a value the store never writes, with a TTL of a day', (client, key) => client.set(key, 'x', { EX: 86_400 })],
    ['a key of another type', (client, key) => client.hSet(key, 'f', 'v')],
    ['a token of the store’s own shape without a TTL', (client, key) => client.set(key, 'A'.repeat(22))],
  ])('takes over a lock that holds %s, so its state is rendered and served within the handler’s timeout', async (_, plant) => {
    // As after `SET crawlable-router:lock:/books/1 x` by hand: the state was a 504 for as long as the key lived.
    const { store: s, client, prefix } = await store();
    await plant(client, `${prefix}lock:/books/1`);
    const routes = createRoutes([{ path: '/books/:id', title: 'Book', render: ({ params }) => `<p>book ${params.id}</p>` }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', timeoutMs: 3000, cache: { store: s } });
    const response = await handler.fetch(new Request('https://example.com/?_escaped_fragment_=/books/1'));
    expect([response?.status, await response?.text()]).toEqual([200, expect.stringContaining('<p>book 1</p>')]);
    expect([(await s.get('/books/1'))?.html, await client.exists(`${prefix}lock:/books/1`)]).toEqual([
      expect.stringContaining('<p>book 1</p>'),
      0,
    ]);
  });

  it('gives its own lock that lost its TTL one again, and leaves it with its holder', async () => {
    const { store: s, client, prefix } = await store();
    const held = await s.lock('/a', 10_000);
    await client.persist(`${prefix}lock:/a`);
    expect(await s.lock('/a', 10_000)).toBeNull();
    const ttl = await client.pTTL(`${prefix}lock:/a`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
    await held?.commit(snap('held'), 60_000);
    expect((await s.get('/a'))?.html).toBe('held');
  });

  it('commits the snapshot and frees the lock in one step', async () => {
    const { store: s, client, prefix } = await store();
    const lock = await s.lock('/a', 10_000);
    await lock?.commit(snap('done'), 60_000);
    expect((await s.get('/a'))?.html).toBe('done');
    expect(await client.exists(`${prefix}lock:/a`)).toBe(0);
  });

  it('never lets a holder whose lock expired touch the next holder’s lock or commit over it', async () => {
    const { store: s, client, prefix } = await store();
    const late = await s.lock('/a', 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const next = await s.lock('/a', 10_000);
    expect(next).not.toBeNull();
    await late?.release();
    await late?.extend(1);
    await late?.commit(snap('late'), 60_000);
    expect(await s.get('/a')).toBeUndefined();
    expect(await client.pTTL(`${prefix}lock:/a`)).toBeGreaterThan(5000);
    expect(await s.lock('/a', 10_000)).toBeNull();
  });

  it('keeps nothing from a render whose state was invalidated while it ran', async () => {
    const { store: s } = await store();
    const lock = await s.lock('/a', 10_000);
    await s.delete('/a');
    await lock?.commit(snap('stale'), 60_000);
    expect(await s.get('/a')).toBeUndefined();
  });

  it('lets a process whose clock runs ahead forget a stale snapshot, but not the lock of a render under way', async () => {
    // Process B found the snapshot stale first, forgot it and is rendering; process A, its clock
    // 30 s ahead of the writer's, read the stale snapshot before it went. A's lookup used to delete
    // the state with its lock, take the lock and render the state a second time.
    const { store: s, client, prefix } = await store();
    const rendering = await s.lock('/a', 10_000);
    const old = snap('old', { renderedAt: Date.now() - 45_000 });
    await s.set('/a', old, 60_000);
    let renders = 0;
    const ahead = createSnapshotCache({ store: s, ttlMs: 60_000, now: () => Date.now() + 30_000, onError: () => {}, waitMs: 5000 });
    const answer = ahead.get('/a', async () => (renders++, snap('A')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await client.exists(`${prefix}lock:/a`)).toBe(1);
    await rendering?.commit(snap('B'), 60_000);
    expect((await answer).html).toBe('B');
    expect(renders).toBe(0);
  });

  it('forgets a stale snapshot only while it is the one kept, not a newer one', async () => {
    const { store: s } = await store();
    const old = snap('old', { renderedAt: Date.now() - 45_000 });
    await s.set('/a', old, 60_000);
    await s.set('/a', snap('new'), 60_000);
    await s.expire?.('/a', old);
    expect((await s.get('/a'))?.html).toBe('new');
    await s.expire?.('/a', (await s.get('/a')) as StoredSnapshot);
    expect(await s.get('/a')).toBeUndefined();
  });

  it('extends a lock it holds, and lets go of one too large to keep', async () => {
    const { store: s, client, prefix } = await store({ maxBytes: 100 });
    const lock = await s.lock('/a', 10_000);
    await lock?.extend(60_000);
    expect(await client.pTTL(`${prefix}lock:/a`)).toBeGreaterThan(10_000);
    await lock?.commit(snap('x'.repeat(200)), 60_000);
    expect(await s.get('/a')).toBeUndefined();
    expect(await client.exists(`${prefix}lock:/a`)).toBe(0);
  });

  it('runs its scripts again after Redis forgot them', async () => {
    const { store: s, client } = await store();
    await (await s.lock('/a', 10_000))?.release();
    await client.scriptFlush();
    const lock = await s.lock('/a', 10_000);
    await lock?.commit(snap('after flush'), 60_000);
    expect((await s.get('/a'))?.html).toBe('after flush');
  });
});

describe('redisStore under requests for a kept state (security, seventh round)', () => {
  /** Bytes Redis has sent to its clients so far. */
  const sent = async (client: Awaited<ReturnType<typeof connect>>) =>
    Number(/total_net_output_bytes:(\d+)/.exec(String(await client.sendCommand(['INFO', 'stats'])))?.[1]);

  it('answers a fleet’s kept snapshot again without reading it whole from Redis at each request', async () => {
    // Each HEAD (or 304, or GET whose client hangs up) of a 2 MiB snapshot read the whole value and
    // decoded it: 13.7 ms of the server's CPU and 2 MiB out of Redis a request, 0.09 ms with memoryStore.
    // A 2 MiB commit takes 70-100 ms on a loaded test machine: room for it.
    const { store: s, client } = await store({ commandTimeoutMs: 5000 });
    const html = `<p>${'x'.repeat(2 ** 21 - 4096)}</p>`;
    const routes = createRoutes([{ path: '/big', render: () => html }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store: s } });
    const head = async () => (await handler.fetch(new Request('https://example.com/?_escaped_fragment_=/big', { method: 'HEAD' })))?.status;
    expect(await head()).toBe(200);
    expect((await s.get('/big'))?.html).toContain(html);
    const before = await sent(client);
    for (let i = 0; i < 20; i++) expect(await head()).toBe(200);
    expect((await sent(client)) - before).toBeLessThan(100_000);
    // Another process's render (or invalidation) is still seen at once.
    await s.set('/big', snap('<p>new</p>', { build: handler.build }), 60_000);
    expect((await handler.render('/big')).html).toBe('<p>new</p>');
    await s.delete('/big');
    expect((await handler.render('/big')).html).toContain(html);
  });

  it('tells whether a snapshot it gave back is still the one kept, from its header alone', async () => {
    const { store: s } = await store();
    await s.set('/a', snap('one', { redirect: '/b' }), 60_000);
    const read = (await s.get('/a')) as StoredSnapshot;
    expect(await s.holds?.('/a', { ...read })).toBe(true);
    expect(await s.holds?.('/a', { ...read, renderedAt: read.renderedAt + 1 })).toBe(false);
    expect(await s.holds?.('/a', { ...read, html: 'other', etag: '"other"' })).toBe(false);
    await s.set('/a', snap('one', { renderedAt: Date.now() + 5 }), 60_000);
    expect(await s.holds?.('/a', read)).toBe(false);
    await s.delete('/a');
    expect(await s.holds?.('/a', read)).toBe(false);
  });
});

describe('redisStore faults', () => {
  it('fails at once while the client is not connected (Redis down at start)', async () => {
    const client = await connect('redis://127.0.0.1:1', false);
    const s = redisStore({ client });
    const sent = countCommands(client);
    // Had it queued them for a connection, they would fail after commandTimeoutMs, in other words.
    await expect(s.get('/a')).rejects.toThrow(/Redis is not connected/);
    await expect(s.lock('/a', 1000)).rejects.toThrow(/Redis is not connected/);
    expect(sent()).toBe(0);
  });

  it('gives up on a Redis that does not answer after commandTimeoutMs, rests retryMs, then uses it again', async () => {
    // The timeout is what the test waits for once, with Redis paused; it is also how long the
    // commands before and after have to answer on a busy machine, hence 2 s and not 150 ms.
    const { store: s, client } = await store({ commandTimeoutMs: 2000, retryMs: 300 });
    await s.set('/a', snap('kept'), 60_000);
    const sent = countCommands(client);
    redisServer.server.pause();
    try {
      await expect(s.get('/a')).rejects.toThrow(/did not answer GET within 2000 ms/);
      expect(sent()).toBe(1);
      // Resting: refused without a command sent, so a slow Redis costs one timeout per retryMs.
      await expect(s.get('/a')).rejects.toThrow(/tried again after 300 ms/);
      await expect(s.lock('/a', 1000)).rejects.toThrow(/tried again after 300 ms/);
      expect(sent()).toBe(1);
    } finally {
      redisServer.server.resume();
    }
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await s.get('/a'))?.html).toBe('kept');
    expect(sent()).toBe(2);
  });

  it('(the tests’ redis-server helper) says how to install redis-server when it is missing', () => {
    expect(() => redisServerPath({ PATH: '/nonexistent' })).toThrow('run `apt-get install -y redis-server` (as root)');
  });

  it('refuses options that cannot work', () => {
    expect(() => redisStore({ client: {} as never })).toThrow(/client must be a node-redis client/);
  });

  it('says to wrap a client passed as the options object itself: redisStore({ client })', () => {
    const client = { isReady: true, sendCommand: async () => null, on: () => {} };
    expect(() => redisStore(client as never)).toThrow('redisStore takes { client }, not the client itself: write redisStore({ client })');
    expect(() => redisStore({ client: { isReady: true, sendCommand: async () => null, on: () => {} }, maxBytes: 0 })).toThrow(
      /maxBytes must be a number above 0/,
    );
  });
});
