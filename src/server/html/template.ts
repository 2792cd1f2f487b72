// A shell template: the shell's text cut into literal pieces and slots (title text, head additions,
// outlet content, head tags a state's may replace, and the marks on `<title>` and the outlet), and
// a state's parts written into them. A snapshot is string assembly, never a DOM parse.

import type { HeadTag } from '../../contract/head.js';
import { RENDERED_ATTRIBUTE, SHELL_TITLE_ATTRIBUTE } from '../../contract/hydration.js';
import { headHtml } from './head.js';
import { escapeHtml } from './escape.js';

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
  /** How a shell head tag's URL crawlers read (`og:image`'s `content`) is written for this state. Default: as the shell has it. */
  url?: ((url: string) => string) | undefined;
}

/**
 * A slot in the template; `titleElement` is a whole `<title>` for shells that have none; `titleMark`
 * the shell's title said on its `<title>` when a state's replaces it; `keyed` a shell head tag a
 * state's tag may replace; `text` the shell's own text for the slot (for `titleMark`, its title).
 */
export interface SlotRef {
  slot: Slot | 'titleElement' | 'titleMark' | 'keyed';
  key?: string;
  text?: string;
  /** A keyed tag's URL attribute that `ShellParts.url` writes: its range in `text`, its name and value. */
  url?: { start: number; end: number; name: string; value: string };
}

/** A piece of a template: literal text, or a slot. */
export type Piece = string | SlotRef;

/** An edit of the shell's text that makes a template: `text` (literal, or a slot) replaces `[start, end)`. */
export interface TemplateEdit {
  start: number;
  end: number;
  text: string | SlotRef;
}

/** Cuts `text` at non-overlapping edits into literal pieces and slots. */
export function cut(text: string, edits: readonly TemplateEdit[]): Piece[] {
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

/** The attribute that tells the client the shell's title on a page whose title is a state's. */
const shellTitleMark = (title: string): string => ` ${SHELL_TITLE_ATTRIBUTE}="${escapeHtml(title)}"`;

/** A shell head tag a state's did not replace, its URL written for the state when it has one. */
function keyedText(piece: SlotRef, write: ShellParts['url']): string {
  const text = piece.text as string;
  const { url } = piece;
  const value = url && write ? write(url.value) : undefined;
  if (!url || value === undefined || value === url.value) return text;
  return `${text.slice(0, url.start)}${url.name}="${escapeHtml(value)}"${text.slice(url.end)}`;
}

/** Writes a state into the template's pieces. */
export function fill(pieces: readonly Piece[], parts: ShellParts): string {
  const tags = parts.tags ?? [];
  const keys = new Set(tags.map((t) => t.key));
  let out = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') out += piece;
    else if (piece.slot === 'keyed') out += keys.has(piece.key as string) ? '' : keyedText(piece, parts.url);
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
