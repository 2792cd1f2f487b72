// `npm run load` (`-- --seconds N`, default 60): autocannon against the snapshot handler's node
// adapter on 127.0.0.1, the server in a child process. Traffic mixes cached states, uncached states
// from a table of 10,000, malformed ugly URLs and unknown states, at 50 and then 200 connections;
// then slow `load` hooks push the render queue past its bound (503 + Retry-After) and the server is
// checked to recover once the load drops. Then the abandoned-request flood: waves of 110 HEAD
// requests for new slow states, each connection closed 20 ms after it is sent, while a crawler asks
// for slow states of its own one after another: its requests must still be served (200).
// Reports req/s, p50/p99 latency, status counts and RSS. The fleet phase sends one stream of mixed
// traffic to one process with a memory store, to two processes with a memory store each (as a load
// balancer would), and to two processes sharing one Redis (redisStore, Debian's redis-server
// started here), and counts renders per distinct state.
import { fork } from 'node:child_process';
import http from 'node:http';
import { writeFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { startRedis } from '../scripts/redis-server.mjs';
import { machine } from './lib/measure.mjs';
import { markdown, print } from './lib/report.mjs';

const MALFORMED = [
  '/?_escaped_fragment_=%zz',
  '/?_escaped_fragment_=%C3%28',
  '/?_escaped_fragment_=%ED%A0%80',
  '/?_escaped_fragment_=a&_escaped_fragment_=b',
  '/?_escaped_fragment_=a&x=1',
  '/items/1?_escaped_fragment_=%E6%97',
];

/** A seeded generator, so every run asks for the same mix. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mixed traffic: 40% cached states, 40% uncached ones, 10% malformed, 10% unknown. */
function mixedPath(next) {
  const r = next();
  if (r < 0.4) return `/items/${1 + Math.floor(next() * 50)}?_escaped_fragment_=`;
  if (r < 0.8) return `/items/${1 + Math.floor(next() * 10_000)}?_escaped_fragment_=`;
  if (r < 0.9) return MALFORMED[Math.floor(next() * MALFORMED.length)];
  return `/nope/${Math.floor(next() * 1e6)}?_escaped_fragment_=`;
}

function run(options) {
  return autocannon({ timeout: 10, ...options });
}

const statuses = (result) =>
  Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));

