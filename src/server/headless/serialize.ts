// A headless page's DOM as HTML, by the HTML standard's fragment serialisation, with the one duty a
// snapshot adds: parsed again, the text holds the page's elements and no other. A page's DOM may
// hold text that no markup can hold as it is (a script's text with `</script>` in it, a comment with
// `-->`), put there safely through `textContent` from the URL a crawler chose; written as it is,
// that text would be markup in the snapshot (an `<img onerror>` the page never had). So:
// - text and attribute values are escaped (`&`, NBSP, `<`, `>`; `"` in values, so `</noscript>` in
//   a value inside `<noscript>` ends nothing, in a parser that runs scripts or one that does not);
// - raw text (a script's, a style's, …) and comments, which cannot be escaped, have each `</` that
//   would end their element or one around them whose content a parser reads as text (`</script`
//   in a script, `</noscript` inside a noscript, `</textarea` inside a textarea) written `<\/`,
//   which JavaScript, JSON and CSS read as the same text; any other `</` (a template script's
//   `</div>`) is kept. Raw text under SVG or MathML (read there as markup) is escaped as text;
// - a script whose text leaves the parser where its own end tag ends nothing (`<!--` then `<script`,
//   with no `-->` after: the tokenizer's double-escaped state), which would make the rest of the
//   page its text, has its `<!--` written `<\!--` (`\u003c!--` in a JSON script), which JavaScript
//   and JSON read as the same text; any other script's `<!--` (an old page's `<!-- … //-->`) is kept;
// - a comment has what would end it early written with `&gt;` (comments are inert), and a
//   processing instruction its `<` and `>`.
// happy-dom's own serialiser writes script and style text, comments and `<`/`>` in values as they are.

/** The parts of a DOM node the serialiser reads (happy-dom's nodes have them). */
export interface DomNode {
  readonly nodeType: number;
  readonly localName?: string | null;
  readonly namespaceURI?: string | null;
  readonly prefix?: string | null;
  readonly attributes?: Iterable<{ readonly name: string; readonly value: string }>;
  readonly parentNode: DomNode | null;
  readonly childNodes: Iterable<DomNode>;
  /** A `<template>`'s contents. */
  readonly content?: DomNode;
  /** Text, comment and processing instruction data. */
  readonly data?: string;
  /** A processing instruction's target. */
  readonly target?: string;
}

