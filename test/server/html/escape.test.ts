import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { errorPage, escapeHtml } from '../../../src/server/html/escape.js';

describe('escapeHtml', () => {
  it.each([
    ['"><img src=x onerror=alert(1)>', '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ['</script>', '&lt;/script&gt;'],
    ["a&b'c", 'a&amp;b&#39;c'],
    ['nul\0byte', 'nul\uFFFDbyte'],
    ['caf\u00e9 \r\nSet-Cookie: x', 'caf\u00e9 &#13;\nSet-Cookie: x'],
    ['\x01\x08\t\n\x0b\x0c\x1f\x7f\x80', '\uFFFD\uFFFD\t\n\uFFFD\x0c\uFFFD\uFFFD\x80'],
  ])('escapes %j', (text, expected) => {
    expect(escapeHtml(text)).toBe(expected);
  });

  it('round-trips any text through an HTML parser, as text and as an attribute value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const clean = text.replace(/[\0-\x08\x0b\x0e-\x1f\x7f]/g, '\uFFFD');
        const fragment = parseFragment(`<p title="${escapeHtml(text)}">${escapeHtml(text)}</p>`);
        const p = fragment.childNodes[0] as { attrs: { value: string }[]; childNodes: { value?: string }[] };
        expect(p.attrs[0]?.value).toBe(clean);
        expect(p.childNodes.map((n) => n.value ?? '').join('')).toBe(clean);
      }),
      { seed: 4, numRuns: 300 },
    );
  });
});

describe('errorPage', () => {
  it.each([
    [400, 'bad "%zz" in "<img onerror=x>"', '400 Bad Request'],
    [500, '</script><script>alert(1)</script>', '500 Internal Server Error'],
    [504, 'slow', '504 Gateway Timeout'],
    // limitClient's refusal: its page named '429 Error', which reads as a fault of the server.
    [429, 'later', '429 Too Many Requests'],
    [503, 'busy', '503 Service Unavailable'],
  ])('writes a %i page with the message escaped', (status, message, title) => {
    const page = errorPage(status, message);
    expect(page).toContain(`<title>${title}</title>`);
    expect(page).toContain(escapeHtml(message));
    expect(page).not.toContain('<img');
    expect(page).not.toContain('</script><script>');
  });
});
