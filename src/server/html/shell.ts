// The app's shell (its index.html) is parsed once, with parse5 and source locations, into a
// template: static text with three slots (title text, head additions, outlet content). A snapshot
// is then string assembly, never a DOM parse. The same pass gives the page served to browsers at
// clean URLs: the shell with `<meta name="fragment" content="!">` in its head, exactly once
// (docs/scheme.md, "Pages without a fragment: the meta tag").

import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { headKey, isCanonicalLink, isFragmentMeta, type HeadTag } from '../../head.js';
import { SnapshotError } from '../errors.js';
import { RENDERED_ATTRIBUTE } from '../../hydration.js';
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
  /** The outlet's inner HTML. Default: the shell's outlet content. */
  outlet?: string | undefined;
  /** The location written on the outlet as `data-router-rendered`, for the client to keep its content. Default none. */
  mark?: string | undefined;
}

/** A parsed shell. */
export interface ShellTemplate {
  /** The shell for browsers: the meta fragment tag in its head, once, and ugly links made pretty. */
  readonly page: string;
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

/** A slot in the template; `titleElement` is a whole `<title>` for shells that have none; `keyed` a shell head tag a state's tag may replace. */
interface SlotRef {
  slot: Slot | 'titleElement' | 'keyed';
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

/**
 * Parses a shell once. `outlet` is a compound selector for the element whose content a snapshot
 * replaces; it must be a normal element inside `<body>` with an end tag. Throws `SnapshotError`
 * BAD_SHELL when the shell has no such element.
 */
export function parseShell(html: string, options: { outlet: string; links: LinkContext }): ShellTemplate {
  if (typeof html !== 'string') throw new SnapshotError('BAD_OPTION', `shell must be a string of HTML, got ${typeof html}`);
  const isOutlet = compileSelector(options.outlet);
  const document = parse(html, { sourceCodeLocationInfo: true });
  let htmlEl: Element | null = null;
  let head: Element | null = null;
  let body: Element | null = null;
  let title: Element | null = null;
  let outlet: Element | null = null;
  let doctypeEnd = 0;
  const metas: Element[] = [];
  const canonicals: Element[] = [];
  const keyed: [Element, string][] = [];
  const links: Edit[] = [];
  for (const node of document.childNodes) if (node.nodeName === '#documentType') doctypeEnd = node.sourceCodeLocation?.endOffset ?? 0;
  walkElements(document, (element) => {
    const tag = element.tagName;
    if (tag === 'html' && !htmlEl) htmlEl = element;
    else if (tag === 'head' && !head) head = element;
    else if (tag === 'body' && !body) body = element;
    else if (tag === 'title' && !title) title = element;
    else if (isFragmentMeta(tag, (name) => attr(element, name))) metas.push(element);
    else if (isCanonicalLink(tag, (name) => attr(element, name))) canonicals.push(element);
    else {
      const key = headKey(tag, (name) => attr(element, name));
      if (key) keyed.push([element, key]);
    }
    if (!outlet && isOutlet(element)) outlet = element;
    const edit = hrefEdit(element, options.links);
    if (edit) links.push(edit);
  });
  const where = `in the shell for outlet ${JSON.stringify(options.outlet)}`;
  const found = outlet as Element | null;
  if (!found) throw new SnapshotError('BAD_SHELL', `no element matches the outlet selector ${JSON.stringify(options.outlet)} in the shell`);
  const bodyEl = body as Element | null;
  if (!bodyEl || !isInside(found, bodyEl))
    throw new SnapshotError('BAD_SHELL', `the outlet <${found.tagName}> must be inside <body> ${where}`);
  if (NOT_OUTLETS.has(found.tagName))
    throw new SnapshotError('BAD_SHELL', `<${found.tagName}> cannot be an outlet: its content is not markup (${where})`);
  const outletLoc = found.sourceCodeLocation;
  if (!outletLoc?.startTag || !outletLoc.endTag) {
    throw new SnapshotError(
      'BAD_SHELL',
      `the outlet <${found.tagName}> has no end tag ${where}: a snapshot needs both ends of its content`,
    );
  }
  const inner = { start: outletLoc.startTag.endOffset, end: outletLoc.endTag.startOffset };

  // Where head additions go: before </head>, else after the head's last located child or start tag,
  // else after <html> or the doctype; the parser puts what is inserted there into the head.
  const headEl = head as Element | null;
  const headLoc = headEl?.sourceCodeLocation;
  const lastChild = headEl?.childNodes
    .map((n) => n.sourceCodeLocation)
    .filter((l) => l)
    .pop();
  const headPoint =
    headLoc?.endTag?.startOffset ??
    lastChild?.endOffset ??
    headLoc?.startTag?.endOffset ??
    (htmlEl as Element | null)?.sourceCodeLocation?.startTag?.endOffset ??
    doctypeEnd;

  const range = (element: Element) => ({
    start: element.sourceCodeLocation?.startOffset ?? 0,
    end: element.sourceCodeLocation?.endOffset ?? 0,
  });
  const outside = (edit: { start: number; end: number }) => edit.end <= inner.start || edit.start >= inner.end;
  const located = (list: Element[]) => list.filter((e) => e.sourceCodeLocation);

  // The browser page: static link edits, and the meta fragment tag once, in the head (the spec's
  // third restriction): the shell's first one there is kept, any other removed.
  const metaList = located(metas);
  const kept = headEl ? metaList.find((meta) => isInside(meta, headEl)) : undefined;
  const pageEdits: Edit[] = [...links];
  if (!kept) pageEdits.push({ start: headPoint, end: headPoint, text: META_FRAGMENT });
  for (const meta of metaList) if (meta !== kept) pageEdits.push({ ...range(meta), text: '' });
  const page = applyEdits(html, pageEdits);

  // The snapshot template: no meta fragment tag (the snapshot is already the escaped form), no
  // canonical link but ours, and the slots.
  // A head tag with a key is a slot of its own (its links already rewritten): left out of a
  // snapshot whose state sets a tag with that key (src/head.ts), kept otherwise.
  const slots = keyed
    .filter(([element]) => element.sourceCodeLocation && headEl && isInside(element, headEl))
    .map(([element, key]) => ({ ...range(element), key }));
  const within = (edit: Edit, r: { start: number; end: number }) => edit.start >= r.start && edit.end <= r.end;
  const edits: TemplateEdit[] = links.filter((e) => outside(e) && !slots.some((r) => within(e, r)));
  for (const r of slots) {
    const inner = links.filter((e) => within(e, r)).map((e) => ({ ...e, start: e.start - r.start, end: e.end - r.start }));
    edits.push({ start: r.start, end: r.end, text: { slot: 'keyed', key: r.key, text: applyEdits(html.slice(r.start, r.end), inner) } });
  }
  for (const element of [...metaList, ...located(canonicals)]) if (outside(range(element))) edits.push({ ...range(element), text: '' });
  const titleEl = title as Element | null;
  const titleLoc = titleEl?.sourceCodeLocation;
  let titleText = '';
  if (titleLoc?.startTag && titleLoc.endTag && outside({ start: titleLoc.startOffset, end: titleLoc.endOffset })) {
    titleText = html.slice(titleLoc.startTag.endOffset, titleLoc.endTag.startOffset);
    edits.push({ start: titleLoc.startTag.endOffset, end: titleLoc.endTag.startOffset, text: { slot: 'title' } });
  } else {
    edits.push({ start: headPoint, end: headPoint, text: { slot: 'titleElement' } });
  }
  edits.push({ start: headPoint, end: headPoint, text: { slot: 'head' } });
  edits.push({ start: inner.start, end: inner.end, text: { slot: 'outlet' } });
  // Just before the `>` of the outlet's start tag: an attribute there is the outlet's own.
  edits.push({ start: inner.start - 1, end: inner.start - 1, text: { slot: 'mark' } });
  const pieces = cut(html, edits);
  const innerLinks = links.filter((e) => !outside(e)).map((e) => ({ ...e, start: e.start - inner.start, end: e.end - inner.start }));
  const outletText = applyEdits(html.slice(inner.start, inner.end), innerLinks);

  return {
    page,
    snapshot(parts) {
      const tags = parts.tags ?? [];
      const keys = new Set(tags.map((t) => t.key));
      let out = '';
      for (const piece of pieces) {
        if (typeof piece === 'string') out += piece;
        else if (piece.slot === 'keyed') out += keys.has(piece.key as string) ? '' : piece.text;
        else if (piece.slot === 'title') out += parts.title === undefined ? titleText : escapeHtml(parts.title);
        else if (piece.slot === 'titleElement') out += parts.title === undefined ? '' : `<title>${escapeHtml(parts.title)}</title>`;
        else if (piece.slot === 'head') out += (parts.head ?? '') + headHtml(tags);
        else if (piece.slot === 'mark') out += parts.mark === undefined ? '' : ` ${RENDERED_ATTRIBUTE}="${escapeHtml(parts.mark)}"`;
        else out += parts.outlet ?? outletText;
      }
      return out;
    },
  };
}
