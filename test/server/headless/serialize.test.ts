import { Window } from 'happy-dom';
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
    type Parsed = { nodeName: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Parsed[] };
    const nodes: Parsed[] = [];
    const walk = (n: Parsed): void => (nodes.push(n), n.childNodes?.forEach(walk));
    walk(parse('<!DOCTYPE html>' + serialize(d.documentElement)) as unknown as Parsed);
    expect(nodes.some((n) => n.nodeName === 'p' && n.attrs?.some((a) => a.name === 'id' && a.value === 'after'))).toBe(true);
    const text = nodes.find((n) => n.nodeName === 'script')?.childNodes?.[0]?.value ?? '';
    expect(read(text)).toEqual(value);
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
    const names: string[] = [];
    const walk = (n: { tagName?: string; childNodes?: unknown[] }) => {
      if (n.tagName) names.push(n.tagName);
      (n.childNodes ?? []).forEach((c) => walk(c as typeof n));
    };
    walk(parse(html));
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
