import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/server/html/escape.js';

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
