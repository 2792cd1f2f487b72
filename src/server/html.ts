// HTML escaping and the small pages the server answers errors with. Everything decoded from a
// request is untrusted (DESIGN.md, "Rules that hold everywhere"): it goes through `escapeHtml`.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\0': '\uFFFD' };

/** Escapes text for an HTML text node or a quoted attribute value; NUL becomes U+FFFD, as parsers read it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\0]/g, (c) => ENTITIES[c] as string);
}

/** Reason phrases of the statuses the server writes itself. */
export const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  304: 'Not Modified',
  400: 'Bad Request',
  404: 'Not Found',
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
