import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotHandler, type CleanUrls, type SnapshotHandler } from '../../../src/server/handler.js';
import { listen, type Running } from '../helpers.js';
import { cases, expectedStatus, ORIGIN, SECRET, SHELL, table, type Case } from './parity-cases.js';

// One handler offered at its three front doors (a node:http listener, Express middleware, a web
// Request → Response), asked the same requests: every answer must be the same but for what a
// front door adds itself (Node's Date, Express's X-Powered-By) or cannot receive (a web Request's
// URL is always parsed: a target the URL parser rewrites reaches `fetch` rewritten).

/** What each front door hands on: the same marked answer from the next handler, or for an error passed to it. */
const NEXT = { status: 418, headers: { 'Content-Type': 'text/plain', 'X-Next': 'passed on' }, body: 'next' };
const THREW = { status: 599, headers: { 'Content-Type': 'text/plain', 'X-Next': 'threw' }, body: 'threw' };
function tail(res: ServerResponse, given: typeof NEXT): void {
  res.writeHead(given.status, { ...given.headers, 'Content-Length': String(given.body.length) });
  res.end(given.body);
}

/** An answer reduced to what the three must agree on. */
interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}
// Headers a front door adds itself, and connection management: never the handler's.
const OWN = new Set(['date', 'connection', 'keep-alive', 'x-powered-by', 'transfer-encoding']);

function seenOf(status: number, headers: Iterable<[string, string]>, body: Buffer): Seen {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) if (!OWN.has(name.toLowerCase())) kept[name.toLowerCase()] = value;
  return { status, headers: Object.fromEntries(Object.entries(kept).sort(([a], [b]) => (a < b ? -1 : 1))), body: body.toString('latin1') };
}

/** Sends a request head byte for byte (Node's client refuses some targets and header values) and reads the answer to the close. */
function raw(port: number, method: string, target: string, headers: [string, string][]): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(8000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
      const pairs = head.slice(1).map((line): [string, string] => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).trim()];
      });
      resolve(seenOf(status, pairs, all.subarray(end + 4)));
    });
    const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([n, v]) => `${n}: ${v}`), 'Connection: close', '', ''];
    // Written, not ended: a client that half-closes its side is read by Node as one that has gone.
    // UTF-8, as a client that sends raw non-ASCII bytes writes them.
    socket.write(Buffer.from(lines.join('\r\n'), 'utf8'));
  });
}

function answerOf(given: typeof NEXT, method: string): Response {
  const headers = { ...given.headers, 'Content-Length': String(given.body.length) };
  return new Response(method === 'HEAD' ? null : given.body, { status: given.status, headers });
}

async function viaFetch(handler: SnapshotHandler, method: string, url: string, headers: [string, string][]): Promise<Seen> {
  const request = new Request(url, { method, headers: headers.filter(([name]) => name.toLowerCase() !== 'host') });
  let response: Response;
  try {
    response = (await handler.fetch(request)) ?? answerOf(NEXT, method);
  } catch {
    response = answerOf(THREW, method);
  }
  return seenOf(response.status, response.headers, Buffer.from(await response.arrayBuffer()));
}

interface Door {
  handler: SnapshotHandler;
  node: Running;
  express: Running;
  /** Express with the handler mounted at `/app` (it reads `originalUrl`, not the `url` Express rewrites). */
  mounted: Running;
}
const doors = new Map<CleanUrls, Door>();

beforeAll(async () => {
  for (const cleanUrls of ['bots', 'all', 'shell'] as const) {
    const handler = createSnapshotHandler({
      routes: table(),
      origin: ORIGIN,
      shell: SHELL,
      cleanUrls,
      timeoutMs: 250,
      onError: () => {},
    });
    const node = await listen(
      (req: IncomingMessage, res: ServerResponse) =>
        void handler.node(req, res, (error?: unknown) => tail(res, error === undefined ? NEXT : THREW)),
    );
    const app = (mount: string) =>
      express()
        .use(mount, handler.node)
        .use((_req: IncomingMessage, res: ServerResponse) => tail(res, NEXT))
        .use((_error: unknown, _req: IncomingMessage, res: ServerResponse, _next: unknown) => tail(res, THREW));
    doors.set(cleanUrls, { handler, node, express: await listen(app('/')), mounted: await listen(app('/app')) });
  }
});
afterAll(async () => {
  for (const door of doors.values()) await Promise.all([door.node.close(), door.express.close(), door.mounted.close()]);
});

/** What a web Request's URL makes of a target: null where no Request can carry it. */
function webUrl(target: string, host: string): string | null {
  if (/[\0\r\n]/.test(host)) return null;
  if (target.startsWith('/')) return `http://${host}${target}`;
  return /^https?:\/\//i.test(target) ? target : null;
}

/** Whether Headers takes these values (a CR, LF or NUL in one is refused, as any web runtime refuses it). */
function webHeaders(headers: [string, string][]): boolean {
  return headers.every(([, value]) => !/[\0\r\n]/.test(value));
}

