// Throughput side by side: servers in a child process (so the load generator shares no event loop
// with them), autocannon from this one, alternating rounds so every server sees the same machine
// load, medians. Shared by the cached-snapshot, clean-URL and store benchmarks.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { median } from './measure.mjs';

/** Forks `script` (a server that prints its ports as one JSON line) and resolves to `{ ports, stop }`. */
export async function startServers(script, { args = [], env } = {}) {
  const child = fork(script, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], ...(env && { env }) });
  try {
    const ports = await new Promise((resolve, reject) => {
      child.stdout.once('data', (line) => resolve(JSON.parse(String(line))));
      child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    });
    return { ports, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  }
}

async function requestsPerSecond(url, seconds, headers) {
  const result = await autocannon({ url, connections: 50, duration: seconds, pipelining: 1, ...(headers && { headers }) });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/**
 * req/s of each URL of `urls` (`{ name: url }`), 50 connections: a one-second warm-up each, then
 * three alternating rounds (two seconds each with `quick`, else five); `{ name: { rps, non2xx, errors } }`.
 */
export async function compareThroughput(urls, { quick = false, headers } = {}) {
  const names = Object.keys(urls);
  for (const name of names) await requestsPerSecond(urls[name], 1, headers);
  const seconds = quick ? 2 : 5;
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < 3; i++) for (const name of names) rounds[name].push(await requestsPerSecond(urls[name], seconds, headers));
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        rps: median(rounds[name].map((r) => r.rps)),
        non2xx: rounds[name].reduce((n, r) => n + r.non2xx, 0),
        errors: rounds[name].reduce((n, r) => n + r.errors, 0),
      },
    ]),
  );
}
