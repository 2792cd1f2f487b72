import { Window } from 'happy-dom';
import fc from 'fast-check';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeNode, type DomNode } from '../../../src/server/headless/serialize.js';

// serializePage's hostile texts (a script's </script>, a comment's -->, …) are in page.test.ts;
// here, the rest of the standard's serialisation, which the snapshot must keep.

let windows: Window[] = [];
afterEach(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
  windows = [];
});

function documentOf(html: string) {
  const window = new Window({ url: 'https://example.com/' });
  windows.push(window);
  window.document.write(html);
  return window.document;
}

const serialize = (node: unknown) => serializeNode(node as DomNode);

/** A node of parse5's tree, as these tests read it. */
type Parsed = { nodeName: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Parsed[] };
/** Every node of a parse5 tree, in document order. */
const walk = (node: Parsed, nodes: Parsed[] = []): Parsed[] => (nodes.push(node), node.childNodes?.forEach((c) => walk(c, nodes)), nodes);

describe('serializeNode', () => {
  it('writes a parsed page as the standard does: void elements, templates, SVG names, NBSP and quotes', () => {
    const d = documentOf(
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>a &amp; b</title></head><body>' +
        '<p class="x" data-q="&quot;a&quot; &amp; b">a&nbsp;b <br><img src="/i.png" alt=""></p>' +
        '<template><li>t</li></template><svg viewBox="0 0 1 1"><foreignObject><div>f</div></foreignObject></svg>' +
        '<script>if (a < b && c > d) go("</p>");</script><style>p > a { color: red }</style><textarea>x &lt; y</textarea></body></html>',
    );
    expect(serialize(d.documentElement)).toBe(
      '<html lang="en"><head><meta charset="utf-8"><title>a &amp; b</title></head><body>' +
        '<p class="x" data-q="&quot;a&quot; &amp; b">a&nbsp;b <br><img src="/i.png" alt=""></p>' +
        '<template><li>t</li></template><svg viewBox="0 0 1 1"><foreignObject><div>f</div></foreignObject></svg>' +
        '<script>if (a < b && c > d) go("</p>");</script><style>p > a { color: red }</style><textarea>x &lt; y</textarea></body></html>',
    );
  });

  it("keeps every </ that ends nothing: a template script's markup, commented-out markup", () => {
    const d = documentOf(
      '<!DOCTYPE html><html><head><script type="text/template" id="row"><li class="x">{{name}}</li></script></head>' +
        '<body><!-- <div>old</div> --><div id="app"></div></body></html>',
    );
    const template = d.getElementById('row');
    if (!template) throw new Error('no template');
    expect(serialize(d.documentElement)).toContain('<script type="text/template" id="row"><li class="x">{{name}}</li></script>');
    expect(serialize(d.documentElement)).toContain('<!-- <div>old</div> -->');
    // What would end the script, or a textarea around it, is what changes.
    template.append(d.createTextNode('</SCRIPT></textarea>'));
    expect(serialize(template)).toBe('<script type="text/template" id="row"><li class="x">{{name}}</li><\\/SCRIPT></textarea></script>');
    const textarea = d.createElement('textarea');
    textarea.append(template, d.createComment('</textarea><b>'));
    expect(serialize(textarea)).toBe(
      '<textarea><script type="text/template" id="row"><li class="x">{{name}}</li><\\/SCRIPT><\\/textarea></script><!--<\\/textarea><b>--></textarea>',
    );
  });

  it.each([
    [
      'a JSON-LD script',
      'application/ld+json',
      (text: string) => JSON.parse(text) as unknown,
      { name: '<!--<script>', b: '<!-- <script x>' },
    ],
    ['a script', 'module', (text: string) => new Function(text + '; return s')() as unknown, '<!--<script>'],
    ['an import map', ' ImportMap ', (text: string) => JSON.parse(text) as unknown, { imports: { '<!--<script>': '/x.js' } }],
  ])('ends %s whose text holds <!--<script> where it ends, with the same text for its reader', (_, type, read, value) => {
    const d = documentOf('<!DOCTYPE html><html><head></head><body><p id="after">after</p></body></html>');
    const script = d.createElement('script');
    script.setAttribute('type', type);
    script.textContent = type === 'module' ? `var s = ${JSON.stringify(value)}` : JSON.stringify(value);
    d.body.prepend(script);
    // Parsed again by the standard's parser (parse5; happy-dom's own has no double-escaped state),
    // the script ends before the paragraph, which is still an element of the page.
    const nodes = walk(parse('<!DOCTYPE html>' + serialize(d.documentElement)) as unknown as Parsed);
    expect(nodes.some((n) => n.nodeName === 'p' && n.attrs?.some((a) => a.name === 'id' && a.value === 'after'))).toBe(true);
    const text = nodes.find((n) => n.nodeName === 'script')?.childNodes?.[0]?.value ?? '';
    expect(read(text)).toEqual(value);
  });

  it.each([
    ['an old page’s comment around its code', '<!--\nvar s = "<script>";\n//-->'],
    ['a <!--<script> closed by -->', 'var s = "<!--<script>-->"'],
    ['<!--> (empty)', 'var s = "<!--><script>"'],
    ['<script> before any <!--', 'var s = "<script><!--"'],
  ])('keeps the text of a script whose end tag still ends it (%s) as it is', (_, text) => {
    const d = documentOf('<!DOCTYPE html><html><head></head><body></body></html>');
    const script = d.createElement('script');
    script.textContent = text;
    expect(serialize(script)).toBe(`<script>${text}</script>`);
  });

  it('ends every script where it ends, for any text of the tokens that move the parser between its script states', () => {
    const d = documentOf('<!DOCTYPE html><html><head></head><body></body></html>');
    const pieces = ['<!--', '-->', '<!-->', '<!--->', '-', '>', '<script>', '<SCRIPT ', '<script/', '</script>', '<scripts>', 'x', '\n'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const body = d.createElement('body');
        const script = d.createElement('script');
        script.textContent = text;
        const after = d.createElement('p');
        after.textContent = 'after';
        body.append(script, after);
        const parsed = parse('<!DOCTYPE html><html><head></head>' + serialize(body) + '</html>') as unknown as Parsed;
        const nodes = walk(parsed);
        // The paragraph is still an element, and the script's text reads as the text it was, once
        // the two rewrites (`<\/` and `<\!`, each JavaScript's escape of the same character) are read back.
        expect(nodes.some((n) => n.nodeName === 'p')).toBe(true);
        const written = nodes.find((n) => n.nodeName === 'script')?.childNodes?.[0]?.value ?? '';
        expect(written.replaceAll('<\\/', '</').replaceAll('<\\!', '<!')).toBe(text);
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it('writes a processing instruction with no < or > of its data, so it ends where it should', () => {
    const pi: DomNode = { nodeType: 7, target: 'x', data: '--><img src=x onerror=alert(1)>', childNodes: [], parentNode: null };
    const root: DomNode = {
      nodeType: 1,
      localName: 'div',
      namespaceURI: 'http://www.w3.org/1999/xhtml',
      attributes: [],
      childNodes: [pi],
      parentNode: null,
    };
    const html = serializeNode(root);
    expect(html).toBe('<div><?x --&gt;&lt;img src=x onerror=alert(1)&gt;></div>');
    const names = walk(parse(html) as unknown as Parsed)
      .map((n) => n.nodeName)
      .filter((name) => !name.startsWith('#'));
    expect(names).toEqual(['html', 'head', 'body', 'div']);
  });

  it('writes elements nested 100,000 deep without running out of stack', () => {
    const element = (localName: string, children: DomNode[]): DomNode => ({
      nodeType: 1,
      localName,
      namespaceURI: 'http://www.w3.org/1999/xhtml',
      attributes: [],
      childNodes: children,
      parentNode: null,
    });
    let root = element('b', []);
    for (let i = 1; i < 100_000; i++) root = element('b', [root]);
    expect(serializeNode(element('body', [root]))).toBe('<body>' + '<b>'.repeat(100_000) + '</b>'.repeat(100_000) + '</body>');
  });
});
