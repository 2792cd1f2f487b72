// robots.txt for an app on the crawling scheme. States that must not be crawled are named by
// location prefix; each becomes a rule on its ugly form (`Disallow: /*_escaped_fragment_=PREFIX`,
// docs/scheme.md, "What the crawler and the site agree to") and
// one on its clean form (which the meta-tag form `/path?_escaped_fragment_=` starts with).

import { escapeFragment } from '../../url/codec.js';
import { normalizeBase, normalizeLocation, stripAnchor, toUrl, type AppLocation } from '../../url/location.js';
import { optionsOf, SnapshotError } from '../errors.js';

/** Options of `robotsTxt`. */
export interface RobotsTxtOptions {
  /** The app's base path. Default `'/'`. */
  base?: string | undefined;
  /** Location prefixes of states that must not be crawled (`'/admin'`, `'/?DONOTCRAWL'`). Default none. */
  disallow?: readonly AppLocation[] | undefined;
  /** Opt the whole site out of the scheme: `Disallow: /*_escaped_fragment_`. Default `false`. */
  optOut?: boolean | undefined;
  /** Absolute URLs of sitemaps to announce. Default none. */
  sitemaps?: readonly string[] | undefined;
  /** The user agent the rules are for. Default `'*'`. */
  userAgent?: string | undefined;
}

// robots.txt patterns give `*` and `$` a meaning: written escaped they match themselves.
function pattern(text: string): string {
  return text.replace(/\*/g, '%2A').replace(/\$/g, '%24');
}

// Line breaks as any reader may split on them: CR and LF, and those of Python's str.splitlines
// (urllib.robotparser's), where `x\u2028Disallow: /` in an option would be a rule of its own.
const BREAK = /[\r\n\0\v\f\x1c-\x1e\x85\u2028\u2029]/;

function line(field: string, value: string): string {
  if (BREAK.test(value))
    throw new SnapshotError('BAD_OPTION', `a robots.txt ${field} cannot hold a line break or NUL: ${JSON.stringify(value)}`);
  return `${field}: ${value}\n`;
}

/** A list option; one string is refused, not read letter by letter (`'/admin'` gave `Disallow: /`). */
function list(name: string, value: Iterable<string> | undefined, example: string): Iterable<string> {
  if (value === undefined) return [];
  if (typeof value === 'string' || !(Symbol.iterator in Object(value)))
    throw new SnapshotError('BAD_OPTION', `${name} must be a list of ${example}; got ${JSON.stringify(value)}`);
  return value;
}

/** Writes robots.txt: the rules for states not to crawl, the opt-out, and the sitemaps. */
export function robotsTxt(options: RobotsTxtOptions = {}): string {
  optionsOf(options, 'robotsTxt', '{ base, disallow, sitemaps, … }');
  const base = normalizeBase(options.base);
  let out = line('User-agent', options.userAgent ?? '*');
  const rules = new Set<string>();
  if (options.optOut) rules.add('/*_escaped_fragment_');
  const sitemaps = [...list('sitemaps', options.sitemaps, 'absolute URLs, such as ["https://example.com/sitemap.xml"]')];
  for (const url of sitemaps)
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      throw new SnapshotError(
        'BAD_OPTION',
        `a robots.txt Sitemap must be an absolute http(s) URL, such as "https://example.com/sitemap.xml"; got ${JSON.stringify(url)}`,
      );
  for (const prefix of list('disallow', options.disallow, 'location prefixes, such as ["/admin"]')) {
    const location = stripAnchor(normalizeLocation(prefix));
    const pretty = toUrl(location, { base, mode: 'hashbang' });
    // The state as the crawler escapes it in the ugly URL, whatever page it rides on. The base
    // state's query `/?x` is written `#!x`, but `#!?x` and `#!/?x` name that state too: each its
    // rule (a query that starts with `/` or `?` is written `#!/?x` already, never `#!x`).
    const written = pretty.slice(pretty.indexOf('#!') + 2);
    const spellings = location.startsWith('/?') ? [written, location.slice(1), location] : [written];
    for (const fragment of spellings) rules.add('/*_escaped_fragment_=' + pattern(escapeFragment(fragment)));
    rules.add(pattern(base + location.slice(1)));
  }
  if (rules.size === 0) out += 'Disallow:\n';
  for (const rule of rules) out += line('Disallow', rule);
  if (sitemaps.length) out += '\n';
  for (const url of sitemaps) out += line('Sitemap', url);
  return out;
}
