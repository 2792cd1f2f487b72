// What the scheme's crawler reads from a fetched page: its hyperlinks, hreflang alternates,
// canonical link, title, Open Graph tags and `<meta name="fragment">` tags, from a real HTML parse (parse5), never regexes over markup; a
// sitemap's `<loc>` entries from a real XML parse (saxes); robots.txt line by line.

import { isCanonicalLink, isFragmentMeta, isLinkRel } from '../contract/head.js';
import { parse } from 'parse5';
import { SaxesParser } from 'saxes';
import { leanTree, TooDeep, type Node } from './tree.js';

/** What a page says to a crawler. */
export interface PageFacts {
  /** Every `<a href>` and `<area href>`, as written. */
  links: string[];
  /** Every `<link rel="alternate" hreflang href>`, as written: another language's version, which crawlers follow too. */
  alternates: string[];
  /** The `href` of every `<link rel="canonical">`, as written. */
  canonicals: string[];
  /** The content of every `<meta property="og:url">`, as written: the page's canonical URL for link previews. */
  ogUrls: string[];
  /** True when the page has any Open Graph tag (`<meta property="og:…">`). */
  og: boolean;
  /** True when it names an image for link previews: an `og:image` (or `og:image:url`) that is not empty. */
  ogImage: boolean;
  /** The document title's text, its first TEXT_MAX characters. */
  title: string;
  /** The content of the first `<meta name="description">`, trimmed, its first TEXT_MAX characters; `''` when there is none. */
  description: string;
  /** Each `<meta name="fragment">`: its content and whether it sits in `<head>`. */
  fragmentMetas: { content: string; inHead: boolean }[];
  /** True when a `<meta name="robots">` says `noindex` (or `none`): the page asks to be no search result. */
  noindex: boolean;
}

/**
 * Characters kept of a title or a description (search results show about 60 and 160): a page
 * chooses their length, and the report of 500 pages with a 9 MiB title each held 9 GB.
 */
export const TEXT_MAX = 1000;

// A copy, not a slice: V8's slice of a string keeps the whole string alive.
const kept = (text: string) => (text.length > TEXT_MAX ? Buffer.from(text.slice(0, TEXT_MAX)).toString() + '…' : text);

const attr = (node: Node, name: string): string | undefined => node.attrs?.find((a) => a.name === name)?.value;

/**
 * The elements of `root` and their descendants in document order (a template's content after its
 * children), each with whether it sits in `<head>`. A loop, not calls within calls: a page chooses
 * its depth, and from about 10,000 nested elements (a 50 kB page) the calls ran out of stack.
 */
function* walk(root: Node, inHead = false): Generator<[node: Node, inHead: boolean]> {
  const todo: [Node, boolean][] = [[root, inHead]];
  while (todo.length > 0) {
    const [node, head] = todo.pop() as [Node, boolean];
    yield [node, head];
    const within = head || node.tagName === 'head';
    if (node.content) todo.push([node.content, head]);
    const children = node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) todo.push([children[i] as Node, within]);
  }
}

function text(node: Node): string {
  let out = '';
  for (const [each] of walk(node)) if (each.nodeName === '#text') out += each.value ?? '';
  return out;
}

/** True for a `<link rel="alternate" hreflang>`: another language's version, which crawlers follow. */
function isAlternate(tag: string | undefined, read: (name: string) => string | undefined): boolean {
  return read('hreflang') !== undefined && isLinkRel(tag, read, 'alternate');
}

/**
 * The Open Graph property of a `<meta>` (`og:image`), lower case, or null: read from `property`, or
 * from `name` as some pages write it and the previewers read it too.
 */
function ogProperty(tag: string | undefined, read: (name: string) => string | undefined): string | null {
  if (tag !== 'meta') return null;
  const property = (read('property') ?? read('name') ?? '').trim().toLowerCase();
  return property.startsWith('og:') ? property : null;
}

/**
 * True when robots directives (a robots meta's content, an `X-Robots-Tag` value, whose directives
 * may name a crawler first: `googlebot: noindex`) hold `noindex` or `none`.
 */
export function saysNoindex(directives: string): boolean {
  return directives.split(/[,:]/).some((d) => /^(?:noindex|none)$/i.test(d.trim()));
}

/** Reads the crawler-relevant facts of an HTML document, parsed into the kept tree (tree.ts); throws TooDeep for one nested past MAX_DEPTH. */
export function readPage(html: string): PageFacts {
  let document: Node;
  try {
    document = parse(html, { treeAdapter: leanTree });
  } catch (error) {
    // An error thrown within the parse holds, in its stack's frames, the parser and all it built
    // (75 MB at MAX_DEPTH) for as long as it is kept: a new one holds nothing of it.
    if (error instanceof TooDeep) throw new TooDeep();
    throw error;
  }
  return readTree(document);
}

