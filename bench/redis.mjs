// A cached snapshot served from redisStore against the same snapshot from the memory store:
// req/s of each (autocannon, 50 connections, alternating rounds, medians) and their ratio, asked
// plain and with `Accept-Encoding: gzip` (as crawlers ask). The handlers run in a child process,
// redis-server (Debian's) in another, the load in this one.
import { startRedis } from '../scripts/redis-server.mjs';
import { compareThroughput, startServers } from './lib/throughput.mjs';

/** `{ plain: { memory, redis }, gzip: { memory, redis } }`: req/s for one cached snapshot from each store, with non-2xx and errors. */
export async function runRedis({ quick = false } = {}) {
  const redis = await startRedis();
  const servers = await startServers(new URL('./lib/serve-stores.mjs', import.meta.url), { args: [redis.url] }).catch(async (error) => {
    await redis.stop();
    throw error;
  });
  try {
    const url = (port) => `http://127.0.0.1:${port}/books/1?_escaped_fragment_=`;
    const urls = { memory: url(servers.ports.memory), redis: url(servers.ports.redis) };
    // The warm-up renders the snapshot into each store and lets the JIT settle.
    const plain = await compareThroughput(urls, { quick });
    return { plain, gzip: await compareThroughput(urls, { quick, headers: { 'accept-encoding': 'gzip' } }) };
  } finally {
    servers.stop();
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [asked, { memory, redis }] of Object.entries(await runRedis({ quick: process.argv.includes('--quick') })))
    console.log(
      `${asked}: memory store ${Math.round(memory.rps)} req/s, redisStore ${Math.round(redis.rps)} req/s: ×${(redis.rps / memory.rps).toFixed(2)}`,
    );
}
