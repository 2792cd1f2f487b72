// One walk of a parsed shell (parse5, with source locations): the elements a template is cut
// around and the shell's link edits, then the places it is cut at: the outlet's content (checked:
// a markup element inside `<body>` with both tags) and where head additions go. shell.ts makes
// the template of what this finds.

import type { DefaultTreeAdapterMap } from 'parse5';
import { headKey, isCanonicalLink, isFragmentMeta } from '../../contract/head.js';
import { SnapshotError } from '../errors.js';
import { hasEscapedFragment } from '../../url/codec.js';
import { hrefEdit, walkElements, type Edit, type LinkContext } from './links.js';
import { attr } from './selector.js';

/** An element of the parsed shell. */
export type Element = DefaultTreeAdapterMap['element'];

// Elements whose content is not markup (or is inert): the outlet cannot be one of them.
const NOT_OUTLETS = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'template',
]);

/** True when `ancestor` holds `element`. */
export function isInside(element: Element, ancestor: Element): boolean {
  for (let node: DefaultTreeAdapterMap['parentNode'] | null = element.parentNode; node; node = (node as Element).parentNode ?? null) {
    if (node === ancestor) return true;
  }
  return false;
}

/** A span of the shell's text: `[start, end)`. */
export interface Range {
  start: number;
  end: number;
}

/** What one walk of the parsed shell finds: the elements a template is cut around, and its link edits. */
export interface Scan {
  html: Element | null;
  head: Element | null;
  body: Element | null;
  title: Element | null;
  outlet: Element | null;
  doctypeEnd: number;
  metas: Element[];
  canonicals: Element[];
  keyed: [Element, string][];
  links: Edit[];
  /** The edits of ugly links alone: the page browsers get keeps the app's own `#!` links, which its router follows. */
  uglyLinks: Edit[];
}

/** Walks the parsed shell once: the elements a template is cut around, the first outlet, and every link edit. */
export function scan(document: DefaultTreeAdapterMap['document'], isOutlet: (element: Element) => boolean, links: LinkContext): Scan {
  const found: Scan = {
    html: null,
    head: null,
    body: null,
    title: null,
    outlet: null,
    doctypeEnd: 0,
    metas: [],
    canonicals: [],
    keyed: [],
    links: [],
    uglyLinks: [],
  };
  for (const node of document.childNodes) if (node.nodeName === '#documentType') found.doctypeEnd = node.sourceCodeLocation?.endOffset ?? 0;
  walkElements(document, (element) => {
    const tag = element.tagName;
    const read = (name: string) => attr(element, name);
    if (tag === 'html' || tag === 'head' || tag === 'body' || tag === 'title') found[tag] ??= element;
    else if (isFragmentMeta(tag, read)) found.metas.push(element);
    else if (isCanonicalLink(tag, read)) found.canonicals.push(element);
    else {
      const key = headKey(tag, read);
      if (key) found.keyed.push([element, key]);
    }
    if (!found.outlet && isOutlet(element)) found.outlet = element;
    const edit = hrefEdit(element, links);
    if (edit) found.links.push(edit);
    if (edit && hasEscapedFragment(read('href') ?? '')) found.uglyLinks.push(edit);
  });
  return found;
}

/** The range of the outlet's content; throws BAD_SHELL unless the outlet is a markup element inside `<body>` with both tags. */
export function outletContent(found: Scan, selector: string): Range {
  const where = `in the shell for outlet ${JSON.stringify(selector)}`;
  const { outlet, body } = found;
  if (!outlet)
    throw new SnapshotError(
      'BAD_SHELL',
      `no element matches the outlet selector ${JSON.stringify(selector)} in the shell (the outlet option names the element snapshots are rendered into)`,
    );
  if (!body || !isInside(outlet, body))
    throw new SnapshotError('BAD_SHELL', `the outlet <${outlet.tagName}> must be inside <body> ${where}`);
  if (NOT_OUTLETS.has(outlet.tagName))
    throw new SnapshotError('BAD_SHELL', `<${outlet.tagName}> cannot be an outlet: its content is not markup (${where})`);
  const location = outlet.sourceCodeLocation;
  if (!location?.startTag || !location.endTag)
    throw new SnapshotError(
      'BAD_SHELL',
      `the outlet <${outlet.tagName}> has no end tag ${where}: a snapshot needs both ends of its content`,
    );
  return { start: location.startTag.endOffset, end: location.endTag.startOffset };
}

/**
 * Where head additions go: before `</head>`, else after the head's last located child or its start
 * tag, else after `<html>` or the doctype; the parser puts what is inserted there into the head.
 */
export function headInsertPoint(found: Scan): number {
  const location = found.head?.sourceCodeLocation;
  const lastChild = found.head?.childNodes
    .map((n) => n.sourceCodeLocation)
    .filter((l) => l)
    .pop();
  return (
    location?.endTag?.startOffset ??
    lastChild?.endOffset ??
    location?.startTag?.endOffset ??
    found.html?.sourceCodeLocation?.startTag?.endOffset ??
    found.doctypeEnd
  );
}

/** The text of a `<title>` (the first of a document), its whitespace collapsed as `document.title` gives it. Internal. */
export function titleText(title: Element | null | undefined): string {
  return (title?.childNodes ?? [])
    .map((node) => ('value' in node ? node.value : ''))
    .join('')
    .replace(/[\t\n\f\r ]+/g, ' ')
    .trim();
}
