// What the operating system adds around a page process, where it allows it. On Linux, `unshare`
// (util-linux) starts the process in a network namespace of its own, with no interface but a
// loopback that is down: no connection, no datagram, no DNS query leaves it, whatever the page's
// script reaches inside the process. And in a PID namespace: the process sees no other process,
// so it can signal or renice none. Creating namespaces needs root, or unprivileged user
// namespaces (then a user namespace too); where neither is allowed (a locked-down container, not
// Linux) the page process runs without them, and its network is closed in Node only (harden.ts).
// Wherever `prlimit` (util-linux) runs, the process may also dump no core: a page that aborts its
// process (`process.abort()`, or V8 out of memory) had the kernel write a core file (55 MB for a
// bare Node) into the server's working directory wherever the server's own limit allowed cores,
// past the permission model's "no write", once a crawler URL.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How page processes are started: the command and its arguments before Node's own. */
export interface Isolation {
  /** The command to run (`prlimit`, `unshare`, or Node itself). */
  command: string;
  /** Arguments before Node's flags, ending with Node's path (none when the command is Node). */
  prefix: string[];
  /** The namespaces the page processes run in (`[]` where the OS allows none). */
  namespaces: Array<'network' | 'pid'>;
}

const NAMESPACES = ['--net', '--pid', '--fork', '--kill-child'];
const TRIES = [NAMESPACES, ['--user', '--map-root-user', ...NAMESPACES]];

let found: Isolation | undefined;

/** The first of `files` that exists, on Linux. */
const tool = (files: string[]) => (process.platform === 'linux' ? files.find((file) => existsSync(file)) : undefined);

/** The process id Node reports when started by `argv`, or null when it does not start. */
function pidOf(argv: string[]): string | null {
  const tried = spawnSync(argv[0]!, [...argv.slice(1), '-e', 'process.stdout.write(String(process.pid))'], {
    env: {},
    encoding: 'utf8',
    timeout: 5000,
  });
  return tried.status === 0 ? tried.stdout : null;
}

/**
 * The isolation page processes get here, found once by trying it: the first `unshare` that starts
 * Node in new network and PID namespaces, else none; under `prlimit --core=0` where that runs.
 */
export function isolation(): Isolation {
  if (found) return found;
  const unshare = tool(['/usr/bin/unshare', '/bin/unshare']);
  const prlimit = tool(['/usr/bin/prlimit', '/bin/prlimit']);
  const noCores = prlimit && pidOf([prlimit, '--core=0', '--', process.execPath]) ? [prlimit, '--core=0', '--'] : [];
  const made = (argv: string[], namespaces: Isolation['namespaces']): Isolation =>
    (found = { command: argv[0]!, prefix: argv.slice(1), namespaces });
  for (const flags of unshare ? TRIES : []) {
    const argv = [...noCores, unshare!, ...flags, '--', process.execPath];
    // PID 1 is the proof that it runs in a namespace of its own.
    if (pidOf(argv) === '1') return made(argv, ['network', 'pid']);
  }
  return made([...noCores, process.execPath], []);
}
