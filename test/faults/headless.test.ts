import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../src/routes/table.js';
import {
  headlessRenderer as fromSources,
  type HeadlessRenderer,
  type HeadlessRendererOptions,
} from '../../src/server/headless/headless.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';
import { listen, request, type Running } from '../server/helpers.js';

// Faults in the page a headless render runs, each with its defined outcome. Already proved in
// test/server/headless/headless.test.ts: a page that never settles (TIMEOUT, page closed, timers stopped),
// one that is never idle, and one that fetches other origins or files outside its folder (network
// errors and 404s, nothing read).

const SHELL =
  '<!DOCTYPE html><html><head><title>Shell</title><script type="module" src="/app.js"></script></head><body><div id="app">Loading</div></body></html>';
const APPS: Record<string, string> = {
  // Throws before it draws anything, and before any router could start.
  throws: `throw new Error('boom at start');`,
  // Says it is busy, as the router does on start(), then throws: it never settles.
  'busy-throws': `document.documentElement.dataset.routerState = 'busy'; throw new Error('boom after start');`,
  // Says it is busy, draws its state and settles, with an uncaught error from a timer on the way.
  'settles-despite': `document.documentElement.dataset.routerState = 'busy';
setTimeout(() => { throw new Error('a stray timer'); });
setTimeout(() => {
  document.getElementById('app').textContent = 'drawn ' + location.pathname;
  document.documentElement.dataset.routerState = 'settled';
  window.dispatchEvent(new Event('crawlable-router:settled'));
}, 20);`,
  // Writes terminal escapes and a forged log line into its console and what it throws (a crawler's
  // URL picks them, through any DOM-XSS or an app that logs its params).
  'forges-logs': `const forged = '\\x1b]0;owned\\x07\\x1b[2J\\r\\ncrawlable-router: snapshot of /admin ok\\u009b31m';
document.documentElement.dataset.routerState = location.pathname === '/loop' ? 'busy' : '';
console.log(forged);
throw new Error(forged);`,
  // Draws a document past 64 MiB on /huge (a DOM-XSS can); draws its state anywhere else.
  huge: `document.getElementById('app').textContent = location.pathname === '/huge' ? 'x'.repeat(6 * 2 ** 20) : 'drawn ' + location.pathname;`,
  // Grows a heap without end on /hog; draws its state anywhere else.
  hogs: `if (location.pathname === '/hog') { const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length)); } document.getElementById('app').textContent = 'drawn ' + location.pathname;`,
  // Never yields on /loop; draws its state anywhere else.
  loops: `if (location.pathname === '/loop') { while (true) {} } document.getElementById('app').textContent = 'drawn ' + location.pathname;`,
};

// The renderer starts its page processes from dist/server/headless/child.js: these tests use the
// built package, its handler too, so that errors are of one SnapshotError class.
const built = (await import('crawlable-router/server')) as typeof import('../../src/server/index.js');
const { createSnapshotHandler, headlessRenderer } = built;

let dir: string;
const renderers: HeadlessRenderer[] = [];
let running: Running[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-faults-'));
  for (const [name, script] of Object.entries(APPS)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'index.html'), SHELL);
    writeFileSync(path.join(dir, name, 'app.js'), script);
  }
});

afterEach(async () => {
  await Promise.all([...renderers.splice(0).map((r) => r.close()), ...running.map((r) => r.close())]);
  running = [];
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const routes = createRoutes([{ path: '/' }, { path: '/loop' }, { path: '/fine/:n' }]);

// The renderer's timeoutMs where a test needs the page to have started (thrown, or logged) before
// it times out: a page's start took longer than the 300 ms these tests had, with two CPU hogs running,
// and the failure became a TIMEOUT without its console. Liveness only: the tests wait for it once,
// or not at all where the page fails before it.
const PAGE_STARTS_WITHIN_MS = 5000;

/**
 * A renderer for one test, closed after it, with no spare page process (`spares: 0`): each render
 * starts its own, and none is left to waste when the test ends.
 */
function rendererOf(options: HeadlessRendererOptions): HeadlessRenderer {
  const renderer = headlessRenderer({ spares: 0, ...options });
  renderers.push(renderer);
  return renderer;
}

/**
 * Runs `body` and says, of each timer of `ms` milliseconds set meanwhile, whether it had fired when
 * `body` was done. The renderer's timer of a page that stays silent (its timeoutMs plus a second's
 * grace, pool.ts) is the only timer of that length: a render that ends by it ends after it fired,
 * where a test of the clock (Date.now() - started >= 2000) was only as sure as a clock.
 */
async function timersOf<T>(ms: number, body: () => Promise<T>): Promise<{ result: T; fired: boolean[] }> {
  const fired: boolean[] = [];
  const real = globalThis.setTimeout;
  const watch = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay !== ms) return real(callback, delay, ...args);
    const i = fired.push(false) - 1;
    return real((...passed: unknown[]) => ((fired[i] = true), callback(...passed)), delay, ...args);
  };
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(watch as typeof setTimeout);
  try {
    const result = await body();
    return { result, fired: [...fired] };
  } finally {
    spy.mockRestore();
  }
}

