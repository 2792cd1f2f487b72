// A tagged template that HTML-escapes every interpolated value unless it is already markup (the
// result of another `html` call, or an array of them). Book titles and search terms are data.
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

class Markup {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

/** Escapes text for an HTML text node or a quoted attribute value. */
export const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const part = (value) =>
  value instanceof Markup
    ? value.text
    : Array.isArray(value)
      ? value.map(part).join('')
      : value == null || value === false
        ? ''
        : escapeHtml(value);

/** html`<p>${untrusted}</p>`: markup whose holes are escaped. */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => (out += part(value) + strings[i + 1]));
  return new Markup(out);
}
