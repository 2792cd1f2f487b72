import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../src/server/build/robots.js';
import { decidingRule, isAllowed, matches, ROBOTS_BYTES, robotsRules } from '../../src/verify/robots.js';

const SITE = 'https://www.example.com';
const allowed = (text: string, agent: string, path: string) => isAllowed(robotsRules(text, agent), SITE + path);

// RFC 9309, 5.2: a simple example.
const RFC_EXAMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

describe('robotsRules and isAllowed', () => {
  it.each([
    // The group for `*` holds for a crawler no group names.
    ['Googlebot', '/example/page.html', false],
    ['Googlebot', '/image.gif', false],
    ['Googlebot', '/image.gif?size=2', true],
    ['Googlebot', '/publications/2024', true],
    ['Googlebot', '/', true],
    // A group of its own, and only that one: the longest rule wins.
    ['foobot', '/example/page.html', true],
    ['foobot', '/example/allowed.gif', true],
    ['foobot', '/example/other.html', false],
    ['FooBot', '/', false],
    // Two agents sharing a group.
    ['barbot', '/example/page.html', false],
    ['bazbot', '/example/page.html', false],
    ['bazbot', '/example/other.html', true],
    ['bazbot', '/image.gif', true],
    // A group with no rules allows everything, whatever the group for `*` says.
    ['quxbot', '/example/page.html', true],
  ])("RFC 9309's example: %s may fetch %s: %s", (agent, path, expected) => {
    expect(allowed(RFC_EXAMPLE, agent, path)).toBe(expected);
  });

  it.each([
    // Longest match wins (Google's examples), Allow on a tie.
    ['Allow: /p\nDisallow: /', '/page', true],
    ['Allow: /folder\nDisallow: /folder', '/folder/page', true],
    ['Allow: /page\nDisallow: /*.htm', '/page.htm', false],
    ['Allow: /$\nDisallow: /', '/', true],
    ['Allow: /$\nDisallow: /', '/page.htm', false],
    ['Disallow: /fish', '/fish.html', false],
    ['Disallow: /fish', '/Fish.asp', true],
    ['Disallow: /fish/', '/fish', true],
    ['Disallow: /*.php$', '/index.php', false],
    ['Disallow: /*.php$', '/index.php?x=1', true],
    ['Disallow: /*.php$', '/filename.php/', true],
    ['Disallow: /this/*/exactly', '/this/any/thing/exactly', false],
    ['Disallow: /a$b', '/a$b', false],
    // An empty Disallow allows all; a rule before any User-agent line belongs to no group.
    ['Disallow:', '/anything', true],
    // RFC 9309, 2.2.2: escapes compared in upper case, unreserved ones as their characters, other bytes escaped.
    ['Disallow: /foo/bar/%62%61%7A', '/foo/bar/baz', false],
    ['Disallow: /foo/bar/%e3%83%84', '/foo/bar/%E3%83%84', false],
    ['Disallow: /foo/bar/ツ', '/foo/bar/%E3%83%84', false],
    // RFC 9309, 2.2.3: an escaped `*` or `$` matches itself only.
    ['Disallow: /path/file-with-a-%2A.html', '/path/file-with-a-*.html', false],
    ['Disallow: /path/file-with-a-%2A.html', '/path/file-with-a-b.html', true],
    ['Disallow: /path/foo-%24', '/path/foo-$', false],
    // The query is matched with the path.
    ['Disallow: /*_escaped_fragment_', '/?_escaped_fragment_=/a', false],
    ['Disallow: /*_escaped_fragment_', '/books/1', true],
  ])('under User-agent: * with %j, %s is allowed: %s', (rules, path, expected) => {
    expect(allowed(`User-agent: *\n${rules}\n`, 'Googlebot', path)).toBe(expected);
  });

  it.each([
    ['User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /s', '/s', true],
    ['User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /s', '/g', false],
    // The product token is matched, case aside; a longer one (Googlebot-News) is another crawler.
    ['User-agent: googlebot/2.1\nDisallow: /g\nUser-agent: *\nDisallow: /s', '/g', false],
    ['User-agent: Googlebot-News\nDisallow: /g\nUser-agent: *\nDisallow: /s', '/g', true],
    // Groups for one agent are merged.
    ['User-agent: Googlebot\nDisallow: /a\nUser-agent: other\nDisallow: /\nUser-agent: Googlebot\nDisallow: /b', '/b', false],
    ['Disallow: /\nUser-agent: *\nDisallow: /s', '/x', true],
  ])('picks the group for Googlebot, else for *: %j, %s allowed: %s', (text, path, expected) => {
    expect(allowed(text, 'Googlebot', path)).toBe(expected);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
    ['LF', '\n'],
  ])('reads lines ended by %s, with a byte-order mark, comments and odd spacing', (_name, eol) => {
    const text = ['\ufeffUSER-AGENT :  *  # all', '  disallow:/private # not this', 'Allow:   /private/open', '# Disallow: /', ''].join(
      eol,
    );
    expect(allowed(text, 'Googlebot', '/private/x')).toBe(false);
    expect(allowed(text, 'Googlebot', '/private/open/1')).toBe(true);
    expect(allowed(text, 'Googlebot', '/public')).toBe(true);
  });

  it(`reads the first ${ROBOTS_BYTES / 1024} KiB of a robots.txt and ignores the rest`, () => {
    const text = `User-agent: *\nDisallow: /early\n${'#'.repeat(ROBOTS_BYTES)}\nDisallow: /late\n`;
    expect(robotsRules(text, 'Googlebot').map((r) => r.pattern)).toEqual(['/early']);
  });

  it('decides among many rules in one pass each, and a pattern of many wildcards never backtracks', () => {
    // 20,000 rules, and a pattern that backtracks exponentially as a regular expression.
    const rules = Array.from({ length: 20_000 }, (_, i) => `Disallow: /r${i}/`).join('\n');
    const text = `User-agent: *\n${rules}\nDisallow: /${'*a'.repeat(5000)}b\n`;
    const parsed = robotsRules(text, 'Googlebot');
    expect(parsed).toHaveLength(20_001);
    expect(isAllowed(parsed, `${SITE}/${'a'.repeat(8000)}`)).toBe(true);
    expect(isAllowed(parsed, `${SITE}/r19999/x`)).toBe(false);
  });

  it('names the rule that decides, or null when none matches', () => {
    const rules = robotsRules('User-agent: *\nDisallow: /a\nAllow: /a/b\n', 'Googlebot');
    expect(decidingRule(rules, `${SITE}/a/b/c`)).toEqual({ allow: true, pattern: '/a/b' });
    expect(decidingRule(rules, `${SITE}/a/c`)).toEqual({ allow: false, pattern: '/a' });
    expect(decidingRule(rules, `${SITE}/z`)).toBeNull();
  });

  it.each([
    ['/admin', false],
    ['/admin/users', false],
    ['/?_escaped_fragment_=/admin', false],
    ['/?_escaped_fragment_=/admin/users', false],
    ['/shop/?_escaped_fragment_=/admin', false],
    ['/?_escaped_fragment_=/books/1', true],
    ['/books/1', true],
  ])("honours robotsTxt({ disallow: ['/admin'] }): %s allowed: %s", (path, expected) => {
    expect(allowed(robotsTxt({ disallow: ['/admin'] }), 'Googlebot', path)).toBe(expected);
  });

  it.each([
    ['/*a', '/xa', true],
    ['/*a', '/x', false],
    ['/a*', '/a', true],
    ['*', '/', true],
    ['/*$', '/anything', true],
    ['/a*b$', '/ab', true],
    ['/a*ab$', '/ab', false],
    ['/a*b*c$', '/abbc', true],
    ['/a*b*c$', '/abcb', false],
  ])('matches(%j, %j) is %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });
});
