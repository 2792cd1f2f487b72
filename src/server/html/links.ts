// Crawlers never follow a link that contains `_escaped_fragment_` (docs/scheme.md), so every
// `href` in a snapshot that names an ugly URL is rewritten to the pretty (or, in history mode, clean)
// URL of the same state. So is a `#!` link relative to its page (`href="#!/books/2"`): a crawler reads
// it against the ugly URL it fetched, where it names no state (`/?_escaped_fragment_=/a#!/books/2`).
// In history mode so is every `#!` link of the app (`/#!/books/2`), which a bot that runs no
// JavaScript would read as `/`.
// Links are found by parse5, never by a regex over markup.

import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { hasEscapedFragment, PARAM, toPrettyUrl } from '../../url/codec.js';
import { isLinkRel, type HeadTag } from '../../contract/head.js';
import { toLocation, toUrl } from '../../url/location.js';
import { escapeHtml } from './escape.js';
import type { UrlSettings } from '../urls.js';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

/** Where relative links resolve and where the app's states live. */
export interface LinkContext extends UrlSettings {
  /** The absolute URL that relative links in the page resolve against. */
  page: string;
}

/** An edit of source text: `text` replaces `[start, end)`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

// What a browser reads as `//host` when an href starts with it: two slashes, either way round.
const NETWORK_PATH = /^[\\/]{2}/;

/** A scheme-relative URL (`//other.example/…`) written with the scheme it was read with. */
function withScheme(href: string, url: URL): string {
  return NETWORK_PATH.test(href) ? url.protocol + href : href;
}
const LINK_ELEMENTS = new Set(['a', 'area', 'link']);
/** The elements whose `href` is rewritten, as a CSS selector: a headless page's DOM is searched with it. */
export const LINK_SELECTOR = [...LINK_ELEMENTS].map((tag) => `${tag}[href]`).join(', ');

/** True when the text may hold an ugly or a relative `#!` link: the cheap test that spares most snapshots a parse. */
function mayHoldLinksToRewrite(text: string): boolean {
  return text.includes(PARAM) || text.includes('#!');
}

/**
 * The pretty (hashbang) or clean (history) form of an ugly `href`, or of a `#!` link relative to its
 * page, or null when `href` is neither or does not decode. Links into the app become the state's
 * URL; another site's ugly URL gets the scheme's own mapping with every other byte kept. Relative
 * links stay origin-relative.
 */
export function prettyHref(href: string, context: LinkContext): string | null {
  // HTML strips ASCII whitespace around a URL. Each run is matched once, whole, and dropped where it
  // starts or ends the href: linear, where `[…]+$` would retry at every character of a run (quadratic).
  const value = href.replace(/[\t\n\f\r ]+/g, (run, at: number) => (at === 0 || at + run.length === href.length ? '' : run));
  if (value.startsWith('#!')) {
    // The state after `#!`, written from the base: the same link whatever URL the page was read at.
    const location = toLocation(value, { base: context.base });
    return location === null ? null : toUrl(location, { base: context.base, mode: context.mode });
  }
  const ugly = hasEscapedFragment(value);
  // In history mode the app's own `#!` links (old ones a site keeps in its content) are written as
  // their clean URL too: a bot that runs no JavaScript drops the fragment and reads `/#!/a` as `/`.
  if (!ugly && (context.mode !== 'history' || !value.includes('#!'))) return null;
  const absolute = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|\/\/)/.test(value);
  let url: URL;
  try {
    url = new URL(value, context.page);
  } catch {
    return null;
  }
  if (!ugly) return url.origin === context.origin ? cleanHref(url, absolute, context) : null;
  try {
    if (url.origin !== context.origin) return absolute ? withScheme(toPrettyUrl(value), url) : null;
    const target = url.pathname + url.search;
    // A path that starts `//` (`/.//evil.example/x`, `/%2e%2e//…` and `/app/..//…` all resolve to
    // one) reads as a host wherever it is written origin-relative; read and written on the origin
    // it stays a path.
    const hostLike = NETWORK_PATH.test(target);
    const location = hostLike ? null : toLocation(target, { base: context.base });
    const prefix = absolute || hostLike ? context.origin : '';
    if (location === null) return prefix + toPrettyUrl(target);
    return prefix + toUrl(location, { base: context.base, mode: context.mode });
  } catch {
    // A link whose fragment does not decode names no state; it is left as it is.
    return null;
  }
}

/** The clean URL of a `#!` URL of the app's origin (written absolute when it was), or null outside `base`. */
function cleanHref(url: URL, absolute: boolean, context: LinkContext): string | null {
  const target = url.pathname + url.search + url.hash;
  try {
    const location = NETWORK_PATH.test(target) ? null : toLocation(target, { base: context.base });
    if (location === null) return null;
    return (absolute ? context.origin : '') + toUrl(location, { base: context.base, mode: 'history' });
  } catch {
    // A state that does not decode is left as it is, as an ugly one is.
    return null;
  }
}

function children(node: ParentNode): DefaultTreeAdapterMap['childNode'][] {
  // A <template>'s children live in its content fragment.
  const content = (node as Element).nodeName === 'template' ? (node as DefaultTreeAdapterMap['template']).content : null;
  return content ? content.childNodes : node.childNodes;
}