/** The project's rules, which every answer keeps whatever the front door. */
function breaks(seen: Seen, { method, target }: Case): string[] {
  const broken: string[] = [];
  const { status, headers } = seen;
  const bytes = Buffer.from(seen.body, 'latin1');
  const body = headers['content-encoding'] === 'gzip' && bytes.length ? gunzipSync(bytes).toString('latin1') : seen.body;
  if (![200, 301, 304, 400, 404, 418, 500, 504].includes(status)) broken.push(`status ${status}`);
  for (const leak of [SECRET, 'internal failure', '/work/', 'node_modules', '    at '])
    if (body.includes(leak)) broken.push(`body holds ${JSON.stringify(leak)}`);
  if (/<script>alert|<x>/i.test(body)) broken.push('hostile text raw in the body');
  for (const [name, value] of Object.entries(headers))
    if (/x-evil/i.test(name) || /[<>\0\r\n]/.test(value) || (name === 'location' && /[\s"']/.test(value)))
      broken.push(`header ${name}: ${value}`);
  if (headers['location'] !== undefined && !headers['location'].startsWith(`${ORIGIN}/app/`)) broken.push('Location off the app');
  if (body.includes('content="noindex"') && status < 400) broken.push('an error page with a success status');
  if ((status === 304 || method === 'HEAD') && body !== '') broken.push('a body with 304 or HEAD');
  // (Node's own 400 for a request it cannot parse has no Content-Type and no length.)
  const sized = status !== 304 && method !== 'HEAD' && headers['content-type'] !== undefined;
  if (sized && headers['content-length'] !== String(bytes.length)) broken.push('Content-Length is not the body’s');
  if (!['GET', 'HEAD'].includes(method) && status !== 418) broken.push(`${method} answered`);
  if (/^\/(?:other|assets)/.test(target) && status !== 418) broken.push('answered outside base');
  return broken;
}

const same = (a: Seen, b: Seen) => JSON.stringify(a) === JSON.stringify(b);
const show = (seen: Seen) => JSON.stringify({ ...seen, body: seen.body.slice(0, 300) });

describe.each(['bots', 'all', 'shell'] as const)('cleanUrls %s', (cleanUrls) => {
  it('answers every request alike at node:http, Express (at / and mounted at /app) and fetch, by the project’s rules', async () => {
    const door = doors.get(cleanUrls) as Door;
    const problems: string[] = [];
    for (const one of cases()) {
      const { method, target, headers } = one;
      const host = headers.find(([name]) => name === 'Host')?.[1] ?? '127.0.0.1';
      const sent: [string, string][] = [['Host', host], ...headers.filter(([name]) => name !== 'Host')];
      const url = webUrl(target, host);
      const web = url !== null && webHeaders(headers) ? viaFetch(door.handler, method, url, headers) : null;
      const [node, viaExpress, viaMounted] = await Promise.all([
        raw(door.node.port, method, target, sent),
        raw(door.express.port, method, target, sent),
        raw(door.mounted.port, method, target, sent),
      ]);
      const label = `${method} ${JSON.stringify(target.slice(0, 80))} ${JSON.stringify(headers).slice(0, 120)}`;
      if (!same(node, viaExpress)) problems.push(`${label}\n  node    ${show(node)}\n  express ${show(viaExpress)}`);
      // Express decides which paths reach a mount, and `/app\books` is not under `/app` to it.
      const unmounted = target.startsWith('/app\\') && viaMounted.status === NEXT.status;
      if (!same(node, viaMounted) && !unmounted) problems.push(`${label}\n  node    ${show(node)}\n  mounted ${show(viaMounted)}`);
      for (const broken of breaks(node, one)) problems.push(`${label}: ${broken}\n  ${show(node)}`);
      const status = expectedStatus(one, cleanUrls);
      if (status !== undefined && node.status !== status) problems.push(`${label}: ${node.status}, not ${status}`);
      if (web) {
        // A web Request's URL is parsed (dot segments removed, backslashes made slashes, bytes
        // escaped): `fetch` is compared with Node sent the target as the URL parser wrote it, and
        // that rewriting must not change the state answered (its status and ETag), unless Node's
        // own parser refused the raw target (a 400 with no Content-Type) or the answer is the 400
        // page, which quotes the target as it came.
        const parsed = new URL(url as string).pathname + new URL(url as string).search;
        const fromWeb = await web;
        const asParsed = parsed === target ? node : await raw(door.node.port, method, parsed, sent);
        if (!same(asParsed, fromWeb))
          problems.push(`${label} (as ${parsed.slice(0, 80)})\n  node  ${show(asParsed)}\n  fetch ${show(fromWeb)}`);
        const state = (seen: Seen) => `${seen.status} ${seen.headers['etag']} ${seen.headers['location']}`;
        if (node.status !== 400 && state(node) !== state(asParsed))
          problems.push(`${label}: ${state(node)} as sent, ${state(asParsed)} as ${parsed.slice(0, 80)}`);
        for (const broken of breaks(fromWeb, one)) problems.push(`${label} fetch: ${broken}\n  ${show(fromWeb)}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });
});
