// Sitemaps list the URLs a site wants shown in search results: clean URLs, whatever the app's client
// mode, where the server answers them (crawlers drop the fragment); a hashbang app's `#!` URLs only
// with `cleanUrls: 'shell'` (docs/scheme.md); never the ugly ones. sitemaps.org limits a file to 50,000 URLs and 50 MB; past that
// the URLs are split into numbered files under a sitemap index.

import { normalizeBase, normalizeLocation, splitLocation, type AppLocation, type UrlMode } from '../../url/location.js';
import { dropTracking } from '../../url/query.js';
import { optionsOf, SnapshotError } from '../errors.js';
import type { CleanUrls } from '../types.js';
import { checkCleanUrls, checkMode, checkOrigin, crawlerMode, publicUrl } from '../urls.js';

/** Options of `sitemap`. */
export interface SitemapOptions {
  /** The site's origin (`https://example.com`). Required. */
  origin: string;
  /** The app's base path. Default `'/'`. */
  base?: string | undefined;
  /** The app's client mode: `'hashbang'` lists `#!` URLs where `cleanUrls` is `'shell'`. Default `'history'`. */
  mode?: UrlMode | undefined;
  /** What the server answers at clean URLs (`createSnapshotHandler`'s option): anything but `'shell'` lists clean URLs, whatever the mode. Default `'bots'`. */
  cleanUrls?: CleanUrls | undefined;
  /** `<lastmod>` of every URL, a `Date`. Default none. */
  lastmod?: Date | undefined;
  /** Where the sitemap files are served, for the index's links. Default `origin + '/'`. */
  baseUrl?: string | undefined;
  /** Most URLs per file. Default 50000, the protocol's limit. */
  maxUrls?: number | undefined;
}

/** One file to write. */
export interface SitemapFile {
  /** Its file name: `sitemap.xml` first (the urlset, or the index), then `sitemap-1.xml`… */
  name: string;
  /** Its XML text. */
  xml: string;
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
// The protocol's 50 MB (52,428,800 bytes) per uncompressed file, less room for the closing tag.
const MAX_BYTES = 52_428_800 - 64;

/** Escapes text for XML content. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] as string);
}

/** The W3C datetime of `lastmod`; anything but a Date that names a time is a BAD_OPTION. */
function checkDate(lastmod: unknown): string {
  if (!(lastmod instanceof Date) || Number.isNaN(lastmod.getTime()))
    throw new SnapshotError(
      'BAD_OPTION',
      `lastmod must be a valid Date, got ${lastmod instanceof Date ? 'Invalid Date' : JSON.stringify(lastmod)}`,
    );
  return lastmod.toISOString();
}

/**
 * Whether a name at the top of a folder is one the sitemap may take: `sitemap.xml`, `sitemap-1.xml`…
 * in any case (one name on a case-insensitive disk). Internal: prerender keeps states out of them.
 */
export const isSitemapName = (name: string): boolean => /^sitemap(?:-\d+)?\.xml$/i.test(name);

/**
 * A location without its tracking tags (`utm_source`, `fbclid`…): they never make a state, so a URL
 * with one names a page whose canonical link names another, and a sitemap lists only canonical URLs.
 */
function withoutTracking(location: AppLocation): AppLocation {
  const [path, query, anchor] = splitLocation(location);
  const kept = query && dropTracking(query);
  return path + (kept ? '?' + kept : '') + (anchor === undefined ? '' : '#' + anchor);
}

/** Writes sitemap files for locations: one urlset, or numbered urlsets under an index past the limits. */
export async function sitemap(
  locations: Iterable<AppLocation> | AsyncIterable<AppLocation>,
  options: SitemapOptions,
): Promise<SitemapFile[]> {
  const origin = checkOrigin(optionsOf(options, 'sitemap(locations, options)', '{ origin, … }').origin);
  const settings = {
    origin,
    base: normalizeBase(options.base),
    mode: crawlerMode(checkMode(options.mode), checkCleanUrls(options.cleanUrls)),
  };
  const maxUrls = options.maxUrls ?? 50_000;
  if (!Number.isInteger(maxUrls) || maxUrls < 1 || maxUrls > 50_000)
    throw new SnapshotError('BAD_OPTION', `maxUrls must be an integer from 1 to 50000, got ${String(maxUrls)}`);
  const baseUrl = options.baseUrl ?? origin + '/';
  const lastmod = options.lastmod == null ? '' : `<lastmod>${checkDate(options.lastmod)}</lastmod>`;
  const open = `${HEAD}<urlset xmlns="${NS}">\n`;
  const files: string[] = [];
  const seen = new Set<string>();
  let current = open;
  let bytes = Buffer.byteLength(open);
  let count = 0;
  for await (const location of locations) {
    const url = publicUrl(withoutTracking(normalizeLocation(location)), settings);
    if (seen.has(url)) continue;
    seen.add(url);
    const entry = `<url><loc>${escapeXml(url)}</loc>${lastmod}</url>\n`;
    const size = Buffer.byteLength(entry);
    if (count === maxUrls || bytes + size > MAX_BYTES) {
      files.push(current + '</urlset>\n');
      current = open;
      bytes = Buffer.byteLength(open);
      count = 0;
    }
    current += entry;
    bytes += size;
    count++;
  }
  files.push(current + '</urlset>\n');
  if (files.length === 1) return [{ name: 'sitemap.xml', xml: files[0] as string }];
  const parts = files.map((xml, i) => ({ name: `sitemap-${i + 1}.xml`, xml }));
  const index = `${HEAD}<sitemapindex xmlns="${NS}">\n${parts.map((p) => `<sitemap><loc>${escapeXml(baseUrl + p.name)}</loc>${lastmod}</sitemap>\n`).join('')}</sitemapindex>\n`;
  return [{ name: 'sitemap.xml', xml: index }, ...parts];
}
