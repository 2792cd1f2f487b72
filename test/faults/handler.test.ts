import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteDefinition } from '../../src/routes/types.js';
import { createRoutes } from '../../src/routes/table.js';
import { memoryStore } from '../../src/server/cache/memory-store.js';
import { createSnapshotHandler, type SnapshotHandlerOptions } from '../../src/server/handler.js';
import { listen, request, type Running } from '../server/helpers.js';
import { SOON } from '../liveness.js';

// Faults in the route hooks the snapshot handler runs, each with its defined outcome. Already
// proved in test/server/handler.test.ts: `load` that rejects and `render` or `title` that throws
// (500, no stack, not cached), `load` that never resolves (504 and its signal aborted).

const ORIGIN = 'https://example.com';

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function serve(routes: RouteDefinition<string, unknown>[], options: Partial<SnapshotHandlerOptions> = {}) {
  const onError = vi.fn();
  const handler = createSnapshotHandler({ routes: createRoutes(routes), origin: ORIGIN, onError, ...options });
  const server = await listen((req, res) => void handler.node(req, res));
  running.push(server);
  return { port: server.port, onError };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('faults in load', () => {
  it('answers 500 when load throws before it returns a promise, and renders again next time', async () => {
    const load = vi.fn((): never => {
      throw new Error('no connection');
    });
    const { port, onError } = await serve([{ path: '/x', load, render: () => 'never' }]);
    for (let i = 1; i <= 2; i++) {
      const reply = await request(port, '/?_escaped_fragment_=/x');
      expect(reply.status).toBe(500);
      expect(reply.body).not.toContain('no connection');
      expect(load).toHaveBeenCalledTimes(i);
    }
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'RENDER_FAILED', message: 'rendering /x failed: no connection' }),
      '/x',
    );
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('late failure'))],
    ['resolves', () => Promise.resolve('late data')],
  ])('answers 504 at timeoutMs when load %s later, and keeps nothing of what comes late', async (_, settle) => {
    let calls = 0;
    const load = () => (calls++, sleep(150).then(settle));
    const { port, onError } = await serve([{ path: '/late', load, render: ({ data }) => `<p>${String(data)}</p>` }], { timeoutMs: 50 });
    const reply = await request(port, '/?_escaped_fragment_=/late');
    expect(reply.status).toBe(504);
    // The late settlement lands after the answer: no unhandled rejection (vitest fails the run on
    // one), no second report, nothing cached.
    await sleep(200);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'TIMEOUT' }), '/late');
    expect((await request(port, '/?_escaped_fragment_=/late')).status).toBe(504);
    expect(calls).toBe(2);
  });

  it('holds the render slot of a load that never resolves only until timeoutMs', async () => {
    const signals: AbortSignal[] = [];
    const { port } = await serve(
      [
        { path: '/hung', load: ({ signal }) => (signals.push(signal), new Promise(() => {})), render: () => 'never' },
        { path: '/ok', render: () => '<p>ok</p>' },
      ],
      { timeoutMs: 300, queue: { concurrency: 1, maxWaiting: 1 } },
    );
    const hung = request(port, '/?_escaped_fragment_=/hung');
    await vi.waitFor(() => expect(signals).toHaveLength(1), SOON);
    // While it hangs it holds the only slot: one more state waits, the next is shed with 503.
    const waiting = request(port, '/?_escaped_fragment_=/ok');
    await sleep(50);
    expect((await request(port, '/?_escaped_fragment_=/ok?again')).status).toBe(503);
    expect((await hung).status).toBe(504);
    expect(signals[0]?.aborted).toBe(true);
    // At timeoutMs the slot is free again, though the load itself never settles.
    expect((await waiting).status).toBe(200);
  });

  it('answers 503 for new states while a load that never settles counts, and renders again ten times timeoutMs later, not never', async () => {
    const { port } = await serve(
      [
        { path: '/hung', load: () => new Promise(() => {}), render: () => 'never' },
        { path: '/ok', render: () => '<p>ok</p>' },
      ],
      { timeoutMs: 100, queue: { concurrency: 1, maxWaiting: 0 } },
    );
    expect((await request(port, '/?_escaped_fragment_=/hung')).status).toBe(504);
    expect((await request(port, '/?_escaped_fragment_=/ok')).status).toBe(503);
    // Counted until 10 × timeoutMs after its timeout (~1,100 ms from the start), then taken for a load that never ends.
    await sleep(1300);
    expect((await request(port, '/?_escaped_fragment_=/ok')).status).toBe(200);
  });

  it('refuses new renders with 503 while concurrency + maxWaiting loads that ignore their signal run on past timeoutMs', async () => {
    // Each timed-out render gave its slot back while its load ran on: a visitor asking for new
    // states against a slow backend piled up loads without bound (here, 2 may run on).
    const backend: Array<() => void> = [];
    const { port } = await serve(
      [
        { path: '/slow/:n', load: () => new Promise<void>((resolve) => backend.push(resolve)), render: () => 'late' },
        { path: '/ok', render: () => '<p>ok</p>' },
      ],
      { timeoutMs: 100, queue: { concurrency: 1, maxWaiting: 1 } },
    );
    expect((await request(port, '/?_escaped_fragment_=/slow/1')).status).toBe(504);
    expect((await request(port, '/?_escaped_fragment_=/ok')).status).toBe(200);
    expect((await request(port, '/?_escaped_fragment_=/slow/2')).status).toBe(504);
    const refused = await request(port, '/?_escaped_fragment_=/slow/3');
    expect([refused.status, refused.headers['retry-after']]).toEqual([503, '5']);
    expect(backend).toHaveLength(2);
    // One load ends: new renders start again.
    backend[0]?.();
    await sleep(20);
    expect((await request(port, '/?_escaped_fragment_=/slow/4')).status).toBe(504);
    expect(backend).toHaveLength(3);
    for (const end of backend) end();
  });

  it('renders a state whose load returns 50 MB of data from what render writes, not from the data', async () => {
    const huge = { text: 'x'.repeat(50_000_000), items: Array.from({ length: 1_000_000 }, (_, i) => i) };
    const { port } = await serve([
      { path: '/huge', load: () => huge, render: ({ data }) => `<p>${(data as typeof huge).items.length} items</p>` },
    ]);
    const reply = await request(port, '/?_escaped_fragment_=/huge');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<p>1000000 items</p>');
    expect(reply.bytes.byteLength).toBeLessThan(1000);
  });
});

describe('faults in render', () => {
  it('serves a 50 MB render whole, keeps it out of a cache it does not fit, and answers other states meanwhile', async () => {
    const store = memoryStore({ maxBytes: 10_000_000 });
    const render = vi.fn(() => `<p>${'x'.repeat(50_000_000)}</p>`);
    const { port } = await serve(
      [
        { path: '/big', render },
        { path: '/small', render: () => '<p>small</p>' },
      ],
      { cache: { store } },
    );
    const [big, small] = await Promise.all([request(port, '/?_escaped_fragment_=/big'), request(port, '/?_escaped_fragment_=/small')]);
    expect(small.status).toBe(200);
    expect(big.status).toBe(200);
    expect(big.bytes.byteLength).toBeGreaterThan(50_000_000);
    expect(big.headers['content-length']).toBe(String(big.bytes.byteLength));
    expect(store.keys()).toEqual(['/small']);
    expect(store.bytes).toBeLessThanOrEqual(10_000_000);
    expect((await request(port, '/?_escaped_fragment_=/big', { method: 'HEAD' })).status).toBe(200);
    expect(render).toHaveBeenCalledTimes(2);
  });
});