/** Calls `visit` on every element under `root`, in document order, template contents included. */
export function walkElements(root: ParentNode, visit: (element: Element) => void): void {
  const stack: DefaultTreeAdapterMap['childNode'][] = [...children(root)].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as DefaultTreeAdapterMap['childNode'];
    if (!('tagName' in node)) continue;
    visit(node);
    const list = children(node);
    for (let i = list.length - 1; i >= 0; i--) stack.push(list[i] as DefaultTreeAdapterMap['childNode']);
  }
}

/** The edit that rewrites an element's ugly `href`, or null. Needs parse5 source locations. */
export function hrefEdit(element: Element, context: LinkContext): Edit | null {
  if (!LINK_ELEMENTS.has(element.tagName)) return null;
  const href = element.attrs.find((a) => a.name === 'href');
  const where = element.sourceCodeLocation?.attrs?.['href'];
  if (!href || !where) return null;
  const pretty = prettyHref(href.value, context);
  return pretty === null ? null : { start: where.startOffset, end: where.endOffset, text: `href="${escapeHtml(pretty)}"` };
}

/** Applies non-overlapping edits, sorted or not, to `text`. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

// The head tags whose URL is one a crawler reads, by key (headKey): every link's `href`, and the
// `content` of the metas that only crawlers and link-preview bots read (no browser fetches them):
// Open Graph's page and media (with their `:url` and `:secure_url` aliases) and Twitter's image
// (and its older name `twitter:image:src`) and player card, each with `property` or (as some sites
// write it) `name`. Preview bots use them only absolute.
const HEAD_URLS: Record<string, string> = { link: 'href' };
for (const name of [
  ...['og:url', 'og:image', 'og:video', 'og:audio'],
  ...['og:image:url', 'og:image:secure_url', 'og:video:url', 'og:video:secure_url', 'og:audio:url', 'og:audio:secure_url'],
  ...['twitter:image', 'twitter:image:src', 'twitter:player', 'twitter:player:stream'],
])
  HEAD_URLS[`meta property ${name}`] = HEAD_URLS[`meta name ${name}`] = 'content';

/** True for the key (headKey) of a meta whose `content` is a URL crawlers read, written absolute. */
export const isUrlMeta = (key: string | null): boolean => key !== null && key !== 'link' && Object.hasOwn(HEAD_URLS, key);

/**
 * True for a link `rel` that names a page for crawlers (a canonical or alternate link), whose `href`
 * is written absolute; not an alternate style sheet or icon, which a browser fetches (a staging host
 * never fetches from the configured origin).
 */
export function namesPage(rel: string | null | undefined): boolean {
  const has = (token: string) => isLinkRel('link', () => rel, token);
  return (has('canonical') || has('alternate')) && !has('stylesheet') && !has('icon');
}

/**
 * A head URL crawlers read (a canonical or alternate link's, `og:url`, `og:image`) made absolute
 * against the state's URL, as a browser resolves it: Google reads an hreflang alternate only fully
 * qualified, and preview bots read Open Graph's URLs only absolute. An absolute URL, or text that is
 * no URL, stays as it is.
 */
export function absoluteHeadUrl(url: string, context: LinkContext): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return url;
  try {
    const page = new URL(context.page);
    // A root- or scheme-relative URL (the common case) gets the page's origin or scheme in front,
    // its text kept as the hook wrote it: the URL parser would spell it anew (a query's `'` as
    // `%27`), unlike the state's canonical link, and would read `/\host` as another host.
    if (url.startsWith('//')) return page.protocol + url;
    if (url.startsWith('/')) return page.origin + url;
    return new URL(url, page).href;
  } catch {
    return url;
  }
}

/**
 * A state's head tag with its URL (a link's `href`, a URL meta's `content`) rewritten as an outlet
 * link is (`prettyHref`): a hook's `#!` canonical or hreflang alternate is told to crawlers clean
 * wherever the server answers clean URLs. A canonical or alternate link's and a URL meta's is then
 * made absolute (absoluteHeadUrl). Any other tag as it is.
 */
export function rewriteHeadTag(tag: HeadTag, context: LinkContext): HeadTag {
  const name = HEAD_URLS[tag.tag === 'link' ? 'link' : tag.key];
  const at = name === undefined ? -1 : tag.attrs.findIndex(([attr]) => attr === name);
  if (at < 0) return tag;
  const given = (tag.attrs[at] as [string, string])[1];
  const pretty = prettyHref(given, context) ?? given;
  const page = tag.tag !== 'link' || namesPage(tag.attrs.find(([attr]) => attr === 'rel')?.[1]);
  const url = page ? absoluteHeadUrl(pretty, context) : pretty;
  return url === given ? tag : { ...tag, attrs: tag.attrs.map((attr, i) => (i === at ? [attr[0], url] : attr)) };
}

/** Rewrites every ugly or relative `#!` link in an HTML fragment (a render hook's output) to its pretty or clean URL. */
export function rewriteLinks(html: string, context: LinkContext): string {
  if (!mayHoldLinksToRewrite(html)) return html;
  const fragment = parseFragment(html, { sourceCodeLocationInfo: true });
  const edits: Edit[] = [];
  walkElements(fragment, (element) => {
    const edit = hrefEdit(element, context);
    if (edit) edits.push(edit);
  });
  return applyEdits(html, edits);
}
