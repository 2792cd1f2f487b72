// A state's head tags (meta, link, JSON-LD) and the one rule of which tags are "the same": the
// key. Both the client (which edits document.head) and the server (which writes a snapshot's
// head) merge layers and drop shell tags through this module, so the two sides never disagree.
// No DOM and no Node here: tags are plain data, read from elements through an attribute getter.

import { DEV } from '../env/dev.js';

/** A `<meta>` tag: keyed by `name`, else by `property` (Open Graph). */
export interface MetaTag {
  /** The `name` attribute (`description`, `robots`, `twitter:card`). */
  name?: string | undefined;
  /** The `property` attribute (`og:title`). */
  property?: string | undefined;
  /** The `content` attribute; `null` (or none) writes no tag and takes away an earlier layer's with this key (the table's defaults). */
  content: string | null;
}

/** A `<link>` tag: keyed by `rel` and `hreflang`. */
export interface LinkTag {
  /** The `rel` attribute (`canonical`, `alternate`). */
  rel: string;
  /** The `href` attribute. */
  href: string;
  /** The `hreflang` attribute, for alternates by language. */
  hreflang?: string | undefined;
}

/** What a `head` hook returns: tags for the state's head. */
export interface Head {
  /** Meta tags; every one is written, and they replace an earlier layer's with their key. */
  meta?: readonly MetaTag[] | undefined;
  /** Link tags; every one is written, and they replace an earlier layer's with their key. */
  link?: readonly LinkTag[] | undefined;
  /** Structured data, written as `<script type="application/ld+json">`; `null` removes an earlier layer's (the table's defaults). */
  jsonLd?: unknown;
}

/** One tag to write, with its key. Internal to the package. */
export interface HeadTag {
  key: string;
  tag: 'meta' | 'link' | 'script';
  attrs: [name: string, value: string][];
  /** The JSON-LD object (script tags only). */
  json?: unknown;
}

const LD_TYPE = 'application/ld+json';
/** The key `headKey` gives the JSON-LD script: a state has one. */
const LD_KEY = 'json-ld';

/**
 * The key of a head element, or null when it has none (then it is never replaced). `attr` reads
 * an attribute (null or undefined when absent), or a tag's field (read as its text). Names and rels
 * compare case-insensitively, as HTML does.
 */
export function headKey(tag: string, attr: (name: string) => unknown): string | null {
  const read = (name: string) =>
    String(attr(name) ?? '')
      .trim()
      .toLowerCase();
  if (tag === 'meta')
    for (const name of ['name', 'property']) {
      const value = read(name);
      if (value) return `meta ${name} ${value}`;
    }
  const rel = tag === 'link' && read('rel');
  if (rel) return `link ${rel.replace(/\s+/g, ' ')} ${read('hreflang')}`;
  return tag === 'script' && read('type') === LD_TYPE ? LD_KEY : null;
}

// HTML's ASCII whitespace, which separates the tokens of a `rel`.
const TOKENS = /[\t\n\f\r ]+/;

/** True for the scheme's `<meta name="fragment">`, its name compared as HTML compares it. Internal. */
export function isFragmentMeta(tag: string | undefined, attr: (name: string) => string | null | undefined): boolean {
  return tag === 'meta' && attr('name')?.trim().toLowerCase() === 'fragment';
}

/** The key `headKey` gives the canonical link the server writes (`rel="canonical"`, no hreflang). Internal. */
export const CANONICAL_KEY = 'link canonical ';

/** True for a `<link>` whose `rel` holds the token `rel` (in any case). Internal. */
export function isLinkRel(tag: string | undefined, attr: (name: string) => string | null | undefined, rel: string): boolean {
  return tag === 'link' && (attr('rel') ?? '').toLowerCase().split(TOKENS).includes(rel);
}

/** True for a `<link>` whose `rel` holds the token `canonical`. Internal. */
export function isCanonicalLink(tag: string | undefined, attr: (name: string) => string | null | undefined): boolean {
  return isLinkRel(tag, attr, 'canonical');
}

/** Development check of what a head hook gave: lists where lists go, JSON-LD as data, not its text. */
function checkHead(layer: Head): void {
  for (const field of ['meta', 'link'] as const) {
    const value: unknown = layer[field];
    if (value != null && !Array.isArray(value))
      throw new TypeError(
        `head's ${field} must be a list of tags ([{ … }]), got ${typeof value === 'object' ? 'an object' : 'a ' + typeof value}`,
      );
  }
  if (typeof layer.jsonLd === 'string')
    throw new TypeError(
      "head's jsonLd is the structured data itself (an object or an array), written with JSON.stringify: a string would be a JSON string, not data; JSON.parse it first",
    );
}

