import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'parse5';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import type { HeadlessRenderer, HeadlessRendererOptions } from '../../../src/server/headless/headless.js';
import { listen, request, type Running } from '../helpers.js';
import { SOON, RENDER_LIVENESS_MS } from '../../liveness.js';

// The renderer starts its page processes from dist/server/headless/child.js: its tests use the
// built package (npm test builds first), the handler too, so that errors are of one SnapshotError.
const { createSnapshotHandler, fileStore, headlessRenderer } =
  (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');

// Apps whose content exists only once their own client script has run. None of them uses the
// client router: the ones with a settled signal set data-router-state and dispatch the event
// themselves, per the contract.
const SHELL = (script: string, extra = '') =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title><meta name="fragment" content="!"><link rel="canonical" href="https://wrong.example/">` +
  `<script type="module" src="/${script}"></script>${extra}</head><body><div id="app"></div></body></html>`;

const RENDER = `
  const state = location.hash.startsWith('#!') ? location.hash.slice(2) : location.pathname;
  async function render() {
    const books = await (await fetch('/data/books.json')).json();
    const id = state.split('/')[2];
    document.title = 'Book ' + id;
    document.getElementById('app').innerHTML = '<h1>' + books[id] + '</h1><a href="/?_escaped_fragment_=/books/2">next</a>';
  }`;

const APPS: Record<string, Record<string, string>> = {
  // No router: built by a module script after a fetch; the renderer waits for the page's idle.
  idle: { 'index.html': SHELL('app.js'), 'app.js': `${RENDER}\nrender();` },
  // A router-like signal, and an analytics interval that keeps the page from ever being idle.
  settled: {
    'index.html': SHELL('app.js'),
    'app.js': `${RENDER}
      document.documentElement.dataset.routerState = 'busy';
      setInterval(() => {}, 20);
      setTimeout(async () => {
        await render();
        document.documentElement.dataset.routerState = 'settled';
        window.dispatchEvent(new CustomEvent('crawlable-router:settled', { detail: { location: state } }));
      }, 30);`,
  },
  // Busy for ever, pinging the upstream API: the render must time out and the page must be closed.
  never: {
    'index.html': SHELL('app.js'),
    'app.js': `document.documentElement.dataset.routerState = 'busy'; setInterval(() => fetch('/api/ping'), 5);`,
  },
  // No signal and never idle.
  restless: { 'index.html': SHELL('app.js'), 'app.js': `setInterval(() => {}, 10);` },
  // A classic script (a synchronous request in happy-dom) and the upstream API.
  classic: {
    'index.html': SHELL('app.js', '<script src="/classic.js"></script>'),
    'classic.js': `window.fromClassic = 'classic ran';`,
    'app.js': `const r = await fetch('/api/book'); document.getElementById('app').textContent = window.fromClassic + ' / ' + (await r.json()).name;`,
  },
  // An app that writes to its API on load: what a crawler's render may send upstream.
  writes: {
    'index.html': SHELL('app.js'),
    'app.js': `const r = await fetch('/api/views', { method: 'POST', body: 'one' });
      document.getElementById('app').textContent = r.status + ' ' + r.headers.get('allow') + ' ' + (await r.text());`,
  },
  // Slow API data on /books/:id, nothing to wait for on /: two pages of one origin at once.
  waits: {
    'index.html': SHELL('app.js'),
    'app.js': `const app = document.getElementById('app');
      app.textContent = location.pathname === '/' ? 'home' : (await (await fetch('/api/slow')).json()).name;`,
  },
  // Bodies of several parts (1 MiB each over IPC): a file of the folder and an upstream answer.
  large: {
    'index.html': SHELL('app.js'),
    'app.js': `const sum = async (url) => {
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        let total = 0;
        for (const b of bytes) total = (total * 31 + b) % 1000003;
        return bytes.length + ':' + total;
      };
      document.getElementById('app').textContent = (await sum('/data/big.bin')) + ' ' + (await sum('/api/big'));`,
  },
  // The app's own module cannot load (an import that 404s, as a bare name a browser cannot resolve):
  // nothing but the script element hears of it, and the page is the empty shell.
  broken: { 'index.html': SHELL('app.js'), 'app.js': `import './lib/missing.js'; document.getElementById('app').textContent = 'ran';` },
  // Structured data of the page's query, written as a browser keeps it safe: through textContent.
  jsonld: {
    'index.html': SHELL('app.js'),
    'app.js': `const q = new URLSearchParams(location.search).get('q') ?? '';
      const ld = document.createElement('script');
      ld.type = 'application/ld+json';
      ld.textContent = JSON.stringify({ '@type': 'SearchResultsPage', name: q });
      document.head.appendChild(ld);
      document.getElementById('app').append(document.createComment('results for ' + q), 'Results for ' + q);`,
  },
  // Two deferred classic scripts, the first (from the upstream) answered last: the second needs it.
  deferred: {
    'index.html':
      '<!DOCTYPE html><html><head><title>Shell</title><script defer src="/api/first.js"></script><script defer src="/second.js"></script></head><body><div id="app"></div></body></html>',
    'second.js': "document.title = window.first + ' then second';",
  },
  // Settled at once, drawn in the page's next task: React's first render (createRoot) comes from its
  // scheduler's task, after a router with no `load` to wait for has already said settled.
  nextTask: {
    'index.html': SHELL('app.js'),
    'app.js': `setTimeout(() => {
        document.title = 'Drawn';
        document.getElementById('app').innerHTML = '<h1>drawn in the next task</h1>';
      }, 0);
      document.documentElement.dataset.routerState = 'settled';
      window.dispatchEvent(new CustomEvent('crawlable-router:settled', { detail: { location: '/' } }));`,
  },
  // What the page must not reach.
  probe: {
    'index.html': SHELL('app.js', '<script src="https://evil.example/x.js"></script>'),
    'app.js': `
      const targets = ['https://evil.example/x', 'http://127.0.0.1:1/x', '/../outside/secret.txt', '/%2e%2e/outside/secret.txt', '/data/..%2F..%2Foutside%2Fsecret.txt', '/escape/secret.txt', '/data/books.json%00.txt', '/missing.js'];
      const out = [];
      for (const t of targets) {
        try { const r = await fetch(t); out.push(t + ' ' + r.status + ' ' + (await r.text()).slice(0, 40)); } catch (e) { out.push(t + ' failed'); }
      }
      document.getElementById('app').textContent = out.join('\\n');`,
  },
};

// Every KiB a different byte, so that a part lost, doubled or out of order changes the sum.
const bytes = (length: number, seed: number) => Buffer.alloc(length).map((_, i) => ((i >> 10) + seed) % 251);
const BIG_FILE = bytes(3 * 1024 * 1024 + 7, 1);
const BIG_API = bytes(2.5 * 1024 * 1024, 2);
const sum = (body: Uint8Array) => `${body.length}:${body.reduce((total, b) => (total * 31 + b) % 1000003, 0)}`;

let dir: string;
let upstream: Running;
let pings = 0;
let posts = 0;
/** Renderers a test made for itself, closed after it. */
const renderers: HeadlessRenderer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-'));
  mkdirSync(path.join(dir, 'outside'));
  writeFileSync(path.join(dir, 'outside', 'secret.txt'), 'TOP SECRET');
  for (const [name, files] of Object.entries(APPS)) {
    mkdirSync(path.join(dir, name, 'data'), { recursive: true });
    writeFileSync(path.join(dir, name, 'data', 'books.json'), JSON.stringify({ 1: 'Dune', 2: 'Emma', 42: 'Ulysses' }));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, name, file), text);
  }
  symlinkSync(path.join(dir, 'outside'), path.join(dir, 'probe', 'escape'));
  writeFileSync(path.join(dir, 'large', 'data', 'big.bin'), BIG_FILE);
  upstream = await listen((req, res) => {
    if (req.url === '/api/ping') pings++;
    if (req.url === '/api/big') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG_API);
    if (req.url === '/api/slow')
      return void setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'slow data' })),
        300,
      );
    if (req.url === '/api/first.js')
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/javascript' }).end("window.first = 'first';"), 300);
    if (req.method === 'POST') posts++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: `upstream ${req.url}` }));
  });
});

afterEach(async () => {
  await Promise.all(renderers.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const routes = (base = '/') => createRoutes([{ path: '/' }, { path: '/books/:id' }], { base });

function setup(
  app: string,
  options: {
    mode?: 'history' | 'hashbang';
    cleanUrls?: 'bots' | 'shell';
    timeoutMs?: number;
    maxPages?: number;
    base?: string;
    upstreamMethods?: string[];
  } = {},
) {
  // No spare page process (the test of `spares` makes its own renderers): a spare is up to a second
  // of CPU, wasted when its renderer is closed after the test.
  const renderer = headlessRenderer({
    root: path.join(dir, app),
    timeoutMs: options.timeoutMs ?? RENDER_LIVENESS_MS,
    maxPages: options.maxPages ?? 2,
    spares: 0,
    upstream: upstream.base,
    upstreamMethods: options.upstreamMethods,
  });
  renderers.push(renderer);
  const handler = createSnapshotHandler({
    routes: routes(options.base),
    origin: 'https://example.com',
    mode: options.mode ?? 'history',
    cleanUrls: options.cleanUrls ?? 'bots',
    renderer,
    cache: false,
    timeoutMs: RENDER_LIVENESS_MS,
    onError: () => {},
  });
  return { renderer, handler };
}

/**
 * The page processes running now under this test's process (Linux's /proc): its descendants that run
 * headless/child.js, each counted once (where it runs under `unshare`, that process names it too).
 */
function pageProcesses(): number {
  const parents = new Map<number, number>();
  const pages = new Set<number>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('headless/child.js')) pages.add(Number(name));
    } catch {
      // It ended while the list was read.
    }
  }
  const mine = (pid: number) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...pages].filter((pid) => !pages.has(parents.get(pid) ?? 0) && mine(pid)).length;
}

function read(html: string) {
  type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
  const found = { doctype: false, title: '', canonical: [] as string[], meta: 0, app: '', links: [] as string[] };
  const text = (n: Node): string => (n.value ?? '') + (n.childNodes ?? []).map(text).join('');
  const walk = (n: Node) => {
    const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value;
    if (n.nodeName === '#documentType') found.doctype = true;
    if (n.tagName === 'title') found.title = text(n);
    if (n.tagName === 'link' && attr('rel') === 'canonical') found.canonical.push(attr('href') ?? '');
    if (n.tagName === 'meta' && attr('name') === 'fragment') found.meta++;
    if (n.tagName === 'a') found.links.push(attr('href') ?? '');
    if (attr('id') === 'app') found.app = text(n);
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

describe('headlessRenderer', () => {
  it.each([
    ['without a settled signal (page idle)', 'idle', 'history', 'bots', 'https://example.com/books/42', '/books/2'],
    // A hashbang app's page runs at its #! URL; crawlers are told its clean URLs, its #! links too.
    ['without a settled signal, in hashbang mode', 'idle', 'hashbang', 'bots', 'https://example.com/books/42', '/books/2'],
    [
      'with a settled signal, while an interval keeps the page busy',
      'settled',
      'history',
      'bots',
      'https://example.com/books/42',
      '/books/2',
    ],
    ['with a settled signal, in hashbang mode', 'settled', 'hashbang', 'bots', 'https://example.com/books/42', '/books/2'],
    [
      'with a settled signal, in hashbang mode speaking the scheme alone',
      'settled',
      'hashbang',
      'shell',
      'https://example.com/#!/books/42',
      '/#!/books/2',
    ],
  ] as const)('snapshots a page built only by client script, %s', async (_, app, mode, cleanUrls, canonical, link) => {
    const { handler, renderer } = setup(app, { mode, cleanUrls });
    const snap = await handler.render('/books/42');
    expect(read(snap.html)).toEqual({
      doctype: true,
      title: 'Book 42',
      canonical: [canonical],
      meta: 0,
      app: 'Ulyssesnext',
      links: [link],
    });
    expect(snap.html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(snap.status).toBe(200);
    expect(renderer.openPages).toBe(0);
  });

  it("snapshots the app at a state whose query holds a ' (which the page's URL parser writes %27), never the upstream's answer", async () => {
    // `'` is raw in a canonical query, and a browser's URL parser escapes it in a query: the page's
    // request for its own document must still get the shell, not a 404 or the upstream's answer.
    const { handler } = setup('idle');
    for (const location of ["/books/42?q=O'Reilly", '/books/42?q=O%27Reilly']) {
      const snap = await handler.render(location);
      expect(read(snap.html)).toMatchObject({ title: 'Book 42', app: 'Ulyssesnext' });
      expect(snap.html).not.toContain('upstream');
    }
  });

  it("keeps as text what the page wrote as text from a crawler's URL: no </script> or --> of it is markup in the snapshot", async () => {
    const { handler } = setup('jsonld');
    const q = '</script><img src=x onerror=alert(1)>--><img src=y onerror=alert(2)>';
    const snap = await handler.render('/books/1?q=' + encodeURIComponent(q));
    type Node = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
    const tags: string[] = [];
    let ld: unknown;
    const walk = (n: Node) => {
      if (n.tagName) tags.push(n.tagName);
      if (n.attrs?.some((a) => a.value === 'application/ld+json')) ld = JSON.parse(n.childNodes?.[0]?.value ?? '');
      (n.childNodes ?? []).forEach(walk);
    };
    walk(parse(snap.html) as unknown as Node);
    expect(tags).not.toContain('img');
    expect(ld).toEqual({ '@type': 'SearchResultsPage', name: q });
    expect(read(snap.html).app).toBe('Results for ' + q);
  });

  it('snapshots what the app draws in the task after its router settled (React’s first render), not the empty shell', async () => {
    const { handler } = setup('nextTask');
    const snap = await handler.render('/');
    expect(snap.status).toBe(200);
    expect(read(snap.html)).toMatchObject({ title: 'Drawn', app: 'drawn in the next task' });
  });

  it('serves an unknown state with 404 and no canonical link, as the app draws it', async () => {
    const { handler } = setup('idle');
    const snap = await handler.render('/nope/1');
    expect(snap.status).toBe(404);
    expect(read(snap.html)).toMatchObject({ canonical: [], meta: 0, title: 'Book 1', app: 'Dunenext' });
  });

  it('times out a page that never settles, closes it and stops its timers', async () => {
    // Long enough for the page to have pinged at least once even on a busy machine (each ping
    // crosses from the page process to the server, then to the upstream).
    const { handler, renderer } = setup('never', { timeoutMs: 1500 });
    pings = 0;
    // The page process says it did not settle; on a machine too busy for it to say so within the
    // second of grace, the server stops it and says it did not yield. Either is this TIMEOUT.
    await expect(handler.render('/books/1')).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/^the page of \/books\/1 did not (settle|yield) within 1500 ms/),
    });
    expect(renderer.openPages).toBe(0);
    expect(pings).toBeGreaterThan(0);
    // Pings the page sent before it closed may still be on their way (each crosses from the page
    // process to the server, then to the upstream); once those have landed, none: the page's 5 ms
    // interval would have sent about 60 more in 300 ms.
    let after = -1;
    for (let i = 0; i < 30 && after !== pings; i++) {
      after = pings;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(pings).toBe(after);
  });

  it('times out a page with no signal that is never idle', async () => {
    const { handler, renderer } = setup('restless', { timeoutMs: 100 });
    await expect(handler.render('/')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(renderer.openPages).toBe(0);
  });

  it("closes the page when the handler's timeout aborts the render", async () => {
    const renderer = headlessRenderer({ root: path.join(dir, 'never'), timeoutMs: 10_000 });
    renderers.push(renderer);
    const handler = createSnapshotHandler({ routes: routes(), origin: 'https://example.com', renderer, timeoutMs: 100, onError: () => {} });
    await expect(handler.render('/')).rejects.toMatchObject({ code: 'TIMEOUT', message: 'rendering / took longer than 100 ms' });
    await vi.waitFor(() => expect(renderer.openPages).toBe(0), SOON);
  });

  it('serves classic scripts from the folder and same-origin API calls from the upstream', async () => {
    // A classic script is a synchronous request in happy-dom; its own fallback (a child node process
    // per request) is denied in the page process, so 'classic ran' shows the renderer answered it.
    const { handler } = setup('classic');
    const snap = await handler.render('/books/1');
    expect(read(snap.html).app).toBe('classic ran / upstream /api/book');
  });

  it('runs deferred scripts in document order, as a browser does, when the first is answered last', async () => {
    const { handler } = setup('deferred');
    const snap = await handler.render('/');
    expect([snap.status, read(snap.html).title]).toEqual([200, 'first then second']);
  });

  it("answers a page's POST to its API with 405 and never sends it upstream, unless upstreamMethods allows it", async () => {
    posts = 0;
    expect(read((await setup('writes').handler.render('/books/1')).html).app).toBe('405 GET, HEAD ');
    expect(posts).toBe(0);
    const allowed = setup('writes', { upstreamMethods: ['GET', 'post'] });
    expect(read((await allowed.handler.render('/books/1')).html).app).toBe('200 null {"name":"upstream /api/views"}');
    expect(posts).toBe(1);
  });

  it('hands a page bodies of several megabytes whole, from its folder and from the upstream', async () => {
    const { handler } = setup('large');
    const snap = await handler.render('/books/1');
    expect(read(snap.html).app).toBe(`${sum(BIG_FILE)} ${sum(BIG_API)}`);
  });

  it('answers a request the upstream cannot serve with a network error, so the page still settles', async () => {
    // The page's fetch rejects, as a browser's does, and its script does not catch it: by default
    // the render fails at once with what it threw (never a hang to timeoutMs); with pageErrors:
    // 'ignore' the page is snapshotted as it stands.
    const failing = headlessRenderer({ root: path.join(dir, 'classic'), upstream: 'http://127.0.0.1:1', timeoutMs: RENDER_LIVENESS_MS });
    const ignoring = headlessRenderer({
      root: path.join(dir, 'classic'),
      upstream: 'http://127.0.0.1:1',
      timeoutMs: RENDER_LIVENESS_MS,
      pageErrors: 'ignore',
    });
    renderers.push(failing, ignoring);
    const handler = (renderer: HeadlessRenderer) =>
      createSnapshotHandler({ routes: routes(), origin: 'https://example.com', renderer, onError: () => {} });
    // The failure names the request the upstream did not answer, and why: the page only says 'Failed to fetch'.
    await expect(handler(failing).render('/')).rejects.toMatchObject({
      code: 'RENDER_FAILED',
      message: expect.stringMatching(
        /^the page of \/ threw before it settled: TypeError: Failed to fetch.* \(the upstream did not answer GET http:\/\/127\.0\.0\.1:1\/api\/book: .+\)$/s,
      ),
    });
    const snap = await handler(ignoring).render('/');
    expect(snap.status).toBe(200);
    expect(read(snap.html).app).toBe('');
    expect(failing.openPages + ignoring.openPages).toBe(0);
  });

  it('fails the render of a page whose own script did not load, rather than snapshot its empty shell as 200', async () => {
    const failing = headlessRenderer({ root: path.join(dir, 'broken'), timeoutMs: RENDER_LIVENESS_MS });
    const ignoring = headlessRenderer({ root: path.join(dir, 'broken'), timeoutMs: RENDER_LIVENESS_MS, pageErrors: 'ignore' });
    renderers.push(failing, ignoring);
    const handler = (renderer: HeadlessRenderer) =>
      createSnapshotHandler({ routes: routes(), origin: 'https://example.com', renderer, onError: () => {} });
    await expect(handler(failing).render('/')).rejects.toMatchObject({
      code: 'RENDER_FAILED',
      message: 'the page of / threw before it settled: Error: its script https://example.com/app.js did not load or run',
    });
    const snap = await handler(ignoring).render('/');
    expect([snap.status, read(snap.html).app]).toEqual([200, '']);
  });

  it("aborts a page's upstream requests when that page closes, never when another page of the origin does", async () => {
    const { handler, renderer } = setup('waits', { maxPages: 2 });
    // Home opens first, so a lookup by origin alone would find its page for the book's request.
    const [home, book] = await Promise.all([handler.render('/'), handler.render('/books/1')]);
    expect(read(home.html).app).toBe('home');
    expect(read(book.html).app).toBe('slow data');
    expect(renderer.openPages).toBe(0);
  });

  it('never lets the page reach another origin or a file outside its folder', async () => {
    const { handler } = setup('probe');
    const { app } = read((await handler.render('/')).html);
    expect(app).not.toContain('TOP SECRET');
    const lines = app.split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toMatch(/^https:\/\/evil\.example\/x (0 |failed)/);
    expect(lines[1]).toMatch(/^http:\/\/127\.0\.0\.1:1\/x (0 |failed)/);
    // Same-origin paths that name no file in the folder go to the upstream, never to the disk.
    for (const line of lines.slice(2)) expect(line).toMatch(/ 200 \{"name":"upstream \/|^\/missing\.js 200/);
  });

  it('keeps at most maxPages pages open at once', async () => {
    const { handler, renderer } = setup('settled', { maxPages: 2 });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, renderer.openPages)), 1);
    const snaps = await Promise.all([1, 2, 42, 3, 4, 5].map((id) => handler.render(`/books/${id}`)));
    clearInterval(sampler);
    expect(snaps.map((s) => read(s.html).title)).toEqual(['Book 1', 'Book 2', 'Book 42', 'Book 3', 'Book 4', 'Book 5']);
    expect(peak).toBe(2);
    expect(renderer.openPages).toBe(0);
  });

  it('keeps a page process started ahead of the next render once one has rendered, and none with spares: 0', async () => {
    // Every renderer of this file is closed after its test, but the process of an earlier test's
    // last render is killed as that render ends, not awaited: it may still be exiting here (ci53).
    await vi.waitFor(() => expect(pageProcesses()).toBe(0), SOON);
    const before = 0;
    for (const [spares, ahead] of [
      [undefined, 1],
      [0, 0],
    ] as const) {
      const renderer = headlessRenderer({
        root: path.join(dir, 'settled'),
        timeoutMs: RENDER_LIVENESS_MS,
        ...(spares === undefined ? {} : { spares }),
      });
      renderers.push(renderer);
      const handler = createSnapshotHandler({ routes: routes(), origin: 'https://example.com', mode: 'hashbang', renderer, cache: false });
      expect(pageProcesses()).toBe(before);
      for (const id of [1, 2]) {
        expect(read((await handler.render(`/books/${id}`)).html).title).toBe(`Book ${id}`);
        // The rendered page's process is killed as its render ends; the spare, if any, waits.
        await vi.waitFor(() => expect(pageProcesses()).toBe(before + ahead), SOON);
      }
      await renderer.close();
      expect(pageProcesses()).toBe(before);
    }
  });

  it('answers ugly URLs over a socket through the handler, with the app under a base', async () => {
    const renderer = headlessRenderer({ root: path.join(dir, 'idle'), timeoutMs: RENDER_LIVENESS_MS });
    renderers.push(renderer);
    const base = '/';
    const handler = createSnapshotHandler({ routes: routes(base), origin: 'https://example.com', mode: 'hashbang', renderer });
    const server = await listen((req, res) => void handler.node(req, res));
    try {
      const reply = await request(server.port, '/?_escaped_fragment_=/books/1');
      expect(reply.status).toBe(200);
      expect(read(reply.body)).toMatchObject({ title: 'Book 1', app: 'Dunenext', canonical: ['https://example.com/books/1'] });
    } finally {
      await server.close();
    }
  });

  it("runs a folder `vite build` prerendered into with the kept shell, not index.html (the home page's snapshot), of the folder's build", async () => {
    // `vite build` with prerendering writes the home page's snapshot as index.html and keeps the
    // built shell as .crawlable-router.shell.html. Read as the shell, the snapshot opened every
    // state as the home page, and its hash was not the folder's build: a handler given the folder
    // as its fileStore threw BUILD_MISMATCH at start, and the kept shell could not be named.
    const app = path.join(dir, 'prerendered');
    const shell = SHELL('app.js');
    const folderBuild = createSnapshotHandler({ routes: routes(), origin: 'https://example.com', shell }).build;
    mkdirSync(path.join(app, 'data'), { recursive: true });
    writeFileSync(path.join(app, 'data', 'books.json'), JSON.stringify({ 42: 'Ulysses' }));
    writeFileSync(path.join(app, 'app.js'), `${RENDER}\nrender();`);
    writeFileSync(
      path.join(app, 'index.html'),
      '<!DOCTYPE html><html><head><title>Home</title></head><body><div id="app"><h1>Home</h1></div></body></html>',
    );
    writeFileSync(path.join(app, '.crawlable-router.shell.html'), shell);
    writeFileSync(path.join(app, '.crawlable-router.json'), JSON.stringify({ build: folderBuild }));
    for (const options of [{}, { index: '.crawlable-router.shell.html' }]) {
      const renderer = headlessRenderer({ root: app, timeoutMs: RENDER_LIVENESS_MS, spares: 0, ...options });
      renderers.push(renderer);
      expect(renderer.build).toBe(folderBuild);
      const handler = createSnapshotHandler({
        routes: routes(),
        origin: 'https://example.com',
        renderer,
        cache: { store: fileStore(app), ttlMs: Infinity },
        timeoutMs: RENDER_LIVENESS_MS,
        onError: () => {},
      });
      expect(read((await handler.render('/books/42')).html)).toMatchObject({ title: 'Book 42', app: 'Ulyssesnext' });
    }
  });

  it('is built to load happy-dom only in the page process, once it starts', () => {
    // One file per module in dist/: none may import happy-dom statically; the page process (the
    // only module that loads it, started by file name) imports it on start.
    for (const file of readdirSync('dist/server', { recursive: true, encoding: 'utf8' }).filter((f) => /\.c?js$/.test(f))) {
      const text = readFileSync(`dist/server/${file}`, 'utf8');
      expect(text).not.toMatch(/^import [^;]*['"]happy-dom['"]|require\(['"]happy-dom['"]\)/m);
      if (!file.startsWith('headless/child.')) expect(text).not.toContain("import('happy-dom')");
    }
    // By require() where Node loads ES modules that way, as this Node does (its renders in this file
    // take that path), else by import().
    const child = readFileSync('dist/server/headless/child.js', 'utf8');
    expect(child).toContain("createRequire(import.meta.url)('happy-dom')");
    expect(child).toContain("import('happy-dom')");
    expect((process.features as { require_module?: boolean }).require_module).toBe(true);
  });

  it.each([
    [{ root: '/nonexistent/app' }, /root must be the app's folder/],
    [{ root: '.', index: 'nope.html' }, /index "nope.html" is not a file/],
    [{ root: '.', timeoutMs: -1 }, /timeoutMs must be a number of milliseconds above 0, got -1/],
    [{ root: '.', timeoutMs: '5000' as unknown as number }, /timeoutMs must be a number of milliseconds above 0, got "5000"/],
    [{ root: '.', upstream: 'ftp://x' }, /upstream must be an http\(s\) origin/],
    [{ root: '.', index: 'package.json', maxPages: 0 }, /maxPages must be an integer of at least 1, got 0/],
    [{ root: '.', index: 'package.json', spares: -1 }, /spares must be an integer of at least 0, got -1/],
    [{ root: '.', index: 'package.json', spares: 0.5 }, /spares must be an integer of at least 0, got 0.5/],
    [{ root: '.', index: 'package.json', pageErrors: 'warn' as 'fail' }, /pageErrors must be 'fail' or 'ignore', got "warn"/],
    [{ root: '.', index: 'package.json', upstreamMethods: ['GET'] }, /upstreamMethods needs upstream/],
    [
      { root: '.', index: 'package.json', upstream: 'http://127.0.0.1:1', upstreamMethods: ['TRACE'] },
      /upstreamMethods must be HTTP methods/,
    ],
    [{ root: '.', index: 'package.json', upstream: 'http://127.0.0.1:1', upstreamMethods: ['GET POST'] }, /upstreamMethods must be HTTP/],
    // A misspelt option was read by nobody: the default stood, silently (the CLI's flag is --timeout).
    [{ root: '.', index: 'package.json', timeout: 30_000 }, 'headlessRenderer: "timeout" is no option; did you mean "timeoutMs"?'],
    [{ root: '.', index: 'package.json', maxpages: 8 }, 'headlessRenderer: "maxpages" is no option; did you mean "maxPages"?'],
  ])('refuses %o', (options, message) => {
    expect(() => headlessRenderer(options as HeadlessRendererOptions)).toThrow(message);
  });
});
