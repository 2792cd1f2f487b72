import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'parse5';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import type { HeadlessRenderer } from '../../../src/server/headless/headless.js';
import { listen, request, type Running } from '../helpers.js';
import { RENDER_LIVENESS_MS } from '../../liveness.js';

// The headless boundary (SECURITY.md, "The headless boundary"): a page's scripts run in a page
// process that cannot reach the server's process, its files or the network, and every network API
// a page has is a network error outside the app's origin and its upstream. Each test is an attack,
// in both isolation settings (tabled in docs/security-reviews.md, "The headless boundary"). The
// renderer starts its page processes from the built package.
const { createSnapshotHandler, headlessRenderer } =
  (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');
const { pageProcessFlags } = (await import(
  new URL('../../../dist/server/headless/flags.js', import.meta.url).href
)) as typeof import('../../../src/server/headless/flags.js');

const SHELL = (extra = '') =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title><meta name="fragment" content="!"><script type="module" src="/app.js"></script>${extra}</head><body><div id="app"></div></body></html>`;

/** A marker file a payload writes if it reaches the server's process, and a listener that records any connection. */
let dir: string;
let marker: string;
let connections: string[] = [];
let listener: net.Server;
let port: number;
let upstream: Running;
const renderers: HeadlessRenderer[] = [];
const servers: Running[] = [];

/** The payload: reach the server's `process` from the page, write the marker with it, connect out. */
const payload = () =>
  Buffer.from(
    `(() => {
      const out = [];
      let p;
      const steps = [
        ['window.constructor.constructor', () => this.constructor.constructor('return process')()],
        ['document.constructor.constructor', () => document.constructor.constructor('return process')()],
        ['fetch.constructor', () => fetch.constructor('return process')()],
        ['Object.getPrototypeOf(document).constructor.constructor', () => Object.getPrototypeOf(document).constructor.constructor('return globalThis.process')()],
      ];
      for (const [name, step] of steps) {
        try { p = p || step(); out.push(name + (p ? ' reached process' : ' gave nothing')); } catch (e) { out.push(name + ' refused: ' + e.name); }
      }
      if (p) {
        try { (p.getBuiltinModule ? p.getBuiltinModule('fs') : p.mainModule.require('fs')).writeFileSync(${JSON.stringify(marker)}, 'pwned'); out.push('wrote the marker'); } catch (e) { out.push('write refused'); }
        try { p.getBuiltinModule('net').connect(${port}, '127.0.0.1').on('error', () => {}); } catch (e) {}
      }
      document.title = 'attack: ' + out.join('; ');
    })()`,
  ).toString('base64');

const APPS: Record<string, Record<string, string>> = {
  // The DOM-XSS: the state, decoded, written as markup.
  xss: { 'index.html': SHELL(), 'app.js': `document.getElementById('app').innerHTML = decodeURIComponent(location.hash.slice(2));` },
  // The same, the way a library's html() does it: scripts in the markup are run too.
  'xss-scripts': {
    'index.html': SHELL(),
    'app.js': `const app = document.getElementById('app');
      app.innerHTML = decodeURIComponent(location.hash.slice(2));
      for (const old of [...app.querySelectorAll('script')]) { const s = document.createElement('script'); s.textContent = old.textContent; old.replaceWith(s); }`,
  },
};

/**
 * Every network API a page has, each aimed at the listener (another local service) over http and
 * https, each outcome written to the page. happy-dom gives a refused request to fetch as a response
 * of type "error" (the Fetch standard's network error) and to XHR as status 0; a browser would
 * reject the fetch and fire XHR's error event: either way, a network error.
 */
const PROBE = (port: number) => `
const out = {};
for (const target of ['http://127.0.0.1:${port}', 'https://127.0.0.1:${port}']) await probe(target, target.split(':')[0] + ' ');
// The upstream, same origin: the one place beyond the app's files a page may reach.
out['upstream fetch'] = await fetch('/api/ok').then((r) => r.text(), () => 'network error');
document.getElementById('app').textContent = JSON.stringify(out);

async function probe(target, prefix) {
const note = (name, outcome) => { out[prefix + name] = outcome; };
const settle = (name, run) => new Promise((resolve) => {
  const timer = setTimeout(() => { note(name, out[prefix + name] ?? 'no answer'); resolve(); }, 400);
  run((outcome) => { if (!(prefix + name in out)) note(name, outcome); clearTimeout(timer); resolve(); });
});
const element = (name, tag, attrs) => settle(name, (done) => {
  const el = document.createElement(tag);
  el.addEventListener('load', () => done('loaded'));
  el.addEventListener('error', () => done('error'));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.head.appendChild(el);
});
await Promise.all([
  settle('fetch', (done) => fetch(target + '/fetch').then((r) => done(r.type === 'error' && r.status === 0 ? 'network error' : 'status ' + r.status), () => done('network error'))),
  settle('fetch no-cors', (done) => fetch(target + '/no-cors', { mode: 'no-cors' }).then((r) => done(r.type === 'error' && r.status === 0 ? 'network error' : r.type), () => done('network error'))),
  settle('xhr', (done) => { const x = new XMLHttpRequest(); x.onload = () => done(x.status === 0 ? 'network error' : 'status ' + x.status); x.onerror = () => done('network error'); x.open('GET', target + '/xhr'); x.send(); }),
  settle('sync xhr', (done) => { try { const x = new XMLHttpRequest(); x.open('GET', target + '/sync-xhr', false); x.send(); done(x.status === 0 ? 'network error' : 'status ' + x.status); } catch (e) { done('network error'); } }),
  settle('websocket', (done) => { try { const ws = new WebSocket(target.replace('http', 'ws') + '/ws'); ws.onopen = () => done('open'); ws.onerror = () => done('network error'); ws.onclose = () => done('network error'); } catch (e) { done('network error'); } }),
  settle('eventsource', (done) => { if (typeof EventSource !== 'function') return done('absent'); const es = new EventSource(target + '/events'); es.onopen = () => done('open'); es.onerror = () => done('network error'); }),
  settle('sendBeacon', (done) => { try { navigator.sendBeacon(target + '/beacon', 'data'); done('queued'); } catch (e) { done('network error'); } }),
  settle('import', (done) => import(target + '/module.js').then(() => done('loaded'), () => done('network error'))),
  element('script', 'script', { src: target + '/script.js' }),
  element('module script', 'script', { type: 'module', src: target + '/module-script.js' }),
  element('stylesheet', 'link', { rel: 'stylesheet', href: target + '/style.css' }),
  element('preload', 'link', { rel: 'preload', as: 'fetch', href: target + '/preload' }),
  element('img', 'img', { src: target + '/img.png' }),
  element('iframe', 'iframe', { src: target + '/frame.html' }),
  settle('window.open', (done) => { try { const w = window.open(target + '/popup'); done(w ? 'opened' : 'refused'); } catch (e) { done('refused'); } }),
]);
}
`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-boundary-'));
  marker = path.join(dir, 'pwned.txt');
  listener = net.createServer((socket) => {
    connections.push('connected');
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
  upstream = await listen((req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream ${req.url}`));
  APPS.probe = { 'index.html': SHELL(), 'app.js': PROBE(port) };
  for (const [name, files] of Object.entries(APPS)) {
    mkdirSync(path.join(dir, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, name, file), text);
  }
});

