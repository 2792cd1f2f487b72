import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canWatch, residentBytes, watchMemory } from '../../../src/server/headless/memory-watch.js';

// A page process's memory is read from the outside: its own report, and V8's heap limit, miss
// what its ArrayBuffers hold.

describe.runIf(canWatch)('the memory watch (Linux)', () => {
  it("reads a process's resident memory as the OS counts it, and 0 for a process that is gone", async () => {
    const own = await residentBytes(process.pid);
    expect(own).toBeGreaterThan(process.memoryUsage().rss / 2);
    expect(own).toBeLessThan(process.memoryUsage().rss * 2);
    expect(await residentBytes(2 ** 22 + 12345)).toBe(0);
  });

  it('calls over() once when a process fills ArrayBuffers past the limit (outside V8’s heap), counting its children', async () => {
    // The hog runs under `sh`, as a page process runs under `unshare`: its memory is its child's.
    const script = `const kept = []; for (let i = 0; i < 40; i++) kept.push(new Uint8Array(2 ** 23).fill(1)); setTimeout(() => {}, 20000);`;
    const child = spawn('/bin/sh', ['-c', `"${process.execPath}" -e "${script}"; :`], { stdio: 'ignore' });
    const over: number[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const stop = watchMemory(child.pid!, 128 * 2 ** 20, (bytes) => {
          over.push(bytes);
          resolve();
        });
        child.on('exit', () => (stop(), reject(new Error('the hog ended first'))));
      });
      expect(over).toHaveLength(1);
      expect(over[0]).toBeGreaterThan(128 * 2 ** 20);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
