// What the scheme's crawler reads from a fetched page: its hyperlinks, canonical link, title and
// `<meta name="fragment">` tags, from a real HTML parse (parse5), never regexes over markup.

import { parse } from 'parse5';

type Node = {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
  value?: string;
};

/** What a page says to a crawler. */
export interface PageFacts {
  /** Every `<a href>` and `<area href>`, as written. */
  links: string[];
  /** The `href` of every `<link rel="canonical">`, as written. */
  canonicals: string[];
  /** The document title's text. */
  title: string;
  /** The content of the first `<meta name="description">`, trimmed; `''` when there is none. */
  description: string;
  /** Each `<meta name="fragment">`: its content and whether it sits in `<head>`. */
  fragmentMetas: { content: string; inHead: boolean }[];
}

const attr = (node: Node, name: string): string | undefined => node.attrs?.find((a) => a.name === name)?.value;

function text(node: Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(text).join('');
}

/** Reads the crawler-relevant facts of an HTML document. */
export function readPage(html: string): PageFacts {
  const facts: PageFacts = { links: [], canonicals: [], title: '', description: '', fragmentMetas: [] };
  const visit = (node: Node, inHead: boolean): void => {
    const tag = node.tagName;
    if ((tag === 'a' || tag === 'area') && attr(node, 'href') !== undefined) facts.links.push(attr(node, 'href') as string);
    if (tag === 'link' && (attr(node, 'rel') ?? '').toLowerCase().split(/\s+/).includes('canonical')) facts.canonicals.push(attr(node, 'href') ?? '');
    if (tag === 'title' && !facts.title) facts.title = text(node).trim();
    const meta = tag === 'meta' ? (attr(node, 'name') ?? '').trim().toLowerCase() : '';
    if (meta === 'fragment') facts.fragmentMetas.push({ content: attr(node, 'content') ?? '', inHead });
    if (meta === 'description' && !facts.description) facts.description = (attr(node, 'content') ?? '').trim();
    for (const child of node.childNodes ?? []) visit(child, inHead || tag === 'head');
    if (node.content) visit(node.content, inHead);
  };
  visit(parse(html) as unknown as Node, false);
  return facts;
}

/** The `<loc>` entries of a sitemap (XML entities decoded). */
export function readSitemap(xml: string): string[] {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) =>
    (m[1] as string).replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (_, e: string) =>
      e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (entities[e.toLowerCase()] as string),
    ),
  );
}
