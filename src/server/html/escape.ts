// HTML escaping. Everything decoded from a request is untrusted (SECURITY.md): it goes through
// `escapeHtml`.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };

/**
 * Escapes text for an HTML text node or a quoted attribute value. CR is written as a reference so
 * no CRLF reaches the page raw; NUL and the other control characters that HTML forbids (all C0 but
 * tab, LF and FF, and DEL) become U+FFFD, as a parser would read NUL.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\r\0-\x08\x0b\x0e-\x1f\x7f]/g, (c) => ENTITIES[c] ?? '\uFFFD');
}
