// A CSP nonce per answer: the `nonce` option as a function of the request. Pages are stored without
// a nonce (a cached page must not repeat one nonce to every visitor); each answer that carries the
// library's data script gets the function's nonce written into that script's tag as it is sent.
//
// Where the tag is: the hooks renderer writes the data script first in the head's slot
// (render/render.ts, html/template.ts). All a snapshot holds before it is the shell's own text,
// refused at start when it holds the tag, and text the template escaped (a title, a link), which
// holds no `<`; what a state writes itself (its head tags, its outlet) comes after. So the first
// occurrence of the exact tag is the library's, and no page text can spoof it or move the nonce.

import type { AppLocation } from '../../url/location.js';
import { SnapshotError } from '../errors.js';
import { DATA_SCRIPT_START } from '../html/hydration.js';
import { MAX_CAUSE, printable, thrownText } from '../printable.js';
import { requestOf } from '../render/request.js';
import type { Ask } from './exchange.js';
import type { Page } from './respond.js';

/** The `nonce` option: one value for every answer, or a function that gives each answer's. */
export type NonceOption = string | ((request: Request) => string);

/** The CSP nonces accepted: base64 or base64url text, as CSP's nonce-source grammar allows. */
const NONCE = /^[A-Za-z0-9+/_-]+=*$/;

/** The data script's tag as the hooks renderer writes it with no nonce: where an answer's goes. */
const TAG = DATA_SCRIPT_START + '>';

// An answer with a nonce of its own has a body no other answer has. It gets no ETag and no
// Last-Modified: a validator names one body, and a 304 would have the browser keep the body it holds
// (an old nonce) under this answer's headers, where the app's CSP header names the new one. It is
// `private, no-store`: a shared cache would hand one nonce to every visitor, the very thing a nonce
// per answer prevents, and the browser's own copy holds a nonce of a policy that is not current.
// The `cacheControl` option is for pages every visitor may share; this is not one.
const OWN_CACHE_CONTROL = 'private, no-store';

/** A value in a message: text quoted (printable, cut), anything else by what it is. */
function shown(value: unknown): string {
  if (typeof value === 'string') return printable(JSON.stringify(value), MAX_CAUSE);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof (value as { then?: unknown }).then === 'function') return 'a promise';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Checks the `nonce` option; throws `SnapshotError` BAD_OPTION for text a nonce-source cannot hold, or what is neither text nor a function. */
export function checkNonce(nonce: unknown): NonceOption | undefined {
  if (nonce === undefined || typeof nonce === 'function' || (typeof nonce === 'string' && NONCE.test(nonce)))
    return nonce as NonceOption | undefined;
  throw new SnapshotError(
    'BAD_OPTION',
    `nonce must be base64 text (a CSP nonce-source) or a function of the request that gives it, got ${shown(nonce)}`,
  );
}

/** What `nonceAnswers` needs. */
export interface NonceAnswersOptions {
  /** Gives each answer's nonce. */
  nonce: (request: Request) => string;
  /** The configured origin: the function's request is on it, never on the Host header's. */
  origin: string;
  /** The shell's text, which must not hold the data script's tag: the tag is found by its text. */
  shell: string;
  /** True when the app gives a renderer of its own: the handler does not write its pages. */
  renderer: boolean;
  /** The page of an answer whose nonce failed (a 500), `onError` told. */
  failed: (error: SnapshotError, location: AppLocation) => Page;
}

/**
 * The pages of answers with a nonce of their own. Given a stored snapshot's page: the page for one
 * answer, with the function's nonce on its data script; the failure's page when the function throws
 * or gives no nonce (SnapshotError BAD_NONCE); or null when the page carries no data script of the
 * library's (a redirect, a prerendered page), which is answered as stored, the function not called.
 * Throws BAD_OPTION with a renderer of the app's own and BAD_SHELL for a shell holding the tag.
 */
export function nonceAnswers(options: NonceAnswersOptions): (ask: Ask, page: Page, location: AppLocation) => Page | null {
  const { nonce, origin, failed } = options;
  if (options.renderer)
    throw new SnapshotError(
      'BAD_OPTION',
      "nonce as a function needs the route hooks' renderer: the handler cannot tell where another renderer's page holds a data script; give it a string",
    );
  if (options.shell.includes(DATA_SCRIPT_START))
    throw new SnapshotError(
      'BAD_SHELL',
      `the shell holds the data script's tag ${DATA_SCRIPT_START}>, which the handler writes itself and finds to put each answer's nonce on: remove it from the shell`,
    );
  return (ask, page, location) => {
    const at = page.body.indexOf(TAG);
    if (at < 0) return null;
    let value: unknown;
    try {
      value = nonce(requestOf(ask, origin));
    } catch (error) {
      const why = `the nonce function failed for ${location}: ${printable(thrownText(error), MAX_CAUSE)}`;
      return failed(new SnapshotError('BAD_NONCE', why, { cause: error }), location);
    }
    if (typeof value !== 'string' || !NONCE.test(value))
      return failed(
        new SnapshotError('BAD_NONCE', `the nonce function gave ${shown(value)} for ${location}, not base64 text (a CSP nonce-source)`),
        location,
      );
    // Before the tag's `>`: base64 text needs no escape inside the quotes.
    const end = at + TAG.length - 1;
    const body = page.body.slice(0, end) + ` nonce="${value}"` + page.body.slice(end);
    return { status: page.status, body, cacheControl: OWN_CACHE_CONTROL, headers: page.headers, vary: page.vary };
  };
}
