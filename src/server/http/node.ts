// The thin Node adapter (h3's shape): IncomingMessage -> Ask, Answer -> ServerResponse, and
// `next()` for whatever the core says is not its business. It works as a node:http request
// listener and as Express 5 / Connect middleware. Only the path and query are read from the
// request target: nothing downstream may read the Host header.

import { stripAnchor } from '../../url/location.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Answer, Ask } from './exchange.js';

/** A node:http handler that is also Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

// One class rather than an object of closures: a request's Ask is made cheaply, and what the
// answer may not need (the client's address, the signal) is read only when asked for.
class NodeAsk implements Ask {
  #gone: AbortSignal | undefined;
  constructor(
    readonly method: string,
    readonly target: string,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse | undefined,
  ) {}
  header(name: string): string | null {
    // Every field line, joined as fetch's Headers joins them: `headers` keeps only the first line of
    // User-Agent, If-Modified-Since and a few more, so that a request that sends a field twice is read
    // here as `fetch` reads it. (An object without `headersDistinct`, as some tests pass, has `headers`.)
    const value = this.req.headersDistinct?.[name] ?? this.req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  *fields(): Iterable<readonly [string, string]> {
    // The fields as the app's middleware left them (`headers`): one it set (the CSP nonce it chose,
    // the user an auth layer found) is there, and over a field of that name the client sent (a
    // forged `X-User`), which the hooks' `request` and the `nonce` function must never see instead.
    for (const [name, value] of Object.entries(this.req.headers)) {
      if (value !== undefined) for (const line of Array.isArray(value) ? value : [value]) yield [name, String(line)];
    }
  }

  get address(): string | null {
    return this.req.socket?.remoteAddress ?? null;
  }
  get signal(): AbortSignal | undefined {
    return this.res && (this.#gone ??= clientGone(this.res));
  }
}

/**
 * The Ask for a Node request, or null when its target is not a path (CONNECT, `*`). With `res`, its
 * `signal` (the client has gone) is made on first read: a request answered at once (a cache hit)
 * never pays for one.
 */
export function toAsk(req: IncomingMessage, res?: ServerResponse): Ask | null {
  // Express and Connect rewrite `url` under a mount path; `originalUrl` is what the client asked for.
  let target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  if (!target.startsWith('/')) {
    // The absolute form (`GET http://host/path`), sent to proxies: only its path and query count.
    const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(target);
    if (!absolute) return null;
    target = absolute[1] || '/';
  }
  if (!target.startsWith('/')) target = '/' + target;
  // The path and query only: a fragment never reaches a server, and `#` here is not one.
  target = stripAnchor(target);
  // A `\` in the path is a `/` to the URL parser, so to a browser (which never sends one) and to the
  // web Request `fetch` is given: read here as there, `/app/books\1` is /books/1 at every door.
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  if (path.includes('\\')) target = path.replace(/\\/g, '/') + target.slice(path.length);
  return new NodeAsk((req.method ?? 'GET').toUpperCase(), target, req, res);
}

/** Writes an answer to a Node response: status, headers and body in one write (Content-Length, never chunked). */
export function sendAnswer(answer: Answer, res: ServerResponse): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

const GONE = 'the client closed its connection before the answer';

/**
 * The connection of a response: its socket, or while a pipelined request waits for the answers
 * before its own (with no socket of its own, and never closed by Node when the connection goes) its
 * request's.
 */
const connectionOf = (res: ServerResponse) => res.socket ?? res.req?.socket;

/** Whether the client of `res` has gone before its answer was written. */
const hasGone = (res: ServerResponse) => (res.destroyed || connectionOf(res)?.destroyed) && !res.writableFinished;

// What waits for each connection's close on behalf of its pipelined requests: one listener a
// connection, however many requests it carries.
const waitingOn = new WeakMap<Socket, Set<() => void>>();

/** Calls `gone` when `socket` closes; gives the function that takes it back. */
function onClose(socket: Socket, gone: () => void): () => void {
  let waiting = waitingOn.get(socket);
  if (!waiting) {
    const all = (waiting = new Set());
    waitingOn.set(socket, all);
    socket.once('close', () => all.forEach((call) => call()));
  }
  waiting.add(gone);
  return () => void waiting.delete(gone);
}

/** A signal that aborts when the client goes before its answer is written (the response closes unfinished). */
function clientGone(res: ServerResponse): AbortSignal {
  // A response-like object without events, as some frameworks and tests pass, is never "gone".
  if (typeof res.once !== 'function') return new AbortController().signal;
  // Asked late (after a wait): the client may have gone already.
  if (hasGone(res)) return AbortSignal.abort(new Error(GONE));
  const controller = new AbortController();
  const gone = () => {
    if (!res.writableFinished) controller.abort(new Error(GONE));
  };
  // `close` on the response, not the request: a request's `close` only says its body was read.
  res.once('close', gone);
  const socket = connectionOf(res);
  if (!res.socket && typeof socket?.once === 'function') res.once('close', onClose(socket, gone));
  return controller.signal;
}

/** Adapts the snapshot core to `(req, res, next)`; an answer given at once is written at once. */
export function toNodeHandler(answer: (ask: Ask) => Answer | null | Promise<Answer | null>): NodeHandler {
  return async (req, res, next) => {
    let result: Answer | null;
    const ask = toAsk(req, res);
    try {
      const given = ask ? answer(ask) : null;
      result = given instanceof Promise ? await given : given;
    } catch (error) {
      if (next) return next(error);
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error\n');
      return;
    }
    if (result) return sendAnswer(result, res);
    // Nobody is left to answer: a client that has gone is neither answered nor passed on.
    if (ask && hasGone(res)) return;
    if (next) return next();
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not Found\n');
  };
}
