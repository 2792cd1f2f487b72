// The app's shell (its index.html) is parsed once, with parse5 and source locations, into a
// template: static text with three slots (title text, head additions, outlet content). A snapshot
// is then string assembly, never a DOM parse. The same pass gives the page served to browsers at
// clean URLs: the shell with `<meta name="fragment" content="!">` in its head, exactly once
// (docs/scheme.md, "Pages without a fragment: the meta tag").

import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { headKey, isCanonicalLink, isFragmentMeta, type HeadTag } from '../../head.js';
import { SnapshotError } from '../errors.js';
import { RENDERED_ATTRIBUTE, SHELL_TITLE_ATTRIBUTE } from '../../hydration.js';
import { headHtml } from './head.js';
import { escapeHtml } from './escape.js';
import { applyEdits, hrefEdit, walkElements, type Edit, type LinkContext } from './links.js';
import { compileSelector } from './selector.js';

type Element = DefaultTreeAdapterMap['element'];
type Slot = 'title' | 'head' | 'outlet' | 'mark';

/** What a snapshot puts into the shell; an omitted part leaves the shell's own text. */
export interface ShellParts {
  /** The document title, as text (escaped here). Default: the shell's title. */
  title?: string | undefined;
  /** Markup added at the end of the head. Default none. */
  head?: string;
  /** The state's head tags, written at the end of the head; a shell head tag with the same key is left out. Default none. */
  tags?: readonly HeadTag[];
  /** The state's location, marked on each of `tags` as `data-router-head`, for the client router. Default: no mark. */
  location?: string | undefined;
  /** The outlet's inner HTML. Default: the shell's outlet content. */
  outlet?: string | undefined;
  /** The location written on the outlet as `data-router-rendered`, for the client to keep its content. Default none. */
  mark?: string | undefined;
}

/** A parsed shell. */
export interface ShellTemplate {
  /** The shell for browsers: the meta fragment tag in its head, once, and ugly links made pretty. */
  readonly page: string;
  /** The shell's own title as text, as `document.title` reads it in a browser ('' when it has none). */
  readonly title: string;
  /** The shell with a state's title, head additions and outlet content; existing canonical links and meta fragment tags removed. */
  snapshot(parts: ShellParts): string;
}

/** The minimal shell used when none is given: an empty `#app` outlet. */
export const DEFAULT_SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title></title></head>\n<body><div id="app"></div></body></html>\n';

const META_FRAGMENT = '<meta name="fragment" content="!">';
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

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function isInside(element: Element, ancestor: Element): boolean {
  for (let node: DefaultTreeAdapterMap['parentNode'] | null = element.parentNode; node; node = (node as Element).parentNode ?? null) {
    if (node === ancestor) return true;
  }
  return false;
}

/**
 * A slot in the template; `titleElement` is a whole `<title>` for shells that have none; `titleMark`
 * the shell's title said on its `<title>` when a state's replaces it; `keyed` a shell head tag a
 * state's tag may replace; `text` the shell's own text for the slot (for `titleMark`, its title).
 */
interface SlotRef {
  slot: Slot | 'titleElement' | 'titleMark' | 'keyed';
  key?: string;
  text?: string;
}

type Piece = string | SlotRef;

interface TemplateEdit {
  start: number;
  end: number;
  text: string | SlotRef;
}

/** Cuts `text` at non-overlapping edits into literal pieces and slots. */
function cut(text: string, edits: readonly TemplateEdit[]): Piece[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const pieces: Piece[] = [];
  let at = 0;
  for (const edit of sorted) {
    pieces.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  pieces.push(text.slice(at));
  return pieces.filter((piece) => piece !== '');
}

interface Range {
  start: number;
  end: number;
}

/** What one walk of the parsed shell finds: the elements a template is cut around, and its link edits. */
interface Scan {
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
}

function scan(document: DefaultTreeAdapterMap['document'], isOutlet: (element: Element) => boolean, links: LinkContext): Scan {
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
  });
  return found;
}

