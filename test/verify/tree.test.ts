import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { leanTree, MAX_DEPTH, TooDeep, type Node } from '../../src/verify/tree.js';

/** Every node of a tree, its template contents' too. */
function nodes(root: Node): Node[] {
  const all: Node[] = [];
  for (const todo = [root]; todo.length > 0; ) {
    const node = todo.pop() as Node;
    all.push(node);
    todo.push(...(node.childNodes ?? []), ...(node.content ? [node.content] : []));
  }
  return all;
}

const names = (html: string) => nodes(parse(html, { treeAdapter: leanTree })).map((node) => node.nodeName);

describe('leanTree', () => {
  it.each([
    ['100,000 paragraphs', '<p>x</p>'.repeat(100_000)],
    ['text, comments and a doctype', '<!doctype html>' + 'lorem <!-- c --> ipsum '.repeat(10_000)],
    ['formatting misnested 10,000 times', '<b><p>x</b>y</p>'.repeat(10_000)],
    ['content fostered out of 10,000 tables', '<table><b>x</table>'.repeat(10_000)],
    [
      "elements named as Object's own keys",
      '<constructor href="/c"></constructor><__proto__ href="/p"></__proto__><tostring></tostring>'.repeat(100),
    ],
    ['empty templates, tables and SVG', '<template><div></div></template><table><tr><td></td></tr></table><svg><g></g></svg>'.repeat(1000)],
  ])('keeps nothing of %s: a page that holds no fact is its html, head and body', (_, body) => {
    expect(names(`<html><head></head><body>${body}</body></html>`).sort()).toEqual(['#document', 'body', 'head', 'html']);
  });

  it('keeps the elements read, the attributes read of them, the elements on the way to them, and the text of a title only', () => {
    const document = parse(
      '<div><p>text<a href="/a" class="x"><meta name="m" content="c" id="i"></a><a>no href</a></p><span></span></div>' +
        '<svg><title><g>in <i>svg</i></g></title></svg>',
      { treeAdapter: leanTree },
    );
    const all = nodes(document);
    expect(all.map((node) => node.nodeName).sort()).toEqual(
      ['#document', 'html', 'head', 'body', 'div', 'p', 'a', 'meta', 'svg', 'title', 'g', 'i', '#text', '#text'].sort(),
    );
    expect(all.filter((node) => node.attrs?.length).map((node) => [node.tagName, node.attrs])).toEqual([
      ['a', [{ name: 'href', value: '/a' }]],
      [
        'meta',
        [
          { name: 'name', value: 'm' },
          { name: 'content', value: 'c' },
        ],
      ],
    ]);
    expect(all.filter((node) => node.nodeName === '#text').map((node) => node.value)).toEqual(['svg', 'in ']);
  });

  it('keeps an <a href> that closes empty as its href alone, where it stood', () => {
    const [, body] =
      parse('<a href="/1" class="x">one</a><p><a href="/3"><b>three</b></a></p>', { treeAdapter: leanTree }).childNodes?.[0]?.childNodes ??
      [];
    expect(
      body?.childNodes?.map(({ nodeName, value, childNodes }) => [
        nodeName,
        value,
        childNodes?.map((child) => [child.nodeName, child.value]),
      ]),
    ).toEqual([
      ['#link', '/1', undefined],
      ['p', undefined, [['#link', '/3']]],
    ]);
  });

  it.each([
    ['<div>', '<div>'],
    ['<b> (formatting, kept open)', '<b>'],
    ['<template> (each content nested in the last)', '<template>'],
  ])(`refuses a page that nests %s more than MAX_DEPTH deep with TooDeep, as it gets there`, (_, open) => {
    // One parse, counting the elements placed: the throw comes within ten of MAX_DEPTH nested, and
    // not before, the parse being the same for any prefix of the page (each parse takes seconds).
    const name = open.slice(1, -1);
    let placed = 0;
    const counting = {
      ...leanTree,
      appendChild: (parent: Node, node: Node) => (node.nodeName === name && placed++, leanTree.appendChild(parent, node)),
    };
    const thrown = (() => {
      try {
        parse(`<html><head></head><body>${open.repeat(MAX_DEPTH)}`, { treeAdapter: counting });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(TooDeep);
    expect(thrown).toHaveProperty('message', `nests elements more than ${MAX_DEPTH} deep`);
    expect(placed).toBeGreaterThanOrEqual(MAX_DEPTH - 10);
    expect(placed).toBeLessThanOrEqual(MAX_DEPTH);
  });

  it('keeps in the head what a page puts there after </head>, which reopens it', () => {
    const [html] = parse('<head></head><meta name="fragment" content="!"><p>x</p>', { treeAdapter: leanTree }).childNodes ?? [];
    expect(html?.childNodes?.map((node) => [node.nodeName, node.childNodes?.map((child) => child.nodeName)])).toEqual([
      ['head', ['meta']],
      ['body', []],
    ]);
  });
});
