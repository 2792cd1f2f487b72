import { existsSync } from 'node:fs';
import { listen, type Running } from '../server/helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumTextReader } from '../../src/verify/browser.js';
import { verify } from '../../src/verify/crawl.js';
import type { TextReader } from '../../src/verify/crawl.js';
import { RENDER_LIVENESS_MS } from '../liveness.js';

// The no-cloaking check in real Chromium: a hashbang page that draws its state with script, a
// snapshot that shows the same text, and one that shows a crawler something else.
const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const app = `<!doctype html><html><head><title>App</title></head><body><main></main><script>
  const draw = () => { document.querySelector('main').textContent = 'State ' + decodeURIComponent(location.hash.slice(2)); };
  draw(); addEventListener('hashchange', draw);
</script><a href="#!/same">same</a> <a href="#!/cloaked">cloaked</a></body></html>`;
const snapshot = (text: string, state: string) =>
  `<!doctype html><html><head><title>App</title><link rel="canonical" href="/#!${state}"></head><body><main>${text}</main><a href="#!/same">same</a> <a href="#!/cloaked">cloaked</a></body></html>`;

/** Liveness only: how long Chromium has to hang up on the downloads a page starts, far above its ~1 s. */
const DOWNLOADS_CANCELLED_WITHIN_MS = 20_000;

let server: Running;
let origin = '';
let reader: TextReader;
beforeAll(async () => {
  if (!existsSync(chromium)) throw new Error(`Chromium is missing at ${chromium}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  server = await listen((req, res) => {
    const state = new URL(req.url ?? '/', origin).searchParams.get('_escaped_fragment_');
    const body = state === null ? app : state === '/cloaked' ? snapshot('Cheap watches', state) : snapshot(`State ${state}`, state);
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  origin = server.base;
  reader = await chromiumTextReader();
});
afterAll(async () => {
  await reader?.close();
  await server?.close();
});

describe('verify with a browser', () => {
  it('finds the snapshot that shows a crawler other text than a browser shows', async () => {
    const report = await verify(`${origin}/#!/same`, { browser: reader, agents: false });
    const byUrl = Object.fromEntries(report.states.map((s) => [s.url.slice(origin.length), s]));
    // Each snapshot's canonical link is its #! URL, which crawlers read as the page before the #.
    expect(byUrl['/#!/same']).toMatchObject({ text: 'match', problems: [{ code: 'FRAGMENT_URL' }] });
    expect(byUrl['/#!/cloaked']).toMatchObject({ text: 'mismatch', problems: [{ code: 'FRAGMENT_URL' }, { code: 'TEXT_MISMATCH' }] });
    expect(byUrl['/#!/cloaked']?.problems[1]?.message).toContain('"Cheap watches');
  });
});

describe('verify --browser and the page reaching other hosts (security, second round)', () => {
  it('aborts in Chromium every request of the page off its origin: fetch, image, frame, script, WebSocket', async () => {
    const reached: string[] = [];
    const elsewhere = await listen((req, res) => {
      reached.push(req.url ?? '');
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('x');
    });
    elsewhere.server.on('upgrade', (req, socket) => {
      reached.push(`ws ${req.url}`);
      socket.destroy();
    });
    const away = `127.0.0.1:${elsewhere.port}`;
    const page = `<!doctype html><body><main>Here</main><img src="http://${away}/img"><iframe src="http://${away}/frame"></iframe>
      <script src="http://${away}/script.js"></script><script>
      fetch('http://${away}/fetch').catch(() => {});
      try { new WebSocket('ws://${away}/ws'); } catch {}
      navigator.sendBeacon?.('http://${away}/beacon', 'x');
      fetch('/same').catch(() => {});
    </script></body>`;
    const seenHere: string[] = [];
    const site = await listen((req, res) => {
      seenHere.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? page : 'ok');
    });
    try {
      const text = await reader.visibleText(`${site.base}/`, { javaScript: true });
      expect(text).toContain('Here');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reached).toEqual([]);
      expect(seenHere).toContain('/same');
    } finally {
      // Chromium keeps its connections alive: close() ends them, or it would wait for them.
      await Promise.all([site.close(), elsewhere.close()]);
    }
  });
});

