import { describe, expect, it } from 'vitest';
import { readPage, readSitemap } from '../../src/verify/page.js';

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
      canonicals: ['/#!/a', '/x'],
      title: 'Books & more',
      description: '200 books <>',
      fragmentMetas: [
        { content: '!', inHead: true },
        { content: '1', inHead: false },
      ],
    });
  });

  it('survives hostile markup', () => {
    expect(readPage('<a href="x"><img src=x onerror=alert(1)></a></script><title>t</title>\u0000<a href=\'#!/"><\'>').links).toEqual(['x', '#!/"><']);
  });
});

describe('readSitemap', () => {
  it('reads every <loc>, decoding XML entities', () => {
    const xml = '<?xml version="1.0"?><urlset><url><loc> https://e.com/#!/a?x=1&amp;y=2 </loc></url><url><loc>https://e.com/&#233;&#x41;</loc></url></urlset>';
    expect(readSitemap(xml)).toEqual(['https://e.com/#!/a?x=1&y=2', 'https://e.com/éA']);
  });
});