beforeEach(() => {
  connections = [];
  rmSync(marker, { force: true });
});

afterEach(async () => {
  await Promise.all([...renderers.splice(0).map((r) => r.close()), ...servers.splice(0).map((s) => s.close())]);
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const routes = createRoutes([{ path: '/' }, { path: '/*rest' }]);

async function serve(app: string, isolate: boolean) {
  // No spare page process: each render starts its own, and none is left to waste when the test ends.
  const renderer = headlessRenderer({
    root: path.join(dir, app),
    isolate,
    timeoutMs: RENDER_LIVENESS_MS,
    upstream: upstream.base,
    spares: 0,
  });
  renderers.push(renderer);
  const handler = createSnapshotHandler({
    timeoutMs: RENDER_LIVENESS_MS,
    routes,
    origin: 'https://example.com',
    mode: 'hashbang',
    renderer,
    cache: false,
    onError: () => {},
  });
  const server = await listen((req, res) => void handler.node(req, res));
  servers.push(server);
  return server;
}

function readPage(html: string) {
  type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
  const found = { title: '', app: '' };
  const text = (n: Node): string => (n.value ?? '') + (n.childNodes ?? []).map(text).join('');
  const walk = (n: Node) => {
    if (n.tagName === 'title') found.title = text(n);
    if (n.attrs?.some((a) => a.name === 'id' && a.value === 'app')) found.app = text(n);
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 150));

describe.each([
  ['by default', false],
  ['with isolate: true (kept for earlier versions: every page has its own process)', true],
] as const)('the headless boundary, %s', (_, isolate) => {
  it('a DOM-XSS reached through _escaped_fragment_ with <iframe srcdoc="<script>parent.eval(atob(…))"> never reaches the server process, writes no file and connects nowhere', async () => {
    const server = await serve('xss', isolate);
    const state = `/<iframe srcdoc="<script>parent.eval(atob('${payload()}'))</script>"></iframe>`;
    const reply = await request(server.port, '/?_escaped_fragment_=' + encodeURIComponent(state));
    expect([200, 404]).toContain(reply.status);
    await settled();
    expect(existsSync(marker)).toBe(false);
    expect(connections).toEqual([]);
    // The iframe is in the snapshot, its srcdoc never loaded: the payload did not run at all.
    expect(reply.body).toContain('<iframe srcdoc=');
    expect(readPage(reply.body).title).toBe('Shell');
  });

  it('the same payload run by the page itself (a DOM-XSS that runs the scripts it inserts) is refused every way to the server process', async () => {
    const server = await serve('xss-scripts', isolate);
    const state = `/<script>eval(atob('${payload()}'))</script>`;
    const reply = await request(server.port, '/?_escaped_fragment_=' + encodeURIComponent(state));
    expect([200, 404]).toContain(reply.status);
    await settled();
    expect(existsSync(marker)).toBe(false);
    expect(connections).toEqual([]);
    const { title } = readPage(reply.body);
    // The payload ran (the title is its report) and every step was refused.
    expect(title).toMatch(/^attack: /);
    expect(title).not.toContain('reached process');
    expect(title.split('; ')).toHaveLength(4);
    for (const step of title.slice('attack: '.length).split('; ')) expect(step).toMatch(/ refused: EvalError$/);
  });

  it('a page aiming every network API (WebSocket, EventSource, sendBeacon, XHR, fetch, import, script/link/img/iframe, window.open) at another local service gets network errors, and nothing connects', async () => {
    const server = await serve('probe', isolate);
    const reply = await request(server.port, '/?_escaped_fragment_=/');
    expect(reply.status).toBe(200);
    await settled();
    expect(connections).toEqual([]);
    const outcomes = JSON.parse(readPage(reply.body).app) as Record<string, string>;
    const expected = {
      fetch: 'network error',
      'fetch no-cors': 'network error',
      xhr: 'network error',
      'sync xhr': 'network error',
      websocket: 'network error',
      eventsource: 'absent',
      // sendBeacon only queues: what proves it went nowhere is the listener.
      sendBeacon: 'queued',
      import: 'network error',
      script: 'error',
      'module script': 'error',
      stylesheet: 'error',
      // happy-dom loads no preload, image or iframe page at all: no event either way.
      preload: 'no answer',
      img: 'no answer',
      iframe: 'no answer',
      'window.open': 'refused',
    };
    expect(outcomes).toEqual({
      ...Object.fromEntries(
        Object.entries(expected).flatMap(([name, outcome]) => [
          [`http ${name}`, outcome],
          [`https ${name}`, outcome],
        ]),
      ),
      'upstream fetch': 'upstream /api/ok',
    });
  });
});

describe('a script that climbs out of happy-dom into its page process', () => {
  it('can read no file beyond the package code, write none, start no process or worker, connect or listen nowhere, and reach no module or other process from process', async () => {
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET');
    const escapee = fileURLToPath(new URL('./escapee.mjs', import.meta.url));
    const priority = os.getPriority(process.pid);
    const child = spawn(
      process.execPath,
      [...pageProcessFlags(escapee), escapee, JSON.stringify({ secret, marker, port, parent: process.pid })],
      { stdio: ['ignore', 'pipe', 'pipe'], env: {} },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    await settled();
    const tried = JSON.parse(output) as Record<string, string>;
    expect(tried).toEqual({
      'Function from a string': 'refused: EvalError',
      'read a file outside': 'refused: ERR_ACCESS_DENIED',
      'tell a file outside exists': 'refused: ERR_ACCESS_DENIED',
      'write a file': 'refused: ERR_ACCESS_DENIED',
      'start a process': 'refused: ERR_ACCESS_DENIED',
      'start a worker': 'refused: ERR_ACCESS_DENIED',
      'connect over TCP': 'refused: EACCES',
      'http request': 'refused: EACCES',
      listen: 'refused: EACCES',
      'send a datagram': 'refused: EACCES',
      'global fetch': 'absent',
      'process.getBuiltinModule': 'absent',
      'process.binding': 'absent',
      'process.dlopen': 'absent',
      'process.kill (the server)': 'absent',
      'process._debugProcess (the server)': 'absent',
      'process.report (the command line, the host)': 'absent',
      'renice the server': 'refused: EACCES',
    });
    expect(os.getPriority(process.pid)).toBe(priority);
    expect(existsSync(marker)).toBe(false);
    expect(connections).toEqual([]);
  });
});
