import { describe, expect, it } from 'vitest';
import { SnapshotError } from '../../../src/server/errors.js';
import { createQueue } from '../../../src/server/render/queue.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createQueue', () => {
  it('runs at most `concurrency` tasks at once, in arrival order', async () => {
    const queue = createQueue({ concurrency: 2, maxWaiting: 10 });
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const all = gates.map((gate, i) =>
      queue.run(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([queue.active, queue.waiting]).toEqual([2, 3]);
    gates[1]?.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g) => g.resolve());
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect([queue.active, queue.waiting]).toEqual([0, 0]);
  });

  it('refuses a task with BUSY when the running and waiting slots are full', async () => {
    const queue = createQueue({ concurrency: 1, maxWaiting: 1 });
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const second = queue.run(async () => 'second');
    const third = queue.run(async () => 'third');
    await expect(third).rejects.toThrow(SnapshotError);
    await expect(third).rejects.toMatchObject({
      code: 'BUSY',
      message: '1 snapshots are rendering and 1 are waiting: the render queue is full',
    });
    gate.resolve();
    await first;
    expect(await second).toBe('second');
  });

  it('refuses new tasks while concurrency + maxWaiting tasks that ran past their time still run, and starts them again as those end', async () => {
    const queue = createQueue({ concurrency: 1, maxWaiting: 1 });
    const late = [deferred(), deferred()];
    queue.overran(late[0]!.promise, 60_000);
    expect(await queue.run(async () => 'one overran')).toBe('one overran');
    queue.overran(late[1]!.promise, 60_000);
    await expect(queue.run(async () => 'refused')).rejects.toMatchObject({
      code: 'BUSY',
      message: '2 renders ran past their time and still run: no new render starts until they end',
    });
    late[0]!.resolve();
    await tick();
    expect(await queue.run(async () => 'again')).toBe('again');
  });

  it('stops counting work that ran past its time once forgetMs have passed, as work that never ends', async () => {
    const queue = createQueue({ concurrency: 1, maxWaiting: 0 });
    queue.overran(new Promise(() => {}), 50);
    await expect(queue.run(async () => 'refused')).rejects.toMatchObject({ code: 'BUSY' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await queue.run(async () => 'again')).toBe('again');
  });

  it('frees the slot of a task that fails', async () => {
    const queue = createQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(async () => 'next')).toBe('next');
  });

  it.each([
    [{ concurrency: 0 }, /queue.concurrency must be an integer of at least 1, got 0/],
    [{ concurrency: 1.5 }, /queue.concurrency must be an integer of at least 1, got 1.5/],
    [{ maxWaiting: -1 }, /queue.maxWaiting must be an integer of at least 0, got -1/],
  ])('refuses %o', (options, message) => {
    expect(() => createQueue(options)).toThrow(message);
  });

  it('lets a waiting task whose client has gone leave the queue, freeing its place for others', async () => {
    const queue = createQueue({ concurrency: 1, maxWaiting: 1 });
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const gone = new AbortController();
    const ran: string[] = [];
    const abandoned = queue.run(async () => void ran.push('abandoned'), gone.signal);
    await expect(queue.run(async () => undefined)).rejects.toMatchObject({ code: 'BUSY' });
    gone.abort(new Error('client left'));
    await expect(abandoned).rejects.toThrow('client left');
    expect(queue.waiting).toBe(0);
    const next = queue.run(async () => void ran.push('next'));
    gate.resolve();
    await Promise.all([first, next]);
    expect(ran).toEqual(['next']);
    expect([queue.active, queue.waiting]).toEqual([0, 0]);
    await expect(queue.run(async () => 1, gone.signal)).rejects.toThrow('client left');
  });
});
