// What the snapshot logic reads of a request and writes as an answer: a few fields, so that the
// web `fetch` core and the Node adapter each translate once, and the Node path builds no web
// Request, Headers or Response objects per request.

/** The parts of a request the snapshot logic reads. */
export interface Ask {
  /** The method, upper case. */
  method: string;
  /** The request target: path and query, always starting with `/`. */
  target: string;
  /** A request header (lower-case name), or null. */
  header(name: string): string | null;
  /** Aborted when the client has gone (its connection closed before the answer). Default: never. */
  signal?: AbortSignal;
  /** The client's address as the connection gives it; null when the runtime does not say (web `fetch`). */
  address?: string | null;
  /** Every header field, as name/value pairs (a field sent twice, twice): what a hook's `request` is made of (render/request.ts). */
  fields(): Iterable<readonly [string, string]>;
}

/** An answer: status, headers and the body's bytes (null for none). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** The Ask for a web Request. */
export function askOf(request: Request): Ask {
  const url = new URL(request.url);
  return {
    method: request.method,
    target: url.pathname + url.search,
    header: (name) => request.headers.get(name),
    signal: request.signal,
    address: null,
    fields: () => request.headers,
  };
}

/** The web Response for an Answer. */
export function responseOf(answer: Answer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}
