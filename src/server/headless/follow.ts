// A page's fetch follows redirects as a browser's does. happy-dom takes the interceptor's answer
// (headless/child.ts) as the final response, so a 301 from the upstream reached the app's script as
// it came, where a browser gives the target's answer: an API that moves `/api/items` to
// `/api/items/` failed the page's `load` headless only. Each hop is a request of its own through the
// server's gate, under the gate's rules (origin, methods, limits), as a browser's hop is. And a
// network error rejects the page's fetch, as a browser's does, where happy-dom resolved it.

import type { BrowserWindow } from 'happy-dom';
import type { GateAnswer, GateRequest } from './protocol.js';

/** Hops a browser follows before its fetch fails (the Fetch standard's limit). */
const MAX_HOPS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An answer after the redirects followed, the URL it came from, and whether it was redirected. */
export interface Followed {
  answer: GateAnswer;
  url: string;
  redirected: boolean;
}

/**
 * Asks for `request`, following its redirects when `mode` is `follow` (fetch's default): a 303, or a
 * 301 or 302 to a POST, goes on as a GET with no body, as browsers do. With `error` a redirect is a
 * network error; with `manual` it is given as it came.
 */
export async function followRedirects(
  request: GateRequest,
  mode: string,
  ask: (request: GateRequest) => Promise<GateAnswer>,
): Promise<Followed> {
  let asking = request;
  for (let hop = 0; ; hop++) {
    const answer = await ask(asking);
    const location =
      answer && REDIRECTS.has(answer.status) ? answer.headers.find(([name]) => name.toLowerCase() === 'location')?.[1] : undefined;
    if (location === undefined || mode === 'manual') return { answer, url: asking.url, redirected: hop > 0 };
    if (mode === 'error' || hop === MAX_HOPS || !URL.canParse(location, asking.url))
      return { answer: null, url: asking.url, redirected: hop > 0 };
    const toGet =
      answer?.status === 303 ? asking.method !== 'HEAD' : asking.method === 'POST' && answer?.status !== 307 && answer?.status !== 308;
    asking = {
      url: new URL(location, asking.url).href,
      method: toGet ? 'GET' : asking.method,
      headers: toGet ? asking.headers.filter(([name]) => !/^content-/i.test(name)) : asking.headers,
      body: toGet ? null : asking.body,
    };
  }
}

/**
 * Makes a page's fetch reject on a network error (a refused origin, a redirect loop, an upstream
 * down), as a browser's does: happy-dom resolves it with the interceptor's `Response.error()`
 * (status 0), so an app that catches the failure to show its error view went on with an empty
 * response headless only. Called before the page's content loads.
 */
export function rejectNetworkErrors(window: BrowserWindow): void {
  const fetch = window.fetch;
  const TypeError = (window as unknown as { TypeError: ErrorConstructor }).TypeError;
  Object.defineProperty(window, 'fetch', {
    configurable: true,
    writable: true,
    value: async (...args: Parameters<typeof fetch>) => {
      const response = await fetch.apply(window, args);
      if (response.type === 'error') throw new TypeError('Failed to fetch');
      return response;
    },
  });
}
