import { describe, expect, it } from 'vitest';
import { readPage, readSitemap, robotsSitemaps, saysNoindex, sitemapReader } from '../../src/verify/page.js';
import { MAX_DEPTH, TooDeep } from '../../src/verify/tree.js';
import { costRatio } from '../cost.js';

describe('readPage', () => {
  it('reads links, canonical links, the title, the first description and fragment metas with where they sit', () => {
    const facts = readPage(
      '<!doctype html><html><head><title> Books &amp; more </title><link rel="Canonical" href="/#!/a"><meta name="fragment" content="!">' +
        '<meta name=" Description" content=" 200 books &lt;&gt; "><meta name="description" content="second"></head>' +
        '<body><a href="#!/b">b</a><a>no href</a><map><area href="/c"></map><svg><a href="/svg"></a></svg><template><a href="/in-template"></a></template>' +
        '<meta name="Fragment" content="1"><link rel="alternate canonical" href="/x"></body></html>',
    );
    expect(facts).toEqual({
      links: ['#!/b', '/c', '/svg', '/in-template'],
      alternates: [],
      canonicals: ['/#!/a', '/x'],
      ogUrls: [],
      og: false,
      ogImage: false,
      title: 'Books & more',
      description: '200 books <>',
      fragmentMetas: [
        { content: '!', inHead: true },
        { content: '1', inHead: false },
      ],
      noindex: false,
    });
  });

  it.each([
    ['<meta name="robots" content="noindex">', true],
    ['<meta name=" ROBOTS " content="nofollow, NoIndex">', true],
    ['<meta name="robots" content="none">', true],
    ['<meta name="robots" content="index, follow">', false],
    ['<meta name="googlebot" content="noindex">', false],
    ['<meta name="description" content="noindex">', false],
  ])('reads %s as noindex: %s', (head, noindex) => {
    expect(readPage(`<html><head>${head}</head><body></body></html>`).noindex).toBe(noindex);
  });

  it.each([
    ['noindex', true],
    ['noindex, nofollow', true],
    ['googlebot: noindex', true],
    ['NONE', true],
    ['unavailable_after: 2030-01-01', false],
    ['nofollow', false],
    ['', false],
  ])('reads the robots directives %j as noindex: %s', (directives, noindex) => {
    expect(saysNoindex(directives)).toBe(noindex);
  });

  it('reads the hreflang alternates of a page, which a crawler follows, apart from its links, and no other link element', () => {
    const facts = readPage(
      '<html><head><link rel="alternate" hreflang="fr" href="/fr/%C3%A9t%C3%A9"><link rel="Alternate" hreflang="x-default" href="/?_escaped_fragment_=/en">' +
        '<link rel="alternate" type="application/rss+xml" href="/feed"><link rel="stylesheet" hreflang="de" href="/s.css"><link rel="alternate" hreflang="de"></head>' +
        '<body><a href="/b">b</a></body></html>',
    );
    expect(facts.alternates).toEqual(['/fr/%C3%A9t%C3%A9', '/?_escaped_fragment_=/en']);
    expect(facts.links).toEqual(['/b']);
  });

  it.each<[string, head: string, og: boolean, ogImage: boolean, ogUrls: string[]]>([
    ['no Open Graph tag', '<meta name="description" content="d"><meta property="twitter:image" content="/t.png">', false, false, []],
    ['og:title alone', '<meta property="og:title" content="T">', true, false, []],
    ['an og:image', '<meta property="og:title" content="T"><meta property="og:image" content="/i.png">', true, true, []],
    ['an og:image:url, as the protocol allows', '<meta property="OG:Image:URL" content="https://e.com/i.png">', true, true, []],
    ['an empty og:image', '<meta property="og:image" content=" ">', true, false, []],
    ['og: in name, as some pages write it', '<meta name="og:image" content="/i.png">', true, true, []],
    [
      'og:url, each as written',
      '<meta property="og:url" content="/#!/a"><meta property="og:url" content="/b?utm_source=x">',
      true,
      false,
      ['/#!/a', '/b?utm_source=x'],
    ],
  ])('reads the Open Graph tags of a page with %s', (_, head, og, ogImage, ogUrls) => {
    expect(readPage(`<html><head>${head}</head><body></body></html>`)).toMatchObject({ og, ogImage, ogUrls });
  });

  it('survives hostile markup', () => {
    expect(readPage('<a href="x"><img src=x onerror=alert(1)></a></script><title>t</title>\u0000<a href=\'#!/"><\'>').links).toEqual([
      'x',
      '#!/"><',
    ]);
  });
});

describe('readPage on a page nested deep (security, tenth round)', () => {
  it('reads a page nested 100,000 elements deep, where it threw RangeError from 10,000', () => {
    // Each element was read by a call inside its parent's: from about 10,000 deep (a 50 kB page) the
    // stack ran out and the state was FETCH_FAILED "Maximum call stack size exceeded", its links unread.
    const deep = '<div>'.repeat(100_000);
    const facts = readPage(
      `<html><head><title>Deep</title><link rel="canonical" href="/c"></head><body>${deep}<a href="/in">in</a><svg><title>${'<g>'.repeat(100_000)}svg</title></svg></body></html>`,
    );
    expect(facts).toMatchObject({ links: ['/in'], canonicals: ['/c'], title: 'Deep' });
    expect(readPage(`<svg><title>${'<g>'.repeat(100_000)}<g>in svg</g></title></svg>`).title).toBe('in svg');
  });

  it('refuses a page nested past MAX_DEPTH with a TooDeep made outside the parse, whose stack holds nothing of it', () => {
    // Made within the parse, its stack's frames held the parser and all it had built: 75 MB while kept.
    const error = (() => {
      try {
        readPage('<div>'.repeat(MAX_DEPTH + 1));
      } catch (error) {
        return error as Error;
      }
    })();
    expect(error).toBeInstanceOf(TooDeep);
    expect(error?.stack).not.toMatch(/parse5|tree\.ts/);
  });
});

