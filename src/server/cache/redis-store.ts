// A snapshot store in Redis, shared by every process of a fleet, on a node-redis client (the `redis`
// package, an optional peer: the store only calls the client it is given, so nothing here imports
// it). Each snapshot is one key written with its TTL in one command (`SET … PX`); a state's render
// lock is a second key taken with `SET NX PX` and a random token (in a Lua script that first checks
// the snapshot is not kept), and let go only by its holder (compare-and-delete), so one process
// renders a state for the whole fleet. A lock the store did not write, or one without a TTL, never
// holds a state for good: it is taken over, or given a TTL to lapse.
//
// Faults: Redis is never waited on longer than `commandTimeoutMs` (node-redis's own timeout stops
// at the socket: a command written to a Redis that hangs would wait forever), a client that is not
// connected fails at once, and after a timeout Redis is left alone for `retryMs` so a slow Redis
// costs one timeout per `retryMs`, not one per request. The cache turns each failure into a miss.

import { createHash, randomBytes } from 'node:crypto';
import type { AppLocation } from '../../url/location.js';
import type { SnapshotLock, SnapshotStore, StoredSnapshot } from './store.js';
import { optionsOf, positiveOption, SnapshotError } from '../errors.js';

/** The part of a node-redis client (`createClient()` of the `redis` package, v5 or later) the store uses. */
export interface RedisClientLike {
  /** True while connected and ready for commands. */
  readonly isReady: boolean;
  /** Sends one command as its words. */
  sendCommand(args: ReadonlyArray<string | Buffer>, options?: { typeMapping?: Record<number, unknown> }): Promise<unknown>;
  /** Listens to the client's events; the store listens to `error` so a lost connection never ends the process. */
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /** A node-redis client; connect it without awaiting (`client.connect().catch(…)`) so a Redis that is down does not hold the start. Required. */
  client: RedisClientLike;
  /** The start of every key the store writes; two sites on one Redis need two prefixes. Default `'crawlable-router:'`. */
  prefix?: string | undefined;
  /** Largest snapshot kept, in bytes as stored; a larger one is served but not kept. Default 2 MiB. */
  maxBytes?: number | undefined;
  /** Longest TTL of an entry, in ms, also for a cache whose `ttlMs` is Infinity: every key expires. Default 86400000 (one day). */
  maxTtlMs?: number | undefined;
  /** Longest wait for one command, in ms; past it the request goes on without Redis. Default 500. */
  commandTimeoutMs?: number | undefined;
  /** After a command timed out, how long Redis is left alone before it is tried again, in ms. Default 1000. */
  retryMs?: number | undefined;
}

/** The Redis store: a snapshot store whose render locks hold across the fleet. */
export interface RedisStore extends SnapshotStore {
  /** The render lock of a state for `ttlMs`, or null while another process holds it. */
  lock(key: AppLocation, ttlMs: number): Promise<SnapshotLock | null>;
}

// The stored value: MAGIC, one line of JSON (every field of the snapshot but its HTML, plus the
// HTML's byte length), then the HTML as UTF-8 bytes. Anything else at our key is a miss.
const MAGIC = 'crawlable-router/1\n';
const MAGIC_BYTES = Buffer.from(MAGIC);
// RESP's blob string ('$') read as a Buffer, so the HTML's bytes come back exactly as written.
const AS_BUFFER = { typeMapping: { 36: Buffer } };
const UTF8 = new TextDecoder('utf-8', { fatal: true });