// The handler's timeoutMs where the server must answer a shell while a page loops: the shell's
// answer must come before the 504 at this time (at 1 s, a slow shell reply on a loaded machine came
// after it though the server's thread was free). Liveness only: the test waits for it once.
const SHELL_ANSWERED_WITHIN_MS = 6000;

describe('a page that throws at start', () => {
  it('fails the render with 500, naming what it threw, and nothing is cached', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'throws'), timeoutMs: PAGE_STARTS_WITHIN_MS });
    const onError = vi.fn();
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer, onError });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    const reply = await request(server.port, '/?_escaped_fragment_=/');
    expect(reply.status).toBe(500);
    expect(reply.body).not.toContain('boom');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'RENDER_FAILED', message: 'the page of / threw before it settled: Error: boom at start' }),
      '/',
    );
    // Not cached: the next request renders again, and fails again.
    expect((await request(server.port, '/?_escaped_fragment_=/')).status).toBe(500);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(renderer.openPages).toBe(0);
  });

  it("is snapshotted as it stands with pageErrors: 'ignore': the shell, as a browser shows it", async () => {
    const renderer = rendererOf({ root: path.join(dir, 'throws'), timeoutMs: PAGE_STARTS_WITHIN_MS, pageErrors: 'ignore' });
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer, onError: () => {} });
    const snap = await handler.render('/');
    expect(snap.status).toBe(200);
    expect(snap.html).toContain('<div id="app">Loading</div>');
  });

  it('is snapshotted when its router settles after the error: the app said it is done', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'settles-despite'), timeoutMs: PAGE_STARTS_WITHIN_MS });
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer, onError: () => {} });
    const snap = await handler.render('/fine/7');
    expect(snap.status).toBe(200);
    expect(snap.html).toContain('drawn /fine/7');
  });

  it('times out, naming what it threw, when it said it was busy first', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'busy-throws'), timeoutMs: PAGE_STARTS_WITHIN_MS });
    const onError = vi.fn();
    // The page's own limit is the one that must end it: the handler's, which counts the page's start, is far off.
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer, onError, timeoutMs: RENDER_LIVENESS_MS });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    const reply = await request(server.port, '/?_escaped_fragment_=/');
    expect(reply.status).toBe(504);
    expect(reply.body).not.toContain('boom');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({
        code: 'TIMEOUT',
        message: expect.stringMatching(/did not settle within 5000 ms; its console said: Error: boom after start/),
      }),
      '/',
    );
    expect(renderer.openPages).toBe(0);
  });
});

describe('a page that writes terminal escapes and line breaks into what it logs and throws', () => {
  it('fails with every control character of the page escaped in the message: no forged log line, no escape sequence for a terminal', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'forges-logs'), timeoutMs: PAGE_STARTS_WITHIN_MS });
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      renderer,
      onError: () => {},
      timeoutMs: RENDER_LIVENESS_MS,
    });
    // At start (RENDER_FAILED, what it threw) and after saying it is busy (TIMEOUT, its console).
    const failures = await Promise.all(['/', '/loop'].map((location) => handler.render(location).catch((error: Error) => error)));
    expect(failures.map((error) => (error as { code?: string }).code)).toEqual(['RENDER_FAILED', 'TIMEOUT']);
    for (const { message } of failures as Error[]) {
      expect(message).not.toMatch(/[\0-\x1f\x7f-\x9f]/);
      expect(message).toContain('\\x1b]0;owned\\x07\\x1b[2J\\x0d\\x0acrawlable-router: snapshot of /admin ok\\x9b31m');
    }
  });
});

describe('a page whose document passes maxSnapshotBytes', () => {
  it('fails with RENDER_FAILED (500) instead of being handed to the server whole, and its page process renders the next page', async () => {
    // Before, a 65 MiB document crossed to the server and was served whole (400 MB took 10 s and
    // 440 MB of the server's memory), from one crawler request.
    const renderer = rendererOf({ root: path.join(dir, 'huge'), timeoutMs: 20_000 });
    const onError = vi.fn();
    const handler = createSnapshotHandler({
      routes: createRoutes([{ path: '/*rest' }]),
      origin: 'https://example.com',
      renderer,
      onError,
      timeoutMs: 20_000,
    });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    const reply = await request(server.port, '/?_escaped_fragment_=/huge');
    expect(reply.status).toBe(500);
    expect(reply.bytes.length).toBeLessThan(1000);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'RENDER_FAILED', message: expect.stringMatching(/longer than maxSnapshotBytes \(5242880 bytes\)/) }),
      '/huge',
    );
    expect((await handler.render('/fine')).html).toContain('drawn /fine');
  });
});

