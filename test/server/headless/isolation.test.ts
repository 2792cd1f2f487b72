import { spawn } from 'node:child_process';
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
    if (found.namespaces.length === 0) expect(found).toEqual({ command: process.execPath, prefix: [], namespaces: [] });
    else expect(found.prefix.slice(-2)).toEqual(['--', process.execPath]);
  });

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
