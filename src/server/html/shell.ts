// The app's shell (its index.html) is parsed once, with parse5 and source locations, into a
// template: static text with slots for a state's title, head additions and outlet content
// (template.ts), cut where one walk of the shell finds them (shell-scan.ts). A snapshot is then
// string assembly, never a DOM parse. The same pass gives the page served to browsers at clean
// URLs: the shell with `<meta name="fragment" content="!">` in its head, exactly once
// (docs/scheme.md, "Pages without a fragment: the meta tag").

import { parse } from 'parse5';
import { SnapshotError } from '../errors.js';
import { applyEdits, isUrlMeta, type Edit, type LinkContext } from './links.js';
import { compileSelector } from './selector.js';
import { headInsertPoint, isInside, outletContent, scan, titleText, type Element, type Range, type Scan } from './shell-scan.js';
import { cut, fill, type ShellParts, type SlotRef, type TemplateEdit } from './template.js';

/** A parsed shell. */
export interface ShellTemplate {
  /** The shell for browsers: the meta fragment tag in its head, once, and ugly links made pretty (`#!` links kept). */
  readonly page: string;
  /** The shell's own title as text, as `document.title` reads it in a browser ('' when it has none). */
  readonly title: string;
  /** The shell's language (`<html lang>`), for the pages the library writes itself; `'en'` when it names none. */
  readonly lang: string;
  /** The shell with a state's title, head additions and outlet content; existing canonical links and meta fragment tags removed. */
  snapshot(parts: ShellParts): string;
}

/** The minimal shell used when none is given: an empty `#app` outlet. */
export const DEFAULT_SHELL =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title></title></head>\n<body><div id="app"></div></body></html>\n';

const META_FRAGMENT = '<meta name="fragment" content="!">';

const range = (element: Element): Range => ({
  start: element.sourceCodeLocation?.startOffset ?? 0,
  end: element.sourceCodeLocation?.endOffset ?? 0,
});
const within = (edit: Range, r: Range) => edit.start >= r.start && edit.end <= r.end;
/** Link edits inside `r`, moved to offsets from its start. */
const editsWithin = (links: readonly Edit[], r: Range) =>
  links.filter((e) => within(e, r)).map((e) => ({ ...e, start: e.start - r.start, end: e.end - r.start }));

/**
 * A shell meta's URL crawlers read (`og:image`, `twitter:image`: links.ts), as a keyed slot's
 * `url`: a snapshot writes it absolute for its state, as it writes a hook's; a preview bot reads
 * them only absolute, and a site-wide one is most often written once, in the shell, relative.
 */
function urlOf(element: Element, key: string, r: Range): SlotRef['url'] {
  const where = element.sourceCodeLocation?.attrs?.['content'];
  const value = element.attrs.find((a) => a.name === 'content')?.value;
  if (!isUrlMeta(key) || !where || value === undefined) return undefined;
  return { start: where.startOffset - r.start, end: where.endOffset - r.start, name: 'content', value };
}

/**
 * The browser page: the link edits, and the meta fragment tag once, in the head (the scheme's third
 * restriction): the shell's first one there is kept, any other removed.
 */
function browserPage(text: string, found: Scan, metas: readonly Element[], headPoint: number): string {
  const head = found.head;
  const kept = head ? metas.find((meta) => isInside(meta, head)) : undefined;
  // Ugly links alone: a `#!` link is the app's own, which its router follows in the same document
  // (a hashbang app's, with `links: false` too); snapshots write it clean for crawlers.
  const edits: Edit[] = [...found.uglyLinks];
  if (!kept) edits.push({ start: headPoint, end: headPoint, text: META_FRAGMENT });
  for (const meta of metas) if (meta !== kept) edits.push({ ...range(meta), text: '' });
  return applyEdits(text, edits);
}

/**
 * The snapshot template's edits: no meta fragment tag (a snapshot is already the escaped form), no
 * canonical link but ours, and the slots. A head tag with a key is a slot of its own (its links
 * already rewritten), left out of a snapshot whose state sets a tag with that key (src/contract/head.ts).
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
    .map(([element, key]) => ({ ...range(element), key, element }));
  const edits: TemplateEdit[] = found.links.filter((e) => outside(e) && !slots.some((r) => within(e, r)));
  for (const { element, ...r } of slots) {
    const slot: SlotRef = { slot: 'keyed', key: r.key, text: applyEdits(text.slice(r.start, r.end), editsWithin(found.links, r)) };
    // A meta's text has no link edits (those are `href`s), so its attribute's offsets hold.
    const url = urlOf(element, r.key, r);
    if (url) slot.url = url;
    edits.push({ ...r, text: slot });
  }
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
  const lang = found.html?.attrs.find((a) => a.name === 'lang')?.value.trim() || 'en';
  return { page: browserPage(html, found, metas, headPoint), title, lang, snapshot: (parts) => fill(pieces, parts) };
}
