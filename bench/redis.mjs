// A cached snapshot served from redisStore against the same snapshot from the memory store:
// req/s of each (autocannon, 50 connections, alternating rounds, medians) and their ratio. The
// handlers run in a child process, redis-server (Debian's) in another, the load in this one.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { startRedis } from '../scripts/redis-server.mjs';
import { median } from './lib/measure.mjs';

async function requestsPerSecond(url, seconds) {
  const result = await autocannon({ url, connections: 50, duration: seconds });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/** `{ memory, redis }`: req/s for one cached snapshot from each store, with non-2xx and errors. */
export async function runRedis({ quick = false } = {}) {
  const redis = await startRedis();
  const child = fork(new URL('./lib/serve-stores.mjs', import.meta.url), [redis.url], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  try {
    const ports = await new Promise((resolve, reject) => {
      child.stdout.once('data', (line) => resolve(JSON.parse(String(line))));
      child.once('exit', (code) => reject(new Error(`the store server exited with ${code}`)));
    });
    const url = (port) => `http://127.0.0.1:${port}/books/1?_escaped_fragment_=`;
    // Warm-up: renders the snapshot into each store, and lets the JIT settle.
    for (const port of [ports.memory, ports.redis]) await requestsPerSecond(url(port), 1);
    const seconds = quick ? 2 : 5;
    const rounds = { memory: [], redis: [] };
    for (let i = 0; i < 3; i++) {
      rounds.memory.push(await requestsPerSecond(url(ports.memory), seconds));
      rounds.redis.push(await requestsPerSecond(url(ports.redis), seconds));
    }
    const pick = (list) => ({
      rps: median(list.map((r) => r.rps)),
      non2xx: list.reduce((n, r) => n + r.non2xx, 0),
      errors: list.reduce((n, r) => n + r.errors, 0),
    });
    return { memory: pick(rounds.memory), redis: pick(rounds.redis) };
  } finally {
    child.kill();
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { memory, redis } = await runRedis({ quick: process.argv.includes('--quick') });
  console.log(
    `memory store ${Math.round(memory.rps)} req/s, redisStore ${Math.round(redis.rps)} req/s: ×${(redis.rps / memory.rps).toFixed(2)}`,
    { memory, redis },
  );
}
