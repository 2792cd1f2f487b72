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