const settings = { origin: 'https://example.com', base: '/', mode: 'history' as const };
/** A render job for `location`, with no time limit of its own. */
const job = (location: string) => ({
  location,
  url: 'https://example.com' + location,
  canonical: 'https://example.com' + location,
  match: null,
  notFound: false,
  settings,
  signal: new AbortController().signal,
});

describe('a page that never yields (a busy while (true) in its script)', () => {
  it("ends at the renderer's timeoutMs plus a second by default, stopping only its page process, while the server's thread runs on", async () => {
    // happy-dom cannot interrupt a script that never returns: the page process it runs in is killed.
    // A second for the page to load and start its loop, even on a busy machine.
    const renderer = rendererOf({ root: path.join(dir, 'loops'), timeoutMs: 1000 });
    expect((await renderer.render(job('/fine/1'))).html).toContain('drawn /fine/1');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const { result: error, fired } = await timersOf(2000, () => renderer.render(job('/loop')).catch((e: unknown) => e));
    clearInterval(ticker);
    expect(error).toMatchObject({
      name: 'SnapshotError',
      code: 'TIMEOUT',
      message: 'the page of /loop did not yield within 1000 ms (a script that never returns?); its process was stopped',
    });
    // Ended by the renderer's timer of timeoutMs plus a second, once it fired: nothing ended it before.
    expect(fired).toEqual([true]);
    // The server's own timers kept running meanwhile, through those two seconds (in-process, not one would have fired).
    expect(ticks).toBeGreaterThan(10);
    expect((await renderer.render(job('/fine/2'))).html).toContain('drawn /fine/2');
  });

  it('ends with 504 at the handler timeoutMs under isolate: true, while the server answers other requests', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'loops'), isolate: true, maxPages: 2 });
    const onError = vi.fn();
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      renderer,
      cache: false,
      timeoutMs: SHELL_ANSWERED_WITHIN_MS,
      onError,
    });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    // Straight to the renderer, with no time limit: starting a thread and loading happy-dom there
    // takes a while on a busy machine, and is not what is tested.
    expect((await renderer.render(job('/fine/1'))).html).toContain('drawn /fine/1');
    const answered: string[] = [];
    const looping = request(server.port, '/?_escaped_fragment_=/loop').then((reply) => (answered.push('loop'), reply));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const shell = await request(server.port, '/fine/2');
    answered.push('shell');
    expect(shell.status).toBe(200);
    const reply = await looping;
    expect(reply.status).toBe(504);
    expect(answered).toEqual(['shell', 'loop']);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'TIMEOUT' }), '/loop');
    expect(renderer.openPages).toBe(0);
    // The stuck thread was terminated; another takes the next render.
    expect((await renderer.render(job('/fine/3'))).html).toContain('drawn /fine/3');
  });

  it("ends with TIMEOUT at the renderer's own timeoutMs (plus a second's grace) when nothing aborts it", async () => {
    // The page must be in its loop when timeoutMs ends (at 300 ms, a page still starting on a busy
    // machine ended as any slow page does, 'did not settle'): PAGE_STARTS_WITHIN_MS.
    const renderer = rendererOf({ root: path.join(dir, 'loops'), isolate: true, timeoutMs: PAGE_STARTS_WITHIN_MS });
    expect((await renderer.render(job('/fine/1'))).html).toContain('drawn /fine/1');
    const { result: error, fired } = await timersOf(PAGE_STARTS_WITHIN_MS + 1000, () =>
      renderer.render(job('/loop')).catch((e: unknown) => e),
    );
    expect(error).toMatchObject({
      name: 'SnapshotError',
      code: 'TIMEOUT',
      message: `the page of /loop did not yield within ${PAGE_STARTS_WITHIN_MS} ms (a script that never returns?); its process was stopped`,
    });
    expect(fired).toEqual([true]);
    expect((await renderer.render(job('/fine/2'))).html).toContain('drawn /fine/2');
  });

  it('ends a page past memoryLimitMb with RENDER_FAILED, and the next render runs in a fresh page process', async () => {
    const renderer = rendererOf({ root: path.join(dir, 'hogs'), memoryLimitMb: 192, timeoutMs: 20_000 });
    const error = await renderer.render(job('/hog')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RENDER_FAILED', message: expect.stringMatching(/^the page process of \/hog failed: .*memory/) });
    expect((await renderer.render(job('/fine/4'))).html).toContain('drawn /fine/4');
  });

  it('refuses to run from the TypeScript sources, where no page process file exists, and a tiny memoryLimitMb', async () => {
    expect(() => fromSources({ root: path.join(dir, 'loops') })).toThrow(
      /^headlessRenderer needs the built package: file:.*headless\/child\.js is missing/,
    );
    expect(() => fromSources({ root: path.join(dir, 'loops'), isolate: true })).toThrow(/^headlessRenderer needs the built package/);
    expect(() => headlessRenderer({ root: path.join(dir, 'loops'), isolate: true, memoryLimitMb: 1 })).toThrow(
      'memoryLimitMb must be at least 128, got 1',
    );
  });
});
