// The answers that are not a snapshot's own page: a failed snapshot (429, 503, 500, 504; never
// cached, never a stack trace), a render's request for a state not cached (508), a target that is
// no URL of the scheme (400), and a redirect's small page with its Location. Each page is complete
// and self-contained, its text escaped.

import { SnapshotError } from '../errors.js';
import { escapeHtml } from '../html/escape.js';
import type { Page } from './respond.js';

/** Reason phrases of the statuses the server writes itself. */
const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  508: 'Loop Detected',
};

/** The start of a page the library writes itself, in the app's language (`lang`, the shell's). */
const pageStart = (lang: string) => `<!DOCTYPE html>\n<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">`;

/** A complete, self-contained error page in language `lang`: the status as its title, `message` escaped, no stack. */
export function errorPage(status: number, message: string, lang = 'en'): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return (
    pageStart(lang) +
    '<meta name="robots" content="noindex">' +
    `<title>${title}</title></head>\n<body><h1>${title}</h1>\n<p>${escapeHtml(message)}</p></body></html>\n`
  );
}

/** The small page sent with a redirect, in language `lang`: a link to the target, escaped. */
export function redirectPage(status: number, url: string, lang = 'en'): string {
  const title = `${status} ${REASONS[status] ?? 'Redirect'}`;
  return `${pageStart(lang)}<title>${title}</title></head>\n<body><p>Moved to <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>.</p></body></html>\n`;
}

const STATUS_OF: Partial<Record<SnapshotError['code'], number>> = { BUSY: 503, ABANDONED: 503, LIMITED: 429, TIMEOUT: 504 };

/** The page for a snapshot that failed (in language `lang`), and whether `onError` should hear of it (not of load shed or refused). */
export function failurePage(error: unknown, retryAfter: string, lang = 'en'): { page: Page; report: boolean } {
  const code = error instanceof SnapshotError ? error.code : 'RENDER_FAILED';
  const status = STATUS_OF[code] ?? 500;
  if (status === 503 || status === 429) {
    // ABANDONED reaches only a client that has gone (or, rarely, one that joined as it left): no report.
    const message = status === 429 ? 'Too many snapshot requests from this client' : 'Too many snapshots are being rendered';
    const body = errorPage(status, `${message}; retry in ${retryAfter} seconds.`, lang);
    return { page: { status, body, cacheControl: 'no-store', headers: { 'Retry-After': retryAfter } }, report: false };
  }
  // Whichever limit fired (the handler's or the renderer's own), onError has its message; the page only says what happened.
  const message =
    status === 504
      ? 'The snapshot of this page took too long to render; try again later.'
      : 'The snapshot of this page could not be rendered.';
  return { page: { status, body: errorPage(status, message, lang), cacheControl: 'no-store' }, report: true };
}

/**
 * The page for a request made by a page being rendered (nested.ts) whose state is not cached, in
 * language `lang`: 508, never cached. No render starts for it, so none waits for its ancestor's slot.
 */
export function nestedPage(lang = 'en'): Page {
  const message = 'This request was made by a page being rendered, and its snapshot is not cached: a render never starts another.';
  return { status: 508, body: errorPage(508, message, lang), cacheControl: 'no-store' };
}

/** The page of a redirect to `url` (already a public URL), with `Location`, in language `lang`. */
export function redirectTo(status: number, url: string, cacheControl: string, lang?: string): Page {
  return { status, body: redirectPage(status, url, lang), cacheControl, headers: { Location: url } };
}
