// A cached snapshot served from redisStore against the same snapshot from the memory store:
// req/s of each (autocannon, 50 connections, alternating rounds, medians) and their ratio. The
// handlers run in a child process, redis-server (Debian's) in another, the load in this one.
import { startRedis } from '../scripts/redis-server.mjs';
import { compareThroughput, startServers } from './lib/throughput.mjs';

/** `{ memory, redis }`: req/s for one cached snapshot from each store, with non-2xx and errors. */
export async function runRedis({ quick = false } = {}) {
  const redis = await startRedis();
  const servers = await startServers(new URL('./lib/serve-stores.mjs', import.meta.url), { args: [redis.url] }).catch(async (error) => {
    await redis.stop();
    throw error;
  });
  try {
    const url = (port) => `http://127.0.0.1:${port}/books/1?_escaped_fragment_=`;
    // The warm-up renders the snapshot into each store and lets the JIT settle.
    return await compareThroughput({ memory: url(servers.ports.memory), redis: url(servers.ports.redis) }, { quick });
  } finally {
    servers.stop();
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