/** Starts the server child (on `redisUrl`'s Redis, if given); resolves to its origin, RSS and render readers and a stop(). */
async function startServer(redisUrl) {
  const child = fork(new URL('./lib/load-server.mjs', import.meta.url), redisUrl ? [redisUrl] : [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reply = (key) => new Promise((resolve) => child.once('message', (message) => resolve(message[key])));
  const ask = (key, whole = false) => {
    const answer = whole ? new Promise((resolve) => child.once('message', resolve)) : reply(key);
    child.send(key);
    return answer;
  };
  const port = await reply('port');
  return {
    origin: `http://127.0.0.1:${port}`,
    rss: async () => (await ask('rss')) / 2 ** 20,
    renders: () => ask('renders', true),
    shed: () => ask('shed'),
    stop: () => child.kill(),
  };
}

/** Sends a request from 127.0.0.2 and closes its connection `ms` after it is on the wire, as an abusive client does; resolves to the status if one came first. */
function abandon(origin, path, ms) {
  return new Promise((resolve) => {
    let status = null;
    const req = http.request(`${origin}${path}`, { method: 'HEAD', agent: false, localAddress: '127.0.0.2' }, (res) => {
      status = res.statusCode;
      res.resume();
    });
    req.on('error', () => {});
    req.on('close', () => resolve(status));
    req.end(() => setTimeout(() => req.destroy(), ms));
  });
}

/**
 * The abandoned-request flood for `seconds`: a wave of 110 abandoning requests for new slow states
 * every 100 ms, and meanwhile a crawler fetching slow states of its own, one after another.
 */
export async function flood(origin, seconds) {
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  let limited = 0;
  const attacker = (async () => {
    while (Date.now() < until) {
      const wave = Array.from({ length: 110 }, () => abandon(origin, `/slow/flood-${++sent}?_escaped_fragment_=`, 20));
      const [statuses] = await Promise.all([Promise.all(wave), new Promise((resolve) => setTimeout(resolve, 100))]);
      limited += statuses.filter((status) => status === 429).length;
    }
  })();
  const crawler = [];
  await new Promise((resolve) => setTimeout(resolve, 200));
  while (Date.now() < until) {
    const started = Date.now();
    const answer = await fetch(`${origin}/slow/crawler-${crawler.length}?_escaped_fragment_=`);
    await answer.arrayBuffer();
    crawler.push({ status: answer.status, ms: Date.now() - started });
  }
  await attacker;
  return { sent, limited, crawler };
}

const FLEETS = [
  { name: 'one process, memory store', redis: [false] },
  { name: 'two processes, a memory store each', redis: [false, false] },
  { name: 'two processes, one Redis', redis: [true, true] },
];

/** The fleet phase: the same mixed stream against each set-up; req/s, p99 and renders per distinct state. */
export async function runFleet({ seconds = 60, connections = 50 } = {}) {
  const redis = await startRedis();
  const phases = [];
  try {
    for (const fleet of FLEETS) {
      const servers = await Promise.all(fleet.redis.map((shared) => startServer(shared ? redis.url : undefined)));
      try {
        // One stream, drawn by every load generator in turn: each state goes to whichever process is free.
        const next = random(15);
        const requests = [{ method: 'GET', setupRequest: (request) => ({ ...request, path: mixedPath(next) }) }];
        const results = await Promise.all(
          servers.map((server) => run({ url: server.origin, connections: connections / servers.length, duration: seconds, requests })),
        );
        const renders = {};
        let storeFaults = 0;
        for (const answer of await Promise.all(servers.map((server) => server.renders()))) {
          for (const [id, n] of Object.entries(answer.renders)) renders[id] = (renders[id] ?? 0) + n;
          storeFaults += answer.storeFaults;
        }
        const counts = {};
        for (const result of results) for (const [code, n] of Object.entries(statuses(result))) counts[code] = (counts[code] ?? 0) + n;
        const total = Object.values(renders).reduce((a, b) => a + b, 0);
        phases.push({
          name: fleet.name,
          rps: results.reduce((sum, r) => sum + r.requests.average, 0),
          p99: Math.max(...results.map((r) => r.latency.p99)),
          statuses: counts,
          errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
          states: Object.keys(renders).length,
          rendersPerState: total / Object.keys(renders).length,
          storeFaults,
        });
      } finally {
        for (const server of servers) server.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  return phases;
}

/** The fleet report's rows. */
export function fleetRows(phases) {
  return phases.map((p) => [
    p.name,
    Math.round(p.rps).toLocaleString('en-US'),
    `${p.p99} ms`,
    Object.entries(p.statuses)
      .map(([code, n]) => `${code}: ${n}`)
      .join(', '),
    String(p.errors),
    p.states.toLocaleString('en-US'),
    p.rendersPerState.toFixed(2),
    String(p.storeFaults),
  ]);
}

export const FLEET_HEADER = [
  'set-up',
  'req/s',
  'p99 (worst process)',
  'statuses',
  'errors + timeouts',
  'distinct states rendered',
  'renders per state',
  'store faults',
];

/** Every load phase; `seconds` per phase (the overload phase runs half as long). */
export async function runLoad({ seconds = 60, connections = [50, 200] } = {}) {
  const server = await startServer();
  const phases = [];
  try {
    const start = await server.rss();
    for (const count of connections) {
      const next = random(count);
      const before = await server.rss();
      const result = await run({
        url: server.origin,
        connections: count,
        duration: seconds,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: mixedPath(next) }) }],
      });
      phases.push({ name: `mixed, ${count} connections`, result, before, after: await server.rss() });
    }

    // Overload: every request a new slow state, far more at once than the queue holds.
    let id = 0;
    let retryAfter = null;
    const overload = run({
      url: server.origin,
      connections: 200,
      duration: Math.max(2, seconds / 2),
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/slow/${++id}?_escaped_fragment_=` }) }],
    });
    const before = await server.rss();
    phases.push({ name: 'slow loads, 200 connections', result: await overload, before, after: await server.rss() });
    // The Retry-After the server's 503s carried, as it counted them (a probe of our own races the
    // load, and on a busy machine may find a free slot in the queue every time).
    const told = Object.keys(await server.shed());
    retryAfter = told.length ? told.join(' / ') : null;

    // Recovery: once the load has gone and the Retry-After it announced has passed (renders under
    // way finish meanwhile), slow states render again, each within its 200 ms and a margin.
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(retryAfter ?? 2)));
    const recovery = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const answer = await fetch(`${server.origin}/slow/after-${i}?_escaped_fragment_=`);
      await answer.arrayBuffer();
      recovery.push({ status: answer.status, ms: Date.now() - started });
    }
    const abuse = await flood(server.origin, Math.max(2, seconds / 2));
    return { phases, retryAfter, recovery, flood: abuse, start, end: await server.rss() };
  } finally {
    server.stop();
  }
}

/** The report's rows: one per phase. */
export function rows({ phases }) {
  return phases.map(({ name, result, before, after }) => [
    name,
    Math.round(result.requests.average).toLocaleString('en-US'),
    `${result.latency.p50} ms`,
    `${result.latency.p99} ms`,
    Object.entries(statuses(result))
      .map(([code, n]) => `${code}: ${n}`)
      .join(', '),
    String(result.errors + result.timeouts),
    `${before.toFixed(0)} → ${after.toFixed(0)} MiB`,
  ]);
}

/** What the flood phase says: how many requests were abandoned and how the crawler fared. */
export function floodNote({ sent, limited, crawler }) {
  const served = crawler.filter((r) => r.status === 200).length;
  const slowest = Math.max(0, ...crawler.map((r) => r.ms));
  return `Abandoned-request flood: ${sent.toLocaleString('en-US')} HEAD requests from 127.0.0.2 for new slow states, each closed 20 ms after it was sent (${limited.toLocaleString('en-US')} refused with 429 by the per-client limit before that); meanwhile a crawler's ${crawler.length} requests got ${served} × 200 (${crawler.length === served ? 'still served' : 'NOT all served'}), the slowest in ${slowest} ms.`;
}

export const HEADER = ['phase', 'req/s', 'p50', 'p99', 'statuses', 'errors + timeouts', 'server RSS'];
export { statuses };

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at > 0 ? Number(process.argv[at + 1]) : 60;
  const report = await runLoad({ seconds });
  print(`Load, ${seconds} s a phase`, HEADER, rows(report));
  const fleet = await runFleet({ seconds });
  print(`Fleet, ${seconds} s a set-up, 50 connections in all`, FLEET_HEADER, fleetRows(fleet));
  const recovered = report.recovery.every((r) => r.status === 200);
  const notes = [
    `503 answers carried Retry-After: ${report.retryAfter ?? 'none seen'}.`,
    `After the overload: ${report.recovery.map((r) => `${r.status} in ${r.ms} ms`).join(', ')} (${recovered ? 'recovered' : 'NOT recovered'}).`,
    floodNote(report.flood),
    `Server RSS from start to end: ${report.start.toFixed(0)} → ${report.end.toFixed(0)} MiB (the cache holds at most 2,000 snapshots or 8 MB).`,
  ];
  console.log('\n' + notes.join('\n'));
  const fleetNote =
    'One stream of mixed traffic (the same seed for each set-up), 50 connections split across the processes; renders per state counts `load` calls per distinct item, in all processes together (goal with Redis: 1.00); store faults are outages reported to onError (a Redis command past its 500 ms timeout on a busy machine), each of which lets a process render on its own.';
  const md = `# Load results\n\n\`npm run load -- --seconds ${seconds}\` on ${machine()}, ${new Date().toISOString().slice(0, 10)}.\n\n${markdown(HEADER, rows(report))}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n\n## Fleet\n\n${markdown(FLEET_HEADER, fleetRows(fleet))}\n\n${fleetNote}\n`;
  await writeFile(new URL('./LOAD.md', import.meta.url), md);
  console.log('wrote bench/LOAD.md');
}
