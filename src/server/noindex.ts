// A route's `noindex`: its states are no search result. Whether a state is noindex is read from the
// route that matches it, each time it is needed (a snapshot's answer, its head, a sitemap), never
// stored with a snapshot: so a snapshot from any store (one rendered before the route said so, or
// by another process of a fleet) is answered with the header the route table says now. The robots
// meta is merged, not laid over: `noindex` always holds, and a state's own robots directives
// (`nofollow`, `max-image-preview:large`) stay beside it in the one tag.

import type { HeadTag } from '../contract/head.js';
import type { AppLocation } from '../url/location.js';
import type { AnyRoute, RouteMatch, RouteTable } from '../routes/types.js';

/** The header every snapshot answer of a noindex state carries. */
export const NOINDEX_HEADER: Readonly<Record<string, string>> = Object.freeze({ 'X-Robots-Tag': 'noindex' });

/** The key `headKey` gives `<meta name="robots">`. */
export const ROBOTS_KEY = 'meta name robots';

/** True when a match is of a route (not the notFound route) that says `noindex: true`. */
export function matchNoindex(match: RouteMatch<AnyRoute> | null | undefined): boolean {
  return !!match && !match.notFound && (match.route as { noindex?: unknown }).noindex === true;
}

/** True when the state at `location` is of a route that says `noindex: true`. */
export function isNoindex(routes: Pick<RouteTable, 'match'>, location: AppLocation): boolean {
  return matchNoindex(routes.match(location));
}

/**
 * A robots meta's content with `noindex` in it: kept as it is when it says `noindex` or `none`
 * already, else its other directives kept (but `index` and `all`, which it contradicts) and
 * `noindex` added.
 */
export function robotsWithNoindex(content: string): string {
  const directives = content
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  const lower = directives.map((d) => d.toLowerCase());
  if (lower.includes('noindex') || lower.includes('none')) return content;
  return [...directives.filter((_, i) => lower[i] !== 'index' && lower[i] !== 'all'), 'noindex'].join(', ');
}

/** A state's head tags with `noindex` in its robots meta: merged into the state's own, else one added. */
export function headWithNoindex(tags: readonly HeadTag[]): HeadTag[] {
  let found = false;
  const out = tags.map((tag) => {
    if (tag.key !== ROBOTS_KEY) return tag;
    found = true;
    return {
      ...tag,
      attrs: tag.attrs.map(([name, value]): [string, string] => [name, name === 'content' ? robotsWithNoindex(value) : value]),
    };
  });
  if (!found)
    out.push({
      key: ROBOTS_KEY,
      tag: 'meta',
      attrs: [
        ['name', 'robots'],
        ['content', 'noindex'],
      ],
    });
  return out;
}
