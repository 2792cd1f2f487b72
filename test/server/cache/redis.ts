import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedis, type RedisServer } from '../../../scripts/redis-server.mjs';

/**
 * Debian's redis-server for one test file, started before its tests and stopped after them, and
 * node-redis clients of it, each destroyed after the test that connected it.
 */
export function useRedis() {
  let redis: RedisServer | undefined;
  const clients: { destroy(): void }[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());
  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
  });
  return {
    /** The server, once started. */
    get server(): RedisServer {
      return redis as RedisServer;
    },
    /** A client of the server (or of `url`), connected unless `wait` is false (nothing listens there). */
    async connect(url = (redis as RedisServer).url, wait = true) {
      const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
      client.on('error', () => {});
      clients.push(client);
      const connecting = client.connect().catch(() => {});
      if (wait) await connecting;
      return client;
    },
  };
}
