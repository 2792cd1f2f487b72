// The thin Node adapter (h3's shape): IncomingMessage -> web Request, web Response ->
// ServerResponse, and `next()` for whatever the core says is not its business. It works as a
// node:http request listener and as Express 5 / Connect middleware. The Request's origin is a
// fixed placeholder: nothing downstream may read the Host header.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** A node:http handler that is also Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

const PLACEHOLDER_ORIGIN = 'http://localhost';

/** The web Request for a Node request, or null when its target is not a path (CONNECT, `*`). */
export function toRequest(req: IncomingMessage): Request | null {
  // Express and Connect rewrite `url` under a mount path; `originalUrl` is what the client asked for.
  let target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  if (!target.startsWith('/')) {
    // The absolute form (`GET http://host/path`), sent to proxies: only its path and query count.
    const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(target);
    if (!absolute) return null;
    target = absolute[1] || '/';
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    } catch {
      // A header the fetch API refuses is one the snapshot logic does not read.
    }
  }
  try {
    return new Request(PLACEHOLDER_ORIGIN + target, { method: req.method ?? 'GET', headers });
  } catch {
    return null;
  }
}

/** Writes a web Response to a Node response. */
export async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Adapts a web `fetch` core to `(req, res, next)`. */
export function toNodeHandler(fetch: (request: Request) => Promise<Response | null>): NodeHandler {
  return async (req, res, next) => {
    let response: Response | null;
    try {
      const request = toRequest(req);
      response = request ? await fetch(request) : null;
    } catch (error) {
      if (next) return next(error);
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error\n');
      return;
    }
    if (response) return sendResponse(response, res);
    if (next) return next();
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not Found\n');
  };
}
