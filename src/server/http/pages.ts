// The answers that are not a snapshot's own page: a failed snapshot (429, 503, 500, 504; never
// cached, never a stack trace) and a redirect's small page with its Location.

import { SnapshotError } from '../errors.js';
import { errorPage, redirectPage } from '../html/escape.js';
import type { Page } from './respond.js';

const STATUS_OF: Partial<Record<SnapshotError['code'], number>> = { BUSY: 503, ABANDONED: 503, LIMITED: 429, TIMEOUT: 504 };

/** The page for a snapshot that failed, and whether `onError` should hear of it (not of load shed or refused). */
export function failurePage(error: unknown, retryAfter: string): { page: Page; report: boolean } {
  const code = error instanceof SnapshotError ? error.code : 'RENDER_FAILED';
  const status = STATUS_OF[code] ?? 500;
  if (status === 503 || status === 429) {
    // ABANDONED reaches only a client that has gone (or, rarely, one that joined as it left): no report.
    const message = status === 429 ? 'Too many snapshot requests from this client' : 'Too many snapshots are being rendered';
    const body = errorPage(status, `${message}; retry in ${retryAfter} seconds.`);
    return { page: { status, body, cacheControl: 'no-store', headers: { 'Retry-After': retryAfter } }, report: false };
  }
  // Whichever limit fired (the handler's or the renderer's own), onError has its message; the page only says what happened.
  const message =
    status === 504
      ? 'The snapshot of this page took too long to render; try again later.'
      : 'The snapshot of this page could not be rendered.';
  return { page: { status, body: errorPage(status, message), cacheControl: 'no-store' }, report: true };
}

/** The page of a redirect to `url` (already a public URL), with `Location`. */
export function redirectTo(status: number, url: string, cacheControl: string): Page {
  return { status, body: redirectPage(status, url), cacheControl, headers: { Location: url } };
}
