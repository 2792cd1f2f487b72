// HTML escaping and the small pages the server answers errors with. Everything decoded from a
// request is untrusted (SECURITY.md): it goes through `escapeHtml`.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };

/**
 * Escapes text for an HTML text node or a quoted attribute value. CR is written as a reference so
 * no CRLF reaches the page raw; NUL and the other control characters that HTML forbids (all C0 but
 * tab, LF and FF, and DEL) become U+FFFD, as a parser would read NUL.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\r\0-\x08\x0b\x0e-\x1f\x7f]/g, (c) => ENTITIES[c] ?? '\uFFFD');
}

/** Reason phrases of the statuses the server writes itself. */
export const REASONS: Readonly<Record<number, string>> = {
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
};

/** A complete, self-contained error page: the status as its title, `message` escaped, no stack. */
export function errorPage(status: number, message: string): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
    `<title>${title}</title></head>\n<body><h1>${title}</h1>\n<p>${escapeHtml(message)}</p></body></html>\n`
  );
}

/** The small page sent with a redirect: a link to the target, escaped. */
export function redirectPage(status: number, url: string): string {
  const title = `${status} ${REASONS[status] ?? 'Redirect'}`;
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n<body><p>Moved to <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>.</p></body></html>\n`;
}
