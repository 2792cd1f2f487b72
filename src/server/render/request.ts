// The `request` hooks read on the server: the incoming request as a web `Request` (method, URL on
// the configured origin, headers; no body), made only when a hook reads it. A render that reads it
// is private to its request (render/snapshots.ts): never stored, never shared, `private, no-store`.

import { SnapshotError } from '../errors.js';
import type { Ask } from '../http/exchange.js';

/** The web `Request` of an asked request, on `origin` (never the Host header's): no body, its header fields as sent. */
export function requestOf(ask: Ask, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of ask.fields()) {
    // A field the web Headers refuses (a name with a space, a value with a NUL) is left out, not a 500.
    try {
      headers.append(name, value);
    } catch {
      continue;
    }
  }
  return new Request(origin + ask.target, { method: ask.method, headers });
}

/**
 * Who a render is for: the request it was asked by (or none: `handler.render()`, `prerender`), told
 * when a hook reads it, and closed when the render ends, after which reading it is an error.
 */
export interface RenderFor {
  /** The request, made on first read; marks the render private. Throws after `end()`. */
  read(): Request | undefined;
  /** True once `read` was called: the render depends on who asked. */
  readonly used: boolean;
  /** The render is over: a later read is a REQUEST_ENDED error. */
  end(): void;
}

/** The reader of `ask`'s request for one render (none for a render asked by no request). */
export function renderFor(ask: Ask | undefined, origin: string): RenderFor {
  let made: Request | undefined;
  let read = false;
  let ended = false;
  return {
    read() {
      if (ended)
        throw new SnapshotError(
          'REQUEST_ENDED',
          'context.request was read after its render ended: read it in the hook, not later (a timer or a promise that outlives the render)',
        );
      read = true;
      return ask && (made ??= requestOf(ask, origin));
    },
    get used() {
      return read;
    },
    end() {
      ended = true;
    },
  };
}

// The snapshots rendered for one request (a hook read it), and that request: none for a render asked by none.
const owners = new WeakMap<object, Ask | undefined>();

/** Marks `snapshot` as private to `ask`, the request it was rendered for. */
export function privateTo(snapshot: object, ask: Ask | undefined): void {
  owners.set(snapshot, ask);
}

/** True for a snapshot rendered for one request (a hook read it): kept nowhere, shared with no other. */
export function isPrivate(snapshot: object): boolean {
  return owners.has(snapshot);
}

/** True when `snapshot` may answer `ask`: a public one, or one private to that very request. */
export function isFor(snapshot: object, ask: Ask): boolean {
  return !owners.has(snapshot) || owners.get(snapshot) === ask;
}