describe('verify --browser and the popups of a page (security, eighth round)', () => {
  it('lets no popup of the page reach another host: window.open, _blank links and forms, a blank popup written by its opener', async () => {
    // Before, the off-origin guard was a route of the page alone: every popup it opened loaded and
    // ran (a POST form included), and its own scripts fetched freely, from the machine that verifies.
    const reached: string[] = [];
    const elsewhere = await listen((req, res) => {
      reached.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<script>fetch("/from-popup")</script>');
    });
    elsewhere.server.on('upgrade', (req, socket) => {
      reached.push(`ws ${req.url}`);
      socket.destroy();
    });
    const away = elsewhere.base;
    const page = `<!doctype html><body><main>Here</main><script>
      window.open('${away}/open');
      const link = (path, rel) => { const a = document.createElement('a'); a.href = '${away}' + path; a.target = '_blank'; a.rel = rel; document.body.append(a); a.click(); };
      link('/link', ''); link('/noopener', 'noopener');
      const form = document.createElement('form'); form.action = '${away}/form'; form.method = 'post'; form.target = '_blank';
      document.body.append(form); form.submit();
      const blank = window.open('about:blank');
      blank?.document.write('<img src="${away}/img"><script>fetch("${away}/fetch").catch(() => {}); new WebSocket("${away.replace('http', 'ws')}/ws");<\\/script>');
      blank?.document.close();
    </script></body>`;
    const site = await listen((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    try {
      expect(await reader.visibleText(`${site.base}/`, { javaScript: true })).toContain('Here');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(reached).toEqual([]);
    } finally {
      await Promise.all([site.close(), elsewhere.close()]);
    }
  });
});

describe('verify --browser and a popup’s own popups', () => {
  it('closes the popups a popup opens, as it closes the page’s own', async () => {
    // Before, only the page's popups were closed: a blank popup that opened another left that one
    // open, running its script for as long as verify ran (heard here on a BroadcastChannel).
    const page = `<!doctype html><html data-router-state="busy"><body><main>Listening</main><script>
      let heard = 0;
      new BroadcastChannel('alive').onmessage = () => heard++;
      const grand = 'setTimeout(() => setInterval(() => new BroadcastChannel("alive").postMessage(1), 50), 500)';
      window.open('about:blank')?.eval('window.open("about:blank")?.eval(' + JSON.stringify(grand) + ')');
      setTimeout(() => { document.querySelector('main').textContent = 'Heard ' + heard; document.documentElement.setAttribute('data-router-state', 'settled'); }, 1500);
    </script></body></html>`;
    const site = await listen((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    try {
      expect(await reader.visibleText(`${site.base}/`, { javaScript: true })).toBe('Heard 0');
    } finally {
      await site.close();
    }
  });
});

describe('verify --browser against a page that never yields (security, seventh round)', () => {
  it('gives up on a page whose script loops for ever after it loaded, and reads the next page', async () => {
    // Before, a page's read waited for the looping page without end: verify never finished.
    const looping = await listen((req, res) => {
      const loop = req.url === '/loop' ? `<script>addEventListener('load', () => setTimeout(() => { for (;;); }, 50));</script>` : '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><body><p>Text</p>${loop}</body>`);
    });
    const at = looping.base;
    const quick = await chromiumTextReader({ timeoutMs: 2000 });
    try {
      // Its own timeout, in its words: the reader gave up, where before it waited without end (the
      // test's own limit is the liveness bound).
      await expect(quick.visibleText(`${at}/loop`, { javaScript: true })).rejects.toThrow(
        `${at}/loop did not load and settle within 2000 ms`,
      );
      // The next page may take long to load on a busy machine: its own limit is a liveness bound.
      expect(await quick.visibleText(`${at}/`, { javaScript: true, timeoutMs: RENDER_LIVENESS_MS })).toBe('Text');
    } finally {
      await quick.close();
      await looping.close();
    }
  });
});

describe('verify --browser against a page that downloads (security, eighth round)', () => {
  it('downloads nothing a page starts, so a site cannot fill the disk of the machine that verifies it', async () => {
    // Before, Playwright's contexts accepted downloads: a page clicking five `<a download>` links to an
    // endless body had Chromium write 1.6 GB to its artifacts folder within 8 s, going on while the
    // page sat idle for the next state, until verify ended. Now each download is cancelled at once.
    // Counted: the downloads Chromium began, and those it has not yet hung up on. The bytes it read
    // before hanging up once stood in for "at once" (< 200 MiB), and grew with the machine's load.
    let sent = 0;
    let started = 0;
    const open = new Set<object>();
    const chunk = Buffer.alloc(1 << 20, 120);
    const page = `<!doctype html><body><p>Text</p><script>
      for (let i = 0; i < 5; i++) { const a = document.createElement('a'); a.href = '/big?' + i; a.download = 'f' + i; document.body.append(a); a.click(); }
    </script></body>`;
    const site = await listen((req, res) => {
      if (!req.url?.startsWith('/big')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      started++;
      open.add(res);
      res.on('close', () => open.delete(res));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment' });
      // At most 2 GiB in all: the test's bound, not the site's. A download kept open stays open.
      const pump = () => {
        while (sent < 2 ** 31 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    const at = site.base;
    try {
      expect(await reader.visibleText(`${at}/`, { javaScript: true })).toContain('Text');
      // A state whose own URL is a download: no file either.
      await reader.visibleText(`${at}/big`, { javaScript: false }).catch(() => '');
      expect(started).toBeGreaterThan(0);
      // Every download hung up while the reader (and its pages) stays open, as between two states of
      // a crawl; one accepted ran until the reader closed, and this wait failed.
      for (const until = Date.now() + DOWNLOADS_CANCELLED_WITHIN_MS; open.size > 0 && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(open.size, `${open.size} of ${started} downloads still open`).toBe(0);
    } finally {
      await site.close();
    }
  });
});