// KEYS[1] the lock; ARGV[1] the holder's token. Only the holder may let go, extend or commit: a
// holder whose lock expired and was taken by another never touches the new holder's lock.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
// KEYS[2] the snapshot, ARGV[3] MAGIC. A state already kept is not locked: whoever asks reads it
// instead. What is kept must be ours (a string that starts with MAGIC): anything else at the key (a
// later version's format, another app's value, a hash) reads as a miss, so no lock for it would
// leave every request waiting for a render no one does until the value expires.
// A lock held must be ours too, and lapse: one that is not a token of the store's shape (its length,
// base64url; `SET …lock:/books/1 x` by hand, a hash) is nobody's and is taken at once; one of its
// shape without a TTL (PERSIST) is given ARGV[2], so a live holder keeps it by extending it and a dead
// one's lapses. Either left as it is would make its state a 504 for as long as the key lives.
const LOCK = `if redis.call('TYPE', KEYS[2]).ok == 'string' and redis.call('GETRANGE', KEYS[2], 0, #ARGV[3] - 1) == ARGV[3] then return 0 end if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end local held = redis.call('TYPE', KEYS[1]).ok == 'string' and redis.call('GET', KEYS[1]) if not held or #held ~= #ARGV[1] or string.find(held, '[^%w_%-]') then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
// KEYS[1] the snapshot, ARGV[1] the header of one found stale: that snapshot goes, not a newer one
// another process has kept since, and the state's lock stays with whoever renders it now.
const EXPIRE = `if redis.call('TYPE', KEYS[1]).ok == 'string' and redis.call('GETRANGE', KEYS[1], 0, #ARGV[1] - 1) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
// ARGV[2] the snapshot's value, ARGV[3] its TTL.
const COMMIT = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) redis.call('DEL', KEYS[1]) return 1 end return 0`;

/** What a stored value starts with: MAGIC and the line of the snapshot's fields. A snapshot decoded from a value gives back its header, fields in the same order. */
function headerOf(snapshot: StoredSnapshot, bytes = Buffer.byteLength(snapshot.html)): Buffer {
  const { html: _html, ...fields } = snapshot;
  return Buffer.from(MAGIC + JSON.stringify({ ...fields, bytes }) + '\n');
}

/** Encodes a snapshot as the store keeps it. */
export function encodeSnapshot(snapshot: StoredSnapshot): Buffer {
  const body = Buffer.from(snapshot.html);
  return Buffer.concat([headerOf(snapshot, body.length), body]);
}

/** Decodes a stored value; undefined for anything that is not a whole snapshot of ours. */
export function decodeSnapshot(value: unknown): StoredSnapshot | undefined {
  if (!Buffer.isBuffer(value) || !value.subarray(0, MAGIC_BYTES.length).equals(MAGIC_BYTES)) return undefined;
  const end = value.indexOf(10, MAGIC_BYTES.length);
  if (end < 0) return undefined;
  try {
    const fields: unknown = JSON.parse(value.toString('utf8', MAGIC_BYTES.length, end));
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
    const { bytes, ...rest } = fields as Record<string, unknown>;
    const { status, etag, renderedAt, build } = rest;
    const body = value.subarray(end + 1);
    if (bytes !== body.length || typeof etag !== 'string' || typeof renderedAt !== 'number' || !Number.isFinite(renderedAt))
      return undefined;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return undefined;
    if (build !== undefined && typeof build !== 'string') return undefined;
    return { ...rest, status, etag, renderedAt, html: UTF8.decode(body) };
  } catch {
    return undefined;
  }
}

/** A glob pattern matching `text` literally (SCAN's MATCH). */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** A snapshot store in Redis shared by a fleet: TTL'd entries, a render lock per state, invalidation seen by every process. */
export function redisStore(options: RedisStoreOptions): RedisStore {
  const { client } = optionsOf(options, 'redisStore', '{ client, prefix }');
  if (!client && typeof (options as { sendCommand?: unknown }).sendCommand === 'function')
    throw new SnapshotError('BAD_OPTION', 'redisStore takes { client }, not the client itself: write redisStore({ client })');
  if (!client || typeof client.sendCommand !== 'function')
    throw new SnapshotError('BAD_OPTION', 'client must be a node-redis client (createClient() of the redis package)');
  const prefix = options.prefix ?? 'crawlable-router:';
  if (typeof prefix !== 'string') throw new SnapshotError('BAD_OPTION', 'prefix must be a string');
  const maxBytes = positiveOption(options.maxBytes, 2 * 2 ** 20, 'maxBytes');
  const maxTtlMs = positiveOption(options.maxTtlMs, 86_400_000, 'maxTtlMs');
  const commandTimeoutMs = positiveOption(options.commandTimeoutMs, 500, 'commandTimeoutMs');
  const retryMs = positiveOption(options.retryMs, 1000, 'retryMs');
  const snapshotKey = (key: AppLocation) => `${prefix}snapshot:${key}`;
  const lockKey = (key: AppLocation) => `${prefix}lock:${key}`;
  const pttl = (ttlMs: number) => String(Math.max(1, Math.ceil(Math.min(ttlMs, maxTtlMs))));
  // An entry expires when the cache would call it stale (renderedAt + ttlMs), never later, so a
  // process finds one stale only when its clock runs ahead of the writer's; it then `expire`s that
  // entry alone, never a newer one or the lock of a render under way.
  const left = (snapshot: StoredSnapshot, ttlMs: number) => ttlMs - Math.max(0, Date.now() - snapshot.renderedAt);
  let restUntil = 0;
  let lastFault: unknown = null;
  // Without a listener, node-redis's 'error' event would throw and end the process.
  client.on('error', (error) => void (lastFault = error));

  async function command(args: ReadonlyArray<string | Buffer>, mapping?: typeof AS_BUFFER): Promise<unknown> {
    if (!client.isReady) throw new Error(`Redis is not connected${lastFault instanceof Error ? `: ${lastFault.message}` : ''}`);
    if (Date.now() < restUntil)
      throw new Error(`Redis did not answer within ${commandTimeoutMs} ms; it is tried again after ${retryMs} ms`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        restUntil = Date.now() + retryMs;
        reject(new Error(`Redis did not answer ${String(args[0])} within ${commandTimeoutMs} ms`));
      }, commandTimeoutMs);
    });
    const sent = client.sendCommand(args, mapping);
    // A reply that comes after the timeout is dropped, and so is its failure.
    sent.catch(() => {});
    try {
      return await Promise.race([sent, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  const digests = new Map<string, string>();
  async function script(source: string, keys: string[], args: ReadonlyArray<string | Buffer>): Promise<unknown> {
    let sha = digests.get(source);
    if (!sha) digests.set(source, (sha = createHash('sha1').update(source).digest('hex')));
    const words = [String(keys.length), ...keys, ...args];
    try {
      return await command(['EVALSHA', sha, ...words]);
    } catch (error) {
      // A Redis that restarted has forgotten the script.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return command(['EVAL', source, ...words]);
    }
  }

  return {
    async get(key) {
      try {
        return decodeSnapshot(await command(['GET', snapshotKey(key)], AS_BUFFER));
      } catch (error) {
        // A key of another type where ours should be is a value that is not ours: a miss.
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return undefined;
        throw error;
      }
    },
    async holds(key, snapshot) {
      // The header names the HTML by its ETag and length and the render by its time: the same
      // header is the same snapshot. A few hundred bytes read, where `get` reads up to maxBytes.
      const header = headerOf(snapshot);
      try {
        const kept = await command(['GETRANGE', snapshotKey(key), '0', String(header.length - 1)], AS_BUFFER);
        return Buffer.isBuffer(kept) && kept.equals(header);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return false;
        throw error;
      }
    },
    async expire(key, snapshot) {
      await script(EXPIRE, [snapshotKey(key)], [headerOf(snapshot)]);
    },
    async set(key, snapshot, ttlMs) {
      const value = encodeSnapshot(snapshot);
      if (value.length > maxBytes || left(snapshot, ttlMs) <= 0) return;
      await command(['SET', snapshotKey(key), value, 'PX', pttl(left(snapshot, ttlMs))]);
    },
    async delete(key) {
      // The lock goes too: a render in flight anywhere in the fleet is not kept when it lands.
      await command(['DEL', snapshotKey(key), lockKey(key)]);
    },
    async *keys() {
      const kinds = [`${prefix}snapshot:`, `${prefix}lock:`];
      const seen = new Set<AppLocation>();
      let cursor = '0';
      // SCAN, never KEYS: Redis keeps answering others while the fleet's keys are walked.
      do {
        const reply = (await command(['SCAN', cursor, 'MATCH', `${globEscape(prefix)}*`, 'COUNT', '1000'])) as [string, string[]];
        cursor = String(reply[0]);
        for (const name of reply[1]) {
          const kind = kinds.find((k) => name.startsWith(k));
          const location = kind && name.slice(kind.length);
          if (location && !seen.has(location)) {
            seen.add(location);
            yield location;
          }
        }
      } while (cursor !== '0');
    },
    async lock(key, ttlMs): Promise<SnapshotLock | null> {
      const token = randomBytes(16).toString('base64url');
      const name = lockKey(key);
      if ((await script(LOCK, [name, snapshotKey(key)], [token, pttl(ttlMs), MAGIC])) !== 1) return null;
      return {
        extend: async (ms) => void (await script(EXTEND, [name], [token, pttl(ms)])),
        release: async () => void (await script(RELEASE, [name], [token])),
        async commit(snapshot, ms) {
          const value = encodeSnapshot(snapshot);
          if (value.length > maxBytes || left(snapshot, ms) <= 0) return void (await script(RELEASE, [name], [token]));
          await script(COMMIT, [name, snapshotKey(key)], [token, value, pttl(left(snapshot, ms))]);
        },
      };
    },
  };
}
