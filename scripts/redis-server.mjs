// A real redis-server (Debian's package) for the tests and `npm run load`: on 127.0.0.1 at a free
// port the OS picked, with no persistence, stopped by whoever started it. It can be killed and
// started again on the same port (an outage), or paused with SIGSTOP (a Redis that accepts
// commands and never answers). Where redis-server is missing it fails with the command to install it.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The command that installs redis-server on Debian. */
export const INSTALL = 'apt-get install -y redis-server';

/** Where redis-server is on the PATH of `env`, or an error that says how to install it. */
export function redisServerPath(env = process.env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir || '.', 'redis-server');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`redis-server is not installed; these tests need Debian's redis-server: run \`${INSTALL}\` (as root)`);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts redis-server on a free port; resolves once it accepts connections. @returns {Promise<import('./redis-server.d.mts').RedisServer>} */
export async function startRedis() {
  const binary = redisServerPath();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crawlable-redis-'));
  const port = await freePort();
  let child;

  async function launch() {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'];
    child = spawn(binary, args, { stdio: 'ignore' });
    const started = Date.now();
    // Ready once it accepts a connection; 100 tries, 50 ms apart.
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} (port ${port} taken?)`);
      const ok = await new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    throw new Error(`redis-server did not listen on port ${port} within ${Date.now() - started} ms`);
  }

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: launch,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
