// What the operating system adds around a page process, where it allows it. On Linux, `unshare`
// (util-linux) starts the process in a network namespace of its own, with no interface but a
// loopback that is down: no connection, no datagram, no DNS query leaves it, whatever the page's
// script reaches inside the process. And in a PID namespace: the process sees no other process,
// so it can signal or renice none. Creating namespaces needs root, or unprivileged user
// namespaces (then a user namespace too); where neither is allowed (a locked-down container, not
// Linux) the page process runs without them, and its network is closed in Node only (harden.ts).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How page processes are started: the command and its arguments before Node's own. */
export interface Isolation {
  /** The command to run (`unshare`, or Node itself). */
  command: string;
  /** Arguments before Node's path and flags (none without namespaces). */
  prefix: string[];
  /** The namespaces the page processes run in (`[]` where the OS allows none). */
  namespaces: Array<'network' | 'pid'>;
}

const NAMESPACES = ['--net', '--pid', '--fork', '--kill-child'];
const TRIES = [NAMESPACES, ['--user', '--map-root-user', ...NAMESPACES]];

let found: Isolation | undefined;

/**
 * The isolation page processes get here, found once by trying it: the first `unshare` that starts
 * Node in new network and PID namespaces, else none.
 */
export function isolation(): Isolation {
  if (found) return found;
  const unshare = process.platform === 'linux' ? ['/usr/bin/unshare', '/bin/unshare'].find((file) => existsSync(file)) : undefined;
  for (const flags of unshare ? TRIES : []) {
    const prefix = [...flags, '--', process.execPath];
    const tried = spawnSync(unshare!, [...prefix, '-e', 'process.stdout.write(String(process.pid))'], {
      env: {},
      encoding: 'utf8',
      timeout: 5000,
    });
    // PID 1 is the proof that it runs in a namespace of its own.
    if (tried.status === 0 && tried.stdout === '1') return (found = { command: unshare!, prefix, namespaces: ['network', 'pid'] });
  }
  return (found = { command: process.execPath, prefix: [], namespaces: [] });
}