/**
 * Merges head layers (defaults first, the state last) into one list of tags: every tag a layer gives
 * a key (Open Graph arrays: `og:locale:alternate`, `og:image`, `article:tag`), a later layer's tags
 * of a key replacing an earlier one's in place. Internal to the package.
 */
export function mergeHead(layers: readonly (Head | null | undefined | false)[]): HeadTag[] {
  const tags = new Map<string, HeadTag[]>();
  // Unkeyed tags are numbered by a count of their own: the map's size shrinks when a tag is taken away.
  let unkeyed = 0;
  for (const layer of layers) {
    if (!layer) continue;
    if (DEV) checkHead(layer);
    // This layer's tags by key (null: taken away), then put in place of the earlier layers'.
    const own = new Map<string, HeadTag[] | null>();
    // The attributes named, in that order, from a tag's fields; an absent field writes no attribute.
    const put = (tag: HeadTag['tag'], fields: object, names: readonly string[], json?: unknown) => {
      const attrs: [string, string][] = [];
      for (const name of names) {
        const value = (fields as Record<string, unknown>)[name];
        if (value != null) attrs.push([name, String(value)]);
      }
      // A tag with no key (a meta with neither name nor property) is always kept.
      const key = headKey(tag, (name) => (fields as Record<string, unknown>)[name]) ?? tag + unkeyed++;
      // A meta with no content (`null`) says nothing, as `jsonLd: null`: it takes away what an earlier
      // layer set with its key, and writes no tag. A link always writes one.
      own.set(
        key,
        tag !== 'link' && (json ?? (fields as MetaTag).content) == null ? null : [...(own.get(key) ?? []), { key, tag, attrs, json }],
      );
    };
    layer.meta?.forEach((m) => put('meta', m, ['name', 'property', 'content']));
    layer.link?.forEach((l) => put('link', l, ['rel', 'href', 'hreflang']));
    // JSON-LD of `null` says nothing: it takes away what an earlier layer set, and writes no tag.
    if (layer.jsonLd !== undefined) put('script', { type: LD_TYPE }, ['type'], layer.jsonLd);
    own.forEach((group, key) => (group ? tags.set(key, group) : tags.delete(key)));
  }
  return [...tags.values()].flat();
}

/**
 * JSON-LD as script text: `<`, `>`, `&`, U+2028 and U+2029 written as `\u` escapes, so no data can
 * close the script or open a comment, and JSON.parse reads back the same value. Internal.
 */
export function jsonLdText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** What Open Graph derives from the page a state is: its canonical URL (where no canonical link names one) and its title. Internal. */
export interface PageFacts {
  url?: string | undefined;
  title?: string | undefined;
}

// An Open Graph tag's key, written with `property` or (as some sites do) `name`.
const OG = /^meta \S+ og:/;

/**
 * What a state not found or failed says last, over its view's own robots meta: it is no page to
 * index. The server answers it 404 or 500, but a shell at its URL is a 200 where the state's `load`
 * failed or said `notFound()`, and a crawler that runs the app would index the error view there.
 */
const LOST: Head = { meta: [{ name: 'robots', content: 'noindex' }] };

/**
 * A state's head tags: `extra` (the server's canonical link), then the table's defaults, then the
 * view's own; a later layer's tag wins, so a hook that names a canonical link keeps it. A state
 * that is not found or failed (`extra` null) has no canonical link from any layer, and a robots
 * `noindex` (LOST). Where any `og:` tag is set, Open Graph's required `og:url`, `og:title` and
 * `og:type` are derived unless a layer sets them (`content: null` takes one away). Internal.
 */
export function stateHead<C>(
  table: { head?: Head | ((context: C) => Head) | undefined },
  view: { head?: ((context: never) => Head) | undefined },
  context: C,
  extra: Head | null | undefined,
  page: PageFacts,
): HeadTag[] {
  // The hooks are typed by their route (`HeadFunction` in routes/types.ts); here the context is whatever the caller renders with.
  const defaults = typeof table.head === 'function' ? table.head(context) : table.head;
  const layers = [extra, defaults, view.head && (view.head as (context: C) => Head)(context), extra === null && LOST];
  let tags = mergeHead(layers);
  // Open Graph's required properties, where the state has any og: tag, as a layer under its own:
  // og:url its canonical link's URL (`href`, after `rel`), og:title its title, og:type `website`.
  if (tags.some((t) => OG.test(t.key)))
    tags = mergeHead([
      {
        meta: [
          {
            property: 'og:url',
            content: extra === null ? null : (tags.find((t) => t.key === CANONICAL_KEY)?.attrs[1]?.[1] ?? page.url) || null,
          },
          { property: 'og:title', content: page.title || null },
          { property: 'og:type', content: 'website' },
        ],
      },
      ...layers,
    ]);
  return extra === null ? tags.filter((t) => t.key !== CANONICAL_KEY) : tags;
}
