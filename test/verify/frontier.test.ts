import { describe, expect, it } from 'vitest';
import { createFrontier, type NamedBy } from '../../src/verify/frontier.js';
import type { Problem } from '../../src/verify/problems.js';

const ORIGIN = 'https://e.com';
const PAGE = 'https://e.com/books/1';

/** What enqueueing `href` from PAGE (as `from`) queues and reports. */
function meet(href: string, from: NamedBy = 'link', maxStates = 10) {
  const frontier = createFrontier(ORIGIN, maxStates);
  const problems: Problem[] = [];
  frontier.enqueue(href, PAGE, problems, 'there', from);
  return { queue: frontier.queue, codes: problems.map((problem) => problem.code), frontier };
}

describe('createFrontier', () => {
  it.each<[string, href: string, from: NamedBy, queued: string[], codes: string[]]>([
    ['a relative link, resolved against its page', '/books/2', 'link', ['https://e.com/books/2'], []],
    ['a #! link, with its fragment', '/#!/books/2', 'link', ['https://e.com/#!/books/2'], []],
    ['a plain anchor, without it', '/books/2#reviews', 'link', ['https://e.com/books/2'], []],
    ['a link off the origin, silently left', 'https://other.example/x', 'link', [], []],
    ['a mailto: link, silently left', 'mailto:a@e.com', 'link', [], []],
    ['a link that is no URL, silently left', 'http://[x', 'link', [], []],
    ['an ugly link, refused', '/?_escaped_fragment_=/books/2', 'link', [], ['UGLY_LINK']],
    ['an ugly sitemap entry, refused', 'https://e.com/?_escaped_fragment_=/books/2', 'sitemap', [], ['UGLY_SITEMAP']],
    ['a sitemap entry on another origin, refused', 'https://other.example/x', 'sitemap', [], ['OFF_ORIGIN']],
    [
      'a sitemap entry with a #!, crawled and reported',
      'https://e.com/#!/books/2',
      'sitemap',
      ['https://e.com/#!/books/2'],
      ['FRAGMENT_URL'],
    ],
    [
      'a relative hreflang alternate, crawled and reported',
      '/fr/books/1',
      'alternate',
      ['https://e.com/fr/books/1'],
      ['RELATIVE_ALTERNATE'],
    ],
    ['a full hreflang alternate', 'https://e.com/fr/books/1', 'alternate', ['https://e.com/fr/books/1'], []],
    ['a URL past 8192 characters, refused', `/${'a'.repeat(8200)}`, 'link', [], ['LONG_URL']],
  ])('queues %s', (_, href, from, queued, codes) => {
    const met = meet(href, from);
    expect(met.queue).toEqual(queued);
    expect(met.codes).toEqual(codes);
  });

  it('queues each URL once, in the order met, and no more than maxStates', () => {
    const frontier = createFrontier(ORIGIN, 2);
    for (const href of ['/a', '/b', '/a', '/c', '/b#x']) frontier.enqueue(href, PAGE, [], 'there');
    expect(frontier.queue).toEqual(['https://e.com/a', 'https://e.com/b']);
    // /c was named past maxStates; /a and /b#x again are URLs already queued.
    expect(frontier.notCrawled()).toBe(1);
  });

  it('keeps where a sitemap entry and an alternate were named first, for URLs it queues', () => {
    const frontier = createFrontier(ORIGIN, 2);
    frontier.enqueue('/a', 'https://e.com/sitemap.xml', [], 'there', 'sitemap');
    frontier.enqueue('/a', 'https://e.com/other.xml', [], 'there', 'sitemap');
    frontier.enqueue('/b', 'https://e.com/en', [], 'there', 'alternate');
    frontier.enqueue('/c', 'https://e.com/sitemap.xml', [], 'there', 'sitemap'); // past maxStates
    expect([...frontier.listed]).toEqual([['https://e.com/a', 'https://e.com/sitemap.xml']]);
    expect([...frontier.alternated]).toEqual([['https://e.com/b', 'https://e.com/en']]);
  });
});
