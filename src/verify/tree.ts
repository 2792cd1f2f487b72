// The tree `readPage` walks: a parse5 tree adapter that keeps of a page only what a crawler reads.
// parse5's own tree keeps every element, text and attribute of a page, some 45 bytes of memory for
// each byte of `<p>x</p>` (445 MiB for a page of 10 MiB, measured), and a site chooses its pages.
// The parse itself is still parse5's, so every element lands where a browser puts it; the tree keeps
// the elements whose facts are read (`a`, `area`, `link`, `meta`, `title`) with the attributes read,
// the text inside a title, and every element on the way to them. An element closed with nothing kept
// in it is dropped as it closes, or, an `<a href>`, kept as its `href` alone where it stood: nothing is
// inserted into a closed element later (the head, which a `<meta>` after `</head>` reopens, is
// kept), so what it held is all it ever holds. What stays besides: the elements still open at the
// end (the parse holds those itself), and those the adoption agency replaces with a copy
// (`<b><i><p></b>`), empty.

import { html, type Token, type TreeAdapter, type TreeAdapterTypeMap } from 'parse5';

/** A node of the kept tree: an element, a text, the document or a template's content. */
export interface Node {
  /**
   * The tag name of an element; `#text`, `#document`, `#document-fragment` or `#comment` otherwise,
   * or `#link`: an `<a href>` closed empty, kept as its `href` (its `value`).
   */
  nodeName: string;
  tagName?: string;
  namespaceURI?: html.NS;
  /** Kept on the elements whose facts are read (and `annotation-xml`, which the parse reads); none on others. */
  attrs?: Token.Attribute[];
  childNodes?: Node[] | null;
  parentNode?: Node | null;
  /** A template's content. */
  content?: Node;
  /** A text's characters, or a `#link`'s `href`. */
  value?: string;
  /** The document's quirks mode, which the parse reads. */
  mode?: html.DOCUMENT_MODE;
  /** True for a title and what it holds: the only text kept. */
  inTitle?: boolean;
  /** How many elements hold it, the document's root element 1 (where it was put). */
  depth?: number;
}

/**
 * The deepest a page may nest its elements, 262,144: every element open holds memory (some 300 bytes
 * with the parse's own), and a page of 5 MiB of `<div>` nests a million deep. Chromium's parser nests
 * elements no deeper than 512; a page past this is refused (PAGE_TOO_DEEP).
 */
export const MAX_DEPTH = 2 ** 18;

/** A page nested deeper than MAX_DEPTH: the parse stopped there. */
export class TooDeep extends Error {
  constructor() {
    super(`nests elements more than ${MAX_DEPTH} deep`);
  }
}

type Lean = TreeAdapterTypeMap<Node, Node, Node, Node, Node, Node, Node, Node, Node, Node>;

/** The attributes kept, of the elements they are read of: by readPage, and `annotation-xml`'s `encoding` by the parse. */
const READ = new Map([
  ['a', ['href']],
  ['area', ['href']],
  ['link', ['rel', 'hreflang', 'href']],
  ['meta', ['name', 'property', 'content']],
  ['annotation-xml', ['encoding']],
]);
/** Elements kept even when empty and without an attribute read: those the parse inserts into again. */
const KEPT = new Set(['html', 'head', 'body']);
const NO_ATTRS: Token.Attribute[] = Object.freeze([]) as unknown as Token.Attribute[];
// Comments are read by nobody: every one is this node, which no parent holds.
const COMMENT: Node = { nodeName: '#comment' };

const children = (node: Node): Node[] => (node.childNodes ??= []);

/**
 * The attributes of an element that are read, in a list of their number and with names shared: the
 * parse's own list has room for 17, and names of their own (some 270 bytes an `<a href>`, measured).
 */
function keptAttrs(tagName: string, attrs: Token.Attribute[]): Token.Attribute[] {
  const names = READ.get(tagName);
  if (!names) return NO_ATTRS;
  return attrs
    .filter((attr) => names.includes(attr.name))
    .map(({ name, value }) => ({ name: names.find((read) => read === name) as string, value }));
}

function place(parent: Node, node: Node): void {
  node.parentNode = parent;
  node.depth = (parent.depth ?? 0) + 1;
  if (node.depth > MAX_DEPTH) throw new TooDeep();
  // A template's content is as deep as the template: nesting templates nests too.
  if (node.content) node.content.depth = node.depth;
  if (!parent.inTitle) return;
  // A title's text is all the text within it, a template's content in it too.
  node.inTitle = true;
  if (node.content) node.content.inTitle = true;
}

