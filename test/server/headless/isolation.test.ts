import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isolation } from '../../../src/server/headless/isolation.js';

// Where the OS allows it, a page process runs in network and PID namespaces of its own: whatever a
// page's script reaches inside it, no packet leaves and no other process is in sight.

function run(args: string[]): Promise<string> {
  const { command, prefix } = isolation();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: {} });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

const found = isolation();

describe(`isolation (here: ${found.namespaces.join(' and ') || 'none'})`, () => {
  it('is found once, and runs Node itself where the OS allows no namespace', () => {
    expect(isolation()).toBe(found);
    const argv = [found.command, ...found.prefix];
    expect(argv.at(-1)).toBe(process.execPath);
    expect(argv.some((arg) => arg.endsWith('/unshare'))).toBe(found.namespaces.length > 0);
  });

  // A page that aborts its process (process.abort(), V8 out of memory) had the kernel write a core
  // file into the server's working directory wherever the server's soft limit allowed one.
  it.skipIf(!existsSync('/usr/bin/prlimit') && !existsSync('/bin/prlimit'))(
    'starts a process that may dump no core, whatever the limit of the server that starts it',
    async () => {
      const { command, prefix } = isolation();
      const read = `process.stdout.write(require('node:fs').readFileSync('/proc/self/limits', 'utf8'))`;
      // The server's soft limit raised to its hard one, as `ulimit -c unlimited` (or Docker's --ulimit) does.
      const raised = 'ulimit -c "$(ulimit -H -c)"; exec "$@"';
      const child = spawn('/bin/sh', ['-c', raised, 'sh', command, ...prefix, '-e', read], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {},
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
      await new Promise((resolve) => child.on('exit', resolve));
      expect(out).toMatch(/^Max core file size +0 +0 +bytes/m);
    },
  );

  it('gives a process no way to the host’s loopback, and no sight of the server, where namespaces are allowed', async () => {
    const listener = net.createServer((socket) => socket.destroy());
    const connected: number[] = [];
    listener.on('connection', () => connected.push(1));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const script = `const s = require('node:net').connect(${port}, '127.0.0.1');
        s.on('connect', () => { process.stdout.write('connected ' + process.pid); process.exit(0); });
        s.on('error', (e) => { let seen = true; try { process.kill(${process.pid}, 0); } catch { seen = false; } process.stdout.write(e.code + ' ' + process.pid + ' ' + seen); });`;
      const said = await run(['-e', script]);
      if (found.namespaces.includes('network')) {
        expect(said).toMatch(/^(ENETUNREACH|ECONNREFUSED) 1 false$/);
        expect(connected).toEqual([]);
      } else expect(said).toMatch(/^connected /);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