/** Reads the crawler-relevant facts of a parsed document: the kept tree, or parse5's own (a test compares them). */
export function readTree(document: Node): PageFacts {
  const facts: PageFacts = {
    links: [],
    alternates: [],
    canonicals: [],
    ogUrls: [],
    og: false,
    ogImage: false,
    title: '',
    description: '',
    fragmentMetas: [],
    noindex: false,
  };
  for (const [node, inHead] of walk(document)) {
    const tag = node.tagName;
    const read = (name: string) => attr(node, name);
    if ((tag === 'a' || tag === 'area') && read('href') !== undefined) facts.links.push(read('href') as string);
    if (node.nodeName === '#link') facts.links.push(node.value as string);
    if (isAlternate(tag, read) && read('href') !== undefined) facts.alternates.push(read('href') as string);
    if (isCanonicalLink(tag, read)) facts.canonicals.push(attr(node, 'href') ?? '');
    const og = ogProperty(tag, read);
    if (og !== null) {
      const content = read('content') ?? '';
      facts.og = true;
      if (og === 'og:url') facts.ogUrls.push(content);
      if ((og === 'og:image' || og === 'og:image:url') && content.trim()) facts.ogImage = true;
    }
    if (tag === 'title' && !facts.title) facts.title = kept(text(node).trim());
    if (isFragmentMeta(tag, read)) facts.fragmentMetas.push({ content: attr(node, 'content') ?? '', inHead });
    if (tag === 'meta' && (attr(node, 'name') ?? '').trim().toLowerCase() === 'robots' && saysNoindex(attr(node, 'content') ?? ''))
      facts.noindex = true;
    if (tag === 'meta' && (attr(node, 'name') ?? '').trim().toLowerCase() === 'description' && !facts.description)
      facts.description = kept((attr(node, 'content') ?? '').trim());
  }
  return facts;
}

/** What a sitemap holds: its `<loc>` entries, and the first XML fault if it is not well-formed. */
export interface SitemapFacts {
  /** Every `<loc>` text (entities decoded, trimmed), at most `maxLocs`. */
  locs: string[];
  /** The first well-formedness fault, or null; the entries before it are kept. */
  error: string | null;
  /** True for a sitemap index (root `<sitemapindex>`): its entries name sitemaps, not pages. */
  index: boolean;
}

/** A sitemap read as it streams in: its text part by part, then its facts. */
export interface SitemapReader {
  /** Reads the next part of the sitemap's text. */
  write(text: string): void;
  /** Ends the text and gives what it held. */
  close(): SitemapFacts;
}

/**
 * Reads the `<loc>` entries of a sitemap (or sitemap index) with a real XML parser (saxes: one pass,
 * no regex to backtrack, no DTD entities expanded), at most `maxLocs` of them (50,000: the
 * protocol's limit per file), as its text streams in: the whole text is never held.
 */
export function sitemapReader(maxLocs = 50_000): SitemapReader {
  const facts: SitemapFacts = { locs: [], error: null, index: false };
  const parser = new SaxesParser();
  let text: string | null = null;
  let root = true;
  parser.on('opentag', (tag) => {
    if (root) facts.index = localName(tag.name) === 'sitemapindex';
    root = false;
    if (localName(tag.name) === 'loc') text = '';
  });
  parser.on('text', (chunk) => {
    if (text !== null) text += chunk;
  });
  parser.on('closetag', (tag) => {
    if (localName(tag.name) !== 'loc' || text === null) return;
    if (facts.locs.length < maxLocs) facts.locs.push(text.trim());
    text = null;
  });
  parser.on('error', (error) => {
    facts.error ??= error.message;
  });
  const guard = (step: () => void) => {
    try {
      step();
    } catch (error) {
      facts.error ??= (error as Error).message;
    }
  };
  return {
    write: (part) => guard(() => parser.write(part)),
    close: () => {
      guard(() => parser.close());
      return facts;
    },
  };
}

/** Reads the `<loc>` entries of a whole sitemap's text, as sitemapReader does. */
export function readSitemap(xml: string, maxLocs = 50_000): SitemapFacts {
  const reader = sitemapReader(maxLocs);
  reader.write(xml);
  return reader.close();
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The `Sitemap:` URLs of a robots.txt, read line by line (comments dropped, field names in any case). */
export function robotsSitemaps(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.split('#', 1)[0] as string;
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'sitemap') continue;
    const value = line.slice(colon + 1).trim();
    if (value) found.push(value);
  }
  return found;
}