describe('readSitemap', () => {
  it('reads every <loc>, decoding XML entities', () => {
    const xml =
      '<?xml version="1.0"?><urlset><url><loc> https://e.com/#!/a?x=1&amp;y=2 </loc></url><url><loc>https://e.com/&#233;&#x41;</loc></url></urlset>';
    expect(readSitemap(xml)).toEqual({ locs: ['https://e.com/#!/a?x=1&y=2', 'https://e.com/éA'], error: null, index: false });
  });

  it('reads <loc> with a namespace prefix, and sitemap index entries', () => {
    const xml =
      '<s:sitemapindex xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:sitemap><s:loc>https://e.com/a.xml</s:loc></s:sitemap></s:sitemapindex>';
    expect(readSitemap(xml)).toMatchObject({ locs: ['https://e.com/a.xml'], index: true });
  });

  it('keeps the entries before a well-formedness fault, names the fault, and expands no DTD entity', () => {
    const facts = readSitemap(
      '<!DOCTYPE u [<!ENTITY a "aaaaaaaaaa">]><urlset><url><loc>https://e.com/1</loc></url><url><loc>&a;</loc></url><url><loc>x</urlset>',
    );
    expect(facts.locs[0]).toBe('https://e.com/1');
    expect(facts.locs.join('')).not.toContain('aaaaaaaaaa');
    expect(facts.error).toEqual(expect.any(String));
  });

  it('reads at most maxLocs entries', () => {
    expect(readSitemap('<urlset>' + '<url><loc>x</loc></url>'.repeat(10) + '</urlset>', 3).locs).toEqual(['x', 'x', 'x']);
  });

  it.each([
    [
      'a well-formed sitemap',
      '<?xml version="1.0"?><urlset><url><loc> https://e.com/a?x=1&amp;y=2 </loc></url><url><loc>https://e.com/&#233;é</loc></url></urlset>',
    ],
    ['one with a fault', '<urlset><url><loc>https://e.com/1</loc></url><url><loc>x</urlset>'],
  ])('reads %s given in two parts, split anywhere, as it reads it whole (sitemapReader)', (_, xml) => {
    const whole = readSitemap(xml);
    for (let at = 0; at <= xml.length; at++) {
      const reader = sitemapReader();
      reader.write(xml.slice(0, at));
      reader.write(xml.slice(at));
      expect(reader.close()).toEqual(whole);
    }
  });
});

describe('verify against input built to stall it (security, second round)', () => {
  // Linear time, asserted as growth: per call, the input 16 times longer costs at most 8 times what
  // the short one does, over 16 (the short one run 16 times as often, so both runs last as long).
  // Linear work measured 0.1 to 2, and 3.5 with two CPU hogs running (split() of 200,000 lines
  // costs the GC more than 16 of 12,500); quadratic work gives 16 and more, and the regexps that
  // stalled (22 s, 55 s) thousands. A bound of 500 ms stood here and failed on a loaded machine.
  const GROWTH = 16;
  const LINEAR_BOUND = 8;
  const grows = (work: (input: string) => unknown, input: (scale: number) => string) => {
    const [small, large] = [input(1 / GROWTH), input(1)];
    const repeat = large.length < 100_000 ? 20 : 1;
    return (
      costRatio(
        () => work(large),
        () => work(small),
        { repeat, baselineRepeat: GROWTH * repeat },
      ) / GROWTH
    );
  };

  it.each<[string, (scale: number) => string]>([
    ['a <loc> followed by 4,000 spaces', (scale) => '<urlset><url><loc>' + ' '.repeat(4000 * scale)],
    ['6 kB of unclosed <loc> and spaces', (scale) => ('<loc>' + ' '.repeat(60)).repeat(96 * scale)],
    ['a <loc> with 1 MB of spaces and no end', (scale) => '<urlset><loc>' + ' '.repeat(1_000_000 * scale)],
  ])('reads a sitemap of %s in linear time', (_, xml) => {
    // The regex took 22 s on the first and stalled past 60 s on the second.
    expect(grows(readSitemap, xml)).toBeLessThan(LINEAR_BOUND);
  });

  it.each<[string, (scale: number) => string]>([
    ['200 kB of newlines', (scale) => '\n'.repeat(200_000 * scale)],
    ['200 kB of spaces after "Sitemap"', (scale) => 'Sitemap' + ' '.repeat(200_000 * scale)],
    ['200 kB of carriage returns and spaces', (scale) => ' \r'.repeat(100_000 * scale)],
  ])('reads a robots.txt of %s in linear time', (_, text) => {
    // The multi-line regex took 55 s on 200 kB of newlines.
    expect(grows(robotsSitemaps, text)).toBeLessThan(LINEAR_BOUND);
  });

  it('reads Sitemap lines in any case, with comments and CRLF', () => {
    expect(
      robotsSitemaps(
        'User-agent: *\r\nSITEMAP: https://e.com/a.xml # main\r\n# Sitemap: https://e.com/no.xml\nsitemap :https://e.com/b.xml\nDisallow: /x',
      ),
    ).toEqual(['https://e.com/a.xml', 'https://e.com/b.xml']);
  });
});