/** The range of the outlet's content; throws BAD_SHELL unless the outlet is a markup element inside `<body>` with both tags. */
function outletContent(found: Scan, selector: string): Range {
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
function headInsertPoint(found: Scan): number {
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

const range = (element: Element): Range => ({
  start: element.sourceCodeLocation?.startOffset ?? 0,
  end: element.sourceCodeLocation?.endOffset ?? 0,
});
const within = (edit: Range, r: Range) => edit.start >= r.start && edit.end <= r.end;
/** Link edits inside `r`, moved to offsets from its start. */
const editsWithin = (links: readonly Edit[], r: Range) =>
  links.filter((e) => within(e, r)).map((e) => ({ ...e, start: e.start - r.start, end: e.end - r.start }));

/**
 * The browser page: the link edits, and the meta fragment tag once, in the head (the scheme's third
 * restriction): the shell's first one there is kept, any other removed.
 */
function browserPage(text: string, found: Scan, metas: readonly Element[], headPoint: number): string {
  const head = found.head;
  const kept = head ? metas.find((meta) => isInside(meta, head)) : undefined;
  const edits: Edit[] = [...found.links];
  if (!kept) edits.push({ start: headPoint, end: headPoint, text: META_FRAGMENT });
  for (const meta of metas) if (meta !== kept) edits.push({ ...range(meta), text: '' });
  return applyEdits(text, edits);
}

/**
 * The snapshot template's edits: no meta fragment tag (a snapshot is already the escaped form), no
 * canonical link but ours, and the slots. A head tag with a key is a slot of its own (its links
 * already rewritten), left out of a snapshot whose state sets a tag with that key (src/head.ts).
 */
function templateEdits(
  text: string,
  found: Scan,
  metas: readonly Element[],
  inner: Range,
  headPoint: number,
  shellTitle: string,
): TemplateEdit[] {
  const head = found.head;
  const outside = (edit: Range) => edit.end <= inner.start || edit.start >= inner.end;
  const slots = found.keyed
    .filter(([element]) => element.sourceCodeLocation && head && isInside(element, head))
    .map(([element, key]) => ({ ...range(element), key }));
  const edits: TemplateEdit[] = found.links.filter((e) => outside(e) && !slots.some((r) => within(e, r)));
  for (const r of slots)
    edits.push({ ...r, text: { slot: 'keyed', key: r.key, text: applyEdits(text.slice(r.start, r.end), editsWithin(found.links, r)) } });
  const canonicals = found.canonicals.filter((e) => e.sourceCodeLocation);
  for (const element of [...metas, ...canonicals]) if (outside(range(element))) edits.push({ ...range(element), text: '' });
  const title = found.title?.sourceCodeLocation;
  if (title?.startTag && title.endTag && outside({ start: title.startOffset, end: title.endOffset })) {
    const own = text.slice(title.startTag.endOffset, title.endTag.startOffset);
    // Just before the `>` of its start tag, as the outlet's mark.
    const mark = title.startTag.endOffset - 1;
    edits.push({ start: mark, end: mark, text: { slot: 'titleMark', text: shellTitle } });
    edits.push({ start: title.startTag.endOffset, end: title.endTag.startOffset, text: { slot: 'title', text: own } });
  } else {
    edits.push({ start: headPoint, end: headPoint, text: { slot: 'titleElement' } });
  }
  edits.push({ start: headPoint, end: headPoint, text: { slot: 'head' } });
  const outlet = applyEdits(text.slice(inner.start, inner.end), editsWithin(found.links, inner));
  edits.push({ ...inner, text: { slot: 'outlet', text: outlet } });
  // Just before the `>` of the outlet's start tag: an attribute there is the outlet's own.
  edits.push({ start: inner.start - 1, end: inner.start - 1, text: { slot: 'mark' } });
  return edits;
}

/** The text of a `<title>` (the first of a document), its whitespace collapsed as `document.title` gives it. Internal. */
export function titleText(title: Element | null | undefined): string {
  return (title?.childNodes ?? [])
    .map((node) => ('value' in node ? node.value : ''))
    .join('')
    .replace(/[\t\n\f\r ]+/g, ' ')
    .trim();
}

/** The attribute that tells the client the shell's title on a page whose title is a state's. */
const shellTitleMark = (title: string): string => ` ${SHELL_TITLE_ATTRIBUTE}="${escapeHtml(title)}"`;

/** Writes a state into the template's pieces. */
function fill(pieces: readonly Piece[], parts: ShellParts): string {
  const tags = parts.tags ?? [];
  const keys = new Set(tags.map((t) => t.key));
  let out = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') out += piece;
    else if (piece.slot === 'keyed') out += keys.has(piece.key as string) ? '' : piece.text;
    else if (piece.slot === 'title') out += parts.title === undefined ? piece.text : escapeHtml(parts.title);
    else if (piece.slot === 'titleMark') out += parts.title === undefined ? '' : shellTitleMark(piece.text as string);
    else if (piece.slot === 'titleElement')
      out += parts.title === undefined ? '' : `<title${shellTitleMark('')}>${escapeHtml(parts.title)}</title>`;
    else if (piece.slot === 'head') out += (parts.head ?? '') + headHtml(tags, parts.location);
    else if (piece.slot === 'mark') out += parts.mark === undefined ? '' : ` ${RENDERED_ATTRIBUTE}="${escapeHtml(parts.mark)}"`;
    else out += parts.outlet ?? piece.text;
  }
  return out;
}

/**
 * Parses a shell once. `outlet` is a compound selector for the element whose content a snapshot
 * replaces; it must be a normal element inside `<body>` with an end tag. Throws `SnapshotError`
 * BAD_SHELL when the shell has no such element.
 */
export function parseShell(html: string, options: { outlet: string; links: LinkContext }): ShellTemplate {
  if (typeof html !== 'string') throw new SnapshotError('BAD_OPTION', `shell must be a string of HTML, got ${typeof html}`);
  const isOutlet = compileSelector(options.outlet);
  const found = scan(parse(html, { sourceCodeLocationInfo: true }), isOutlet, options.links);
  const inner = outletContent(found, options.outlet);
  const headPoint = headInsertPoint(found);
  const metas = found.metas.filter((e) => e.sourceCodeLocation);
  const title = titleText(found.title);
  const pieces = cut(html, templateEdits(html, found, metas, inner, headPoint, title));
  return { page: browserPage(html, found, metas, headPoint), title, snapshot: (parts) => fill(pieces, parts) };
}