function detach(node: Node): void {
  const siblings = node.parentNode?.childNodes;
  if (!siblings) return;
  // The parse detaches from the end when it moves nodes: look at the last child first.
  const at = siblings[siblings.length - 1] === node ? siblings.length - 1 : siblings.indexOf(node);
  if (at >= 0) siblings.splice(at, 1);
  node.parentNode = null;
}

/** Puts `by` where `node` stands among its parent's children. */
function replace(node: Node, by: Node): void {
  const siblings = node.parentNode?.childNodes;
  if (!siblings) return;
  siblings[siblings[siblings.length - 1] === node ? siblings.length - 1 : siblings.indexOf(node)] = by;
  by.parentNode = node.parentNode;
  node.parentNode = null;
}

function insertBefore(parent: Node, node: Node, reference: Node): void {
  const siblings = children(parent);
  const at = siblings[siblings.length - 1] === reference ? siblings.length - 1 : siblings.indexOf(reference);
  siblings.splice(at, 0, node);
  place(parent, node);
}

function textBefore(parent: Node, text: string, reference: Node | null): void {
  if (!parent.inTitle) return;
  const siblings = children(parent);
  const at = reference === null ? siblings.length : siblings.lastIndexOf(reference);
  const before = siblings[at - 1];
  if (before?.nodeName === '#text') before.value += text;
  else if (reference === null) {
    siblings.push({ nodeName: '#text', value: text, parentNode: parent, inTitle: true });
  } else insertBefore(parent, { nodeName: '#text', value: text, parentNode: parent, inTitle: true }, reference);
}

/** parse5's tree adapter for readPage: the kept tree (above). */
export const leanTree: TreeAdapter<Lean> = {
  createDocument: () => ({ nodeName: '#document', mode: html.DOCUMENT_MODE.NO_QUIRKS, childNodes: [] }),
  createDocumentFragment: () => ({ nodeName: '#document-fragment', childNodes: [] }),
  createElement: (tagName, namespaceURI, attrs) => ({
    nodeName: tagName,
    tagName,
    namespaceURI,
    attrs: keptAttrs(tagName, attrs),
    // Made with the first child: most elements have none, or one.
    childNodes: null,
    parentNode: null,
    inTitle: tagName === 'title',
    depth: 0,
  }),
  createCommentNode: () => COMMENT,
  createTextNode: (value) => ({ nodeName: '#text', value }),
  appendChild(parent, node) {
    if (node === COMMENT) return;
    if (parent.childNodes) parent.childNodes.push(node);
    else parent.childNodes = [node];
    place(parent, node);
  },
  insertBefore,
  detachNode: detach,
  insertText: (parent, text) => textBefore(parent, text, null),
  insertTextBefore: textBefore,
  // What no fact is read from: the doctype, the attributes `<html>` and `<body>` repeat, locations.
  setDocumentType() {},
  adoptAttributes() {},
  setNodeSourceCodeLocation() {},
  updateNodeSourceCodeLocation() {},
  getNodeSourceCodeLocation: () => undefined,
  setDocumentMode: (document, mode) => void (document.mode = mode),
  getDocumentMode: (document) => document.mode ?? html.DOCUMENT_MODE.NO_QUIRKS,
  setTemplateContent: (template, content) => void (template.content = content),
  getTemplateContent: (template) => template.content as Node,
  getFirstChild: (node) => node.childNodes?.[0] ?? null,
  getChildNodes: (node) => node.childNodes ?? [],
  getParentNode: (node) => node.parentNode ?? null,
  getAttrList: (element) => element.attrs ?? NO_ATTRS,
  getTagName: (element) => element.tagName as string,
  getNamespaceURI: (element) => element.namespaceURI as html.NS,
  getTextNodeContent: (text) => text.value ?? '',
  getCommentNodeContent: () => '',
  getDocumentTypeNodeName: () => '',
  getDocumentTypeNodePublicId: () => '',
  getDocumentTypeNodeSystemId: () => '',
  isTextNode: (node): node is Node => node.nodeName === '#text',
  isCommentNode: (node): node is Node => node === COMMENT,
  isDocumentTypeNode: (_node): _node is Node => false,
  isElementNode: (node): node is Node => node.tagName !== undefined,
  onItemPop(element) {
    const empty = (node: Node | undefined) => !node?.childNodes?.length;
    if (KEPT.has(element.tagName as string) || !empty(element) || !empty(element.content)) return;
    const [first] = element.attrs ?? NO_ATTRS;
    // An element with no attribute read holds no fact; an <a href>, only its href. (A void element,
    // such as <area>, is never open: it stays as it is.)
    if (!first) detach(element);
    else if (element.tagName === 'a') replace(element, { nodeName: '#link', value: first.value });
  },
};
