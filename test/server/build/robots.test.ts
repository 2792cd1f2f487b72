import { describe, expect, it } from 'vitest';
import { escapeFragment } from '../../../src/url/codec.js';
import { toLocation } from '../../../src/url/location.js';
import { robotsTxt } from '../../../src/server/build/robots.js';

describe('robotsTxt', () => {
  it('allows everything by default', () => {
    expect(robotsTxt()).toBe('User-agent: *\nDisallow:\n');
  });

  it.each([
    ['/admin', '/', ['/*_escaped_fragment_=/admin', '/admin']],
    // The base state's query has three spellings after `#!` (`x`, `?x`, `/?x`), one state: each is disallowed (eighth review).
    [
      '/?DONOTCRAWL',
      '/',
      ['/*_escaped_fragment_=DONOTCRAWL', '/*_escaped_fragment_=?DONOTCRAWL', '/*_escaped_fragment_=/?DONOTCRAWL', '/?DONOTCRAWL'],
    ],
    [
      '/?q=a b',
      '/app/',
      ['/*_escaped_fragment_=q=a%2520b', '/*_escaped_fragment_=?q=a%2520b', '/*_escaped_fragment_=/?q=a%2520b', '/app/?q=a%20b'],
    ],
    ['/drafts/', '/app/', ['/*_escaped_fragment_=/drafts/', '/app/drafts/']],
    ['/q/café', '/', ['/*_escaped_fragment_=/q/caf%25C3%25A9', '/q/caf%C3%A9']],
    ['/a b&c+d', '/', ['/*_escaped_fragment_=/a%2520b%26c%2Bd', '/a%20b&c+d']],
    ['/x*y$', '/', ['/*_escaped_fragment_=/x%2Ay%24', '/x%2Ay%24']],
    [
      '/x\r\nSitemap: https://evil.example/',
      '/',
      ['/*_escaped_fragment_=/x%250D%250ASitemap:%2520https:/evil.example/', '/x%0D%0ASitemap:%20https:/evil.example/'],
    ],
  ])('disallows the states under %s (base %s) in their ugly and clean forms', (prefix, base, rules) => {
    expect(robotsTxt({ base, disallow: [prefix] })).toBe(`User-agent: *\n${rules.map((r) => `Disallow: ${r}\n`).join('')}`);
  });

  it('disallows every ugly URL a link to the base state’s query makes a crawler ask for (security, eighth round)', () => {
    // Before, only `#!DONOTCRAWL` was: a link written `#!?DONOTCRAWL` or `#!/?DONOTCRAWL` names the same state and was crawled.
    const rules = robotsTxt({ disallow: ['/?DONOTCRAWL'] })
      .split('\n')
      .filter((l) => l.startsWith('Disallow: /*'))
      .map((l) => l.slice('Disallow: /*'.length));
    for (const link of ['#!DONOTCRAWL', '#!?DONOTCRAWL', '#!/?DONOTCRAWL', '#!/?DONOTCRAWL&page=2']) {
      const ugly = `/?_escaped_fragment_=${escapeFragment(link.slice(2))}`;
      expect(toLocation(ugly)?.startsWith('/?DONOTCRAWL')).toBe(true);
      expect(rules.some((rule) => ugly.includes(rule))).toBe(true);
    }
  });

  it.each(['/?DONOTCRAWL', '/?/admin', '/??x', '/?%23x'])(
    'disallows each spelling after #! of the base state’s query %s, and no other state',
    (location) => {
      // A query starting with `/` or `?` is written `#!/?…` (the short form would be read as a path
      // or as `?` twice): its spellings are `/?q` and `?q`, never `?` or `/?` put before the written one.
      const rules = robotsTxt({ disallow: [location] })
        .split('\n')
        .filter((l) => l.startsWith('Disallow: /*'))
        .map((l) => l.slice('Disallow: /*_escaped_fragment_='.length));
      const state = (fragment: string) => toLocation(`/?_escaped_fragment_=${escapeFragment(fragment)}`);
      const query = location.slice(2);
      for (const spelling of [query, '?' + query, '/?' + query].filter((f) => state(f) === location))
        expect(rules).toContain(escapeFragment(spelling));
      for (const rule of rules) expect(state(decodeURIComponent(rule))).toBe(location);
    },
  );

  it('opts the whole site out, and announces sitemaps', () => {
    expect(robotsTxt({ optOut: true, userAgent: 'Googlebot', sitemaps: ['https://example.com/sitemap.xml'] })).toBe(
      'User-agent: Googlebot\nDisallow: /*_escaped_fragment_\n\nSitemap: https://example.com/sitemap.xml\n',
    );
  });

  it.each([{ sitemaps: ['https://e/\r\nDisallow: /'] }, { userAgent: 'x\nDisallow: /' }])('refuses a line break in %o', (options) => {
    expect(() => robotsTxt(options)).toThrow(/cannot hold a line break or NUL/);
  });

  // Python's robots.txt reader (urllib.robotparser, with str.splitlines) ends a line at each of these:
  // `userAgent: 'x\u2028Disallow: /'` gave such a crawler a rule of the option's own.
  it.each([
    ['VT', '\v'],
    ['FF', '\f'],
    ['FS', '\x1c'],
    ['GS', '\x1d'],
    ['RS', '\x1e'],
    ['NEL', '\x85'],
    ['LINE SEPARATOR', '\u2028'],
    ['PARAGRAPH SEPARATOR', '\u2029'],
  ])('refuses %s, a line break some readers split lines on, not only CR and LF', (_, separator) => {
    expect(() => robotsTxt({ userAgent: `x${separator}Disallow: /` })).toThrow(/cannot hold a line break or NUL/);
    expect(() => robotsTxt({ sitemaps: [`https://e.com/s.xml${separator}Disallow: /`] })).toThrow(/cannot hold a line break or NUL/);
  });

  it('refuses a disallow or sitemaps that is one string, not a list: "/admin" was read as "/", "a", "d"… and disallowed the whole site', () => {
    const loose = (options: object) => () => robotsTxt(options as Parameters<typeof robotsTxt>[0]);
    expect(loose({ disallow: '/admin' })).toThrow('disallow must be a list of location prefixes, such as ["/admin"]; got "/admin"');
    expect(loose({ sitemaps: 'https://example.com/sitemap.xml' })).toThrow(
      'sitemaps must be a list of absolute URLs, such as ["https://example.com/sitemap.xml"]; got "https://example.com/sitemap.xml"',
    );
  });

  it('refuses a sitemap that is no absolute URL: crawlers read only those on a Sitemap line', () => {
    expect(() => robotsTxt({ sitemaps: ['/sitemap.xml'] })).toThrow(
      'a robots.txt Sitemap must be an absolute http(s) URL, such as "https://example.com/sitemap.xml"; got "/sitemap.xml"',
    );
  });
});
