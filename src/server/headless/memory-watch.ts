// The resident memory of page processes, read by the server from the outside (Linux's /proc), not
// asked of the process: a page's script may own its process, and V8's heap limit does not count
// ArrayBuffers. A process is counted with its children (under `unshare` the page process is the
// child of the one started). Read every WATCH_MS while the process renders a page, so a page may
// pass the limit by what it can touch in that time before it is killed.

import { readFile } from 'node:fs/promises';

/** How often a rendering process's memory is read, in ms. */
export const WATCH_MS = 50;

/** True where the memory of a process can be read from the outside. */
export const canWatch = process.platform === 'linux';

async function residentKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}

/** The resident memory of process `pid` and its children, in bytes; 0 once it is gone. */
export async function residentBytes(pid: number): Promise<number> {
  try {
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean);
    const sizes = await Promise.all([pid, ...children.map(Number)].map((p) => residentKb(p).catch(() => 0)));
    return sizes.reduce((a, b) => a + b, 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Watches process `pid` while it renders: `over()` is called once when its resident memory passes
 * `limitBytes`. The returned function stops the watch.
 */
export function watchMemory(pid: number, limitBytes: number, over: (bytes: number) => void): () => void {
  if (!canWatch) return () => {};
  let reading = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void residentBytes(pid).then((bytes) => {
      reading = false;
      if (stopped || bytes <= limitBytes) return;
      stop();
      over(bytes);
    });
  }, WATCH_MS);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
