// Text a stranger chose (a headless page's failure, a crawled site's URLs and markup), made safe for
// a log line or a terminal: no forged line, no escape sequence, a bounded length.

/** The most characters of a render's cause (what an app's hook or page threw) told in an error's message: a page process sends no more, and the server writes no more. */
export const MAX_CAUSE = 500;

/**
 * `text` with its control characters (C0, DEL, C1: line breaks, terminal escapes) written as `\xNN`
 * and cut at `max` characters, so that no forged log line or escape sequence reaches a log or a
 * terminal.
 */
export function printable(text: string, max = 2000): string {
  const cut = text.length > max ? text.slice(0, max) + '…' : text;
  return cut.replace(/[\0-\x1f\x7f-\x9f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}

/**
 * What was thrown, as text: an Error's message, anything else as String gives it. Never a throw: a
 * value String cannot convert (`Object.create(null)`, a throwing `toString`) is named as such.
 */
export function thrownText(thrown: unknown): string {
  try {
    return thrown instanceof Error ? String(thrown.message) : String(thrown);
  } catch {
    return '(a value that does not print)';
  }
}
