import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../helpers.js';
import { startRedis, type RedisServer } from '../../../scripts/redis-server.mjs';

// A fleet for real: child processes, each its own snapshot handler (the built package) and its own
// node-redis client, sharing one redis-server (test/server/cache/fleet-worker.mjs is one process).

const WORKER = new URL('./fleet-worker.mjs', import.meta.url);

interface Counts {
  loads: Record<string, number>;
  errors: string[];
}

interface Member {
  port: number;
  counts(): Promise<Counts>;
  invalidate(target: { prefix: string } | { location: string }): Promise<void>;
  child: ChildProcess;
}

let redis: RedisServer | undefined;
let members: Member[] = [];
afterEach(async () => {
  for (const member of members) member.child.kill();
  members = [];
  await redis?.stop();
  redis = undefined;
});

let next = 0;
async function startMember(config: object): Promise<Member> {
  const child = fork(WORKER, [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the fleet worker exited with ${code}`)));
  });
  const ask = <T>(message: object) =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      const onMessage = (answer: T & { id: number; error?: string }) => {
        if (answer.id !== id) return;
        child.off('message', onMessage);
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      };
      child.on('message', onMessage);
      child.send({ id, ...message });
    });
  const member = {
    port,
    child,
    counts: () => ask<Counts>({ op: 'counts' }),
    invalidate: (target: object) => ask<void>({ op: 'invalidate', ...target }),
  };
  members.push(member);
  return member;
}

// Liveness bounds, far above what a loaded 2-core machine takes: how long `eventually` asks for a
// fleet to share again, and the command timeout of members whose test is not about a slow Redis
// (the store's default, 500 ms, once timed out a healthy command and told onError of an outage).
const SHARES_AGAIN_WITHIN_MS = 20_000;
const LIVENESS_COMMAND_TIMEOUT_MS = 10_000;

async function startFleet(size: number, options: object = {}) {
  redis = await startRedis();
  const config = { url: redis.url, prefix: 'fleet:', ready: true, loadMs: 50, commandTimeoutMs: LIVENESS_COMMAND_TIMEOUT_MS, ...options };
  return Promise.all(Array.from({ length: size }, () => startMember(config)));
}

const ugly = (location: string) => `/?_escaped_fragment_=${location}`;
const loadsOf = async (fleet: Member[], location: string) =>
  (await Promise.all(fleet.map((m) => m.counts()))).map((c) => c.loads[location] ?? 0);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Asks until `check` holds, 50 ms apart, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Child processes start slowly on a busy machine: a minute a test.
describe('a fleet sharing one Redis', { timeout: 60_000 }, () => {
  it('runs load once for 100 concurrent requests of one new state across three processes, and all get the same snapshot', async () => {
    const fleet = await startFleet(3);
    const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => request(fleet[i % 3]!.port, ugly('/items/1'))));
    expect(replies.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(replies.map((r) => r.headers.etag)).size).toBe(1);
    expect(sum(await loadsOf(fleet, '/items/1'))).toBe(1);
  });

  it('serves in one process the snapshot another rendered, until an invalidate in either', async () => {
    const [a, b] = (await startFleet(2)) as [Member, Member];
    const first = await request(a.port, ugly('/items/2'));
    const second = await request(b.port, ugly('/items/2'));
    expect(second.status).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await loadsOf([a, b], '/items/2')).toEqual([1, 0]);

    await a.invalidate({ location: '/items/2' });
    const third = await request(b.port, ugly('/items/2'));
    expect(third.body).not.toBe(first.body);
    expect(await loadsOf([a, b], '/items/2')).toEqual([1, 1]);

    await b.invalidate({ prefix: '/items/' });
    await request(a.port, ugly('/items/2'));
    expect(await loadsOf([a, b], '/items/2')).toEqual([2, 1]);
  });

  it('answers a request that waited on a holder killed mid-render from its own render, within timeoutMs', async () => {
    // A render of 1.5 s and a timeout of 20 s: the waiter waits for another's render at most
    // timeoutMs (a 504 after), so its 200 and its own load prove it took over the dead holder's lock
    // (which lapses 2 s after the holder's last renewal) rather than waiting for the render.
    const [a, b] = (await startFleet(2, { loadMs: 1500, timeoutMs: 20_000 })) as [Member, Member];
    const holder = request(a.port, ugly('/items/orphan')).catch(() => null);
    await eventually(async () => (await a.counts()).loads['/items/orphan'] === 1, SHARES_AGAIN_WITHIN_MS);
    const waiting = request(b.port, ugly('/items/orphan'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    a.child.kill('SIGKILL');
    const reply = await waiting;
    await holder;
    expect(reply.status).toBe(200);
    expect((await b.counts()).loads['/items/orphan']).toBe(1);
  });

  it('answers 200 through a Redis killed mid-run, tells onError once per process, and shares again once Redis is back', async () => {
    const fleet = await startFleet(2, { loadMs: 5 });
    let stop = false;
    const statuses: number[] = [];
    let i = 0;
    const traffic = Promise.all(
      fleet.map(async (member) => {
        while (!stop) statuses.push((await request(member.port, ugly(`/items/${++i % 40}`))).status);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis!.kill();
    await new Promise((resolve) => setTimeout(resolve, 700));
    await redis!.restart();
    await new Promise((resolve) => setTimeout(resolve, 700));
    stop = true;
    await traffic;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const { errors } of await Promise.all(fleet.map((m) => m.counts()))) expect(errors.length).toBe(1);

    const [a, b] = fleet as [Member, Member];
    await eventually(async () => {
      const location = `/items/after-${++i}`;
      await request(a.port, ugly(location));
      await request(b.port, ugly(location));
      return (await loadsOf(fleet, location))[1] === 0;
    }, SHARES_AGAIN_WITHIN_MS);
  });

  it('answers 200 with Redis down at start, and shares once it comes up', async () => {
    redis = await startRedis();
    await redis.kill();
    const config = { url: redis.url, prefix: 'fleet:', loadMs: 5, commandTimeoutMs: LIVENESS_COMMAND_TIMEOUT_MS };
    const [a, b] = [await startMember(config), await startMember(config)];
    for (const member of [a, b]) expect((await request(member.port, ugly('/items/early'))).status).toBe(200);
    await redis.restart();
    let n = 0;
    await eventually(async () => {
      const location = `/items/late-${++n}`;
      await request(a.port, ugly(location));
      await request(b.port, ugly(location));
      return (await loadsOf([a, b], location))[1] === 0;
    }, SHARES_AGAIN_WITHIN_MS);
    for (const { errors } of await Promise.all([a, b].map((m) => m.counts()))) expect(errors).toHaveLength(1);
  });

  it('answers a slow Redis’s requests itself within the handler’s timeout, then shares again', async () => {
    // Each reply is a 200, not the handler's 504 at timeoutMs: it did not wait on Redis for its
    // answer. The command timeout (1 s) is what each paused request waits; 10 s leaves a loaded
    // machine room, and the healthy commands before and after have 1 s to answer.
    const fleet = await startFleet(2, { loadMs: 5, timeoutMs: 10_000, commandTimeoutMs: 1000, retryMs: 300 });
    const [a, b] = fleet as [Member, Member];
    expect((await request(a.port, ugly('/items/3'))).status).toBe(200);
    redis!.pause();
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => request(fleet[i % 2]!.port, ugly(`/items/${i % 4}`))));
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    } finally {
      redis!.resume();
    }
    for (const { errors } of await Promise.all(fleet.map((m) => m.counts())))
      expect(errors).toEqual([expect.stringMatching(/did not answer/)]);
    let n = 0;
    await eventually(async () => {
      const location = `/items/slow-${++n}`;
      await request(a.port, ugly(location));
      await request(b.port, ugly(location));
      return (await loadsOf(fleet, location))[1] === 0;
    }, SHARES_AGAIN_WITHIN_MS);
  });
});