const HTML = 'http://www.w3.org/1999/xhtml';
const SVG = 'http://www.w3.org/2000/svg';
const MATHML = 'http://www.w3.org/1998/Math/MathML';
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const RAW = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const ENTITIES: Record<string, string> = { '&': '&amp;', '\u00a0': '&nbsp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

const escapeText = (text: string) => text.replace(/[&\u00a0<>]/g, (c) => ENTITIES[c] as string);
const escapeValue = (text: string) => text.replace(/[&\u00a0<>"]/g, (c) => ENTITIES[c] as string);

// Elements whose content a parser reads as text up to their end tag (noscript: where scripts run).
const TEXT_CONTENT = new Set([...RAW, 'noscript', 'textarea', 'title']);
const closerPatterns = new Map<string, RegExp>();
/** Text with no `</` of the `closers` (`|`-joined element names; none: as it is). */
function closeNone(text: string, closers: string): string {
  if (closers === '') return text;
  let pattern = closerPatterns.get(closers);
  if (!pattern) closerPatterns.set(closers, (pattern = new RegExp(`</(?=(?:${closers}))`, 'gi')));
  return text.replace(pattern, '<\\/');
}
/** `closers` with `name`, sorted: a page nesting them in any order makes at most 2^10 distinct sets (and patterns). */
function withCloser(closers: string, name: string): string {
  const names = closers === '' ? [] : closers.split('|');
  return names.includes(name) ? closers : [...names, name].sort().join('|');
}
/** A script's type says JSON (`application/ld+json`, `importmap`, …): its text is JSON, read with JSON's escapes. */
const JSON_SCRIPT = /json|^\s*(importmap|speculationrules)\s*$/i;
/**
 * Whether a parser reading `text` as a script's ends in its double-escaped state, where the
 * script's end tag ends nothing: states 0 (script data), 1 (escaped, after `<!--`), 2 (double escaped,
 * after `<!--` then `<script`); `-->` (or `<!-->`) goes back to 0.
 */
function endsDoubleEscaped(text: string): boolean {
  let state = 0;
  for (const [token] of text.matchAll(/<!---*>|<!--|-->|<(\/?)script(?=[\t\n\f\r />])/gi)) {
    if (token.endsWith('->')) state = 0;
    else if (token.startsWith('<!')) state ||= 1;
    else if (token[1] === '/') state = state === 2 ? 1 : state;
    else if (state === 1) state = 2;
  }
  return state === 2;
}

/** A script's text with no `<!--` where it would keep the script's end tag from ending it. */
function scriptText(text: string, script: DomNode): string {
  if (!text.includes('<!--') || !endsDoubleEscaped(text)) return text;
  const type = [...(script.attributes ?? [])].find((attribute) => attribute.name === 'type')?.value ?? '';
  return text.replaceAll('<!--', JSON_SCRIPT.test(type) ? '\\u003c!--' : '<\\!--');
}

/** Comment data, with nothing that ends a comment early: `-->`, `--!>`, a leading `>` or `->`. */
const commentData = (text: string) => text.replace(/^-?>|--!?>/g, (end) => end.slice(0, -1) + '&gt;');

function tagName(element: DomNode): string {
  const { namespaceURI: ns, localName, prefix } = element;
  return ns === HTML || ns === SVG || ns === MATHML || !prefix ? (localName as string) : `${prefix}:${localName as string}`;
}

/**
 * An element's start tag. A customized built-in made by `createElement(name, { is })` has its `is`
 * value written as an attribute when it has none, as the standard's serialisation does.
 */
function startTag(element: DomNode, name: string, isValue: IsValue): string {
  let out = '<' + name;
  let named = false;
  for (const attribute of element.attributes ?? []) {
    out += ` ${attribute.name}="${escapeValue(attribute.value)}"`;
    named ||= attribute.name === 'is';
  }
  const is = named ? null : isValue(element);
  return out + (is ? ` is="${escapeValue(is)}">` : '>');
}

/** True for an element a parser reads as foreign content (SVG, MathML), or whose tag starts it (`svg`, `math`). */
const isForeign = (element: DomNode) => element.namespaceURI !== HTML || element.localName === 'svg' || element.localName === 'math';

/** What is left to write of a node: whether it is under foreign content, and the elements around it that end at their end tag's text. */
interface Place {
  foreign: boolean;
  closers: string;
}

/** Reads the `is` value an element was created with (the DOM keeps it apart from its attributes). */
export type IsValue = (element: DomNode) => string | null | undefined;

/**
 * The HTML of `root` (an element, with its tags), walked without recursion: a page may nest
 * elements deeply. `isValue` reads a customized built-in's `is` value. Default none.
 */
export function serializeNode(root: DomNode, isValue: IsValue = () => null): string {
  const out: string[] = [];
  // What is left to write, last first: a node (with its place), or an end tag's text.
  const todo: Array<DomNode | string> = [root];
  const places: Array<Place | null> = [{ foreign: false, closers: '' }];
  while (todo.length > 0) {
    const node = todo.pop() as DomNode | string;
    const place = places.pop() as Place;
    if (typeof node === 'string') {
      out.push(node);
      continue;
    }
    switch (node.nodeType) {
      case 1: {
        const name = tagName(node);
        out.push(startTag(node, name, isValue));
        const html = node.namespaceURI === HTML;
        if (html && VOID.has(node.localName as string)) break;
        const local = node.localName as string;
        const inside: Place = {
          foreign: place.foreign || isForeign(node),
          closers: html && TEXT_CONTENT.has(local) ? withCloser(place.closers, local) : place.closers,
        };
        todo.push(`</${name}>`);
        places.push(null);
        const holder = html && local === 'template' && node.content ? node.content : node;
        // Iterated, not indexed: happy-dom's NodeList is a proxy, and its previousSibling a search.
        const children = [...holder.childNodes];
        for (let i = children.length - 1; i >= 0; i--) {
          todo.push(children[i] as DomNode);
          places.push(inside);
        }
        break;
      }
      case 3:
      case 4: {
        const data = node.data ?? '';
        const parent = node.parentNode;
        const raw = !place.foreign && parent?.nodeType === 1 && parent.namespaceURI === HTML && RAW.has(parent.localName as string);
        const text = raw ? closeNone(data, place.closers) : escapeText(data);
        out.push(raw && parent.localName === 'script' ? scriptText(text, parent) : text);
        break;
      }
      case 7:
        out.push(`<?${node.target ?? ''} ${(node.data ?? '').replace(/[<>]/g, (c) => ENTITIES[c] as string)}>`);
        break;
      case 8:
        out.push(`<!--${closeNone(commentData(node.data ?? ''), place.closers)}-->`);
        break;
    }
  }
  return out.join('');
}
