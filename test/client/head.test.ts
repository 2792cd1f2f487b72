import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createHead } from '../../src/client/head.js';
import type { RouterDocument } from '../../src/client/dom.js';
import { mergeHead, type Head } from '../../src/contract/head.js';

// createHead on a real DOM: which of the head's tags are the shell's (displaced, then put back) and
// which a state's (marked with its location: written here, or by a snapshot the page came from).

let windows: Window[] = [];
afterEach(async () => {
  for (const window of windows) await window.happyDOM.close();
  windows = [];
});

/** A document whose head holds `markup`, and createHead over it. */
function open(markup: string) {
  const window = new Window({ url: 'https://example.com/' });
  windows.push(window);
  window.document.head.innerHTML = markup;
  const document = window.document as unknown as RouterDocument & Document;
  return { document, set: createHead(document) };
}

/** The head's tags as `name=value (mark)` lines, in order. */
function tags(document: Document): string[] {
  return [...document.head.querySelectorAll('meta,link,script')].map((el) => {
    const [key, value] =
      el.localName === 'meta'
        ? [el.getAttribute('name') ?? el.getAttribute('property'), el.getAttribute('content')]
        : el.localName === 'link'
          ? [el.getAttribute('rel'), el.getAttribute('href')]
          : ['json-ld', el.textContent];
    const mark = el.getAttribute('data-router-head');
    return `${key}=${value}` + (mark === null ? '' : ` (${mark})`);
  });
}

const SHELL = '<meta name="description" content="shell"><meta property="og:site_name" content="Shop">';
const first: Head = { meta: [{ property: 'og:title', content: 'One' }], jsonLd: { n: 1 } };
const second: Head = {
  meta: [
    { name: 'description', content: 'Two' },
    { property: 'og:title', content: 'Two' },
  ],
};

describe('createHead', () => {
  it("marks each tag it writes with its state's location, and puts back the shell's tags a state displaced", () => {
    const { document, set } = open(SHELL);
    set(mergeHead([second]), '/two');
    expect(tags(document)).toEqual(['og:site_name=Shop', 'description=Two (/two)', 'og:title=Two (/two)']);
    set(mergeHead([first]), '/one');
    expect(tags(document)).toEqual(['description=shell', 'og:site_name=Shop', 'og:title=One (/one)', 'json-ld={"n":1} (/one)']);
  });

  it("takes a snapshot's marked tags for its state's: replaced for good, its canonical link kept only while that state is shown", () => {
    // The page a snapshot of /one makes: the shell's tags, then /one's (its JSON-LD and canonical link marked).
    const { document, set } = open(
      '<meta name="description" content="shell"><link rel="canonical" href="https://example.com/one" data-router-head="/one">' +
        '<meta property="og:title" content="One" data-router-head="/one"><script type="application/ld+json" data-router-head="/one">{"n":1}</script>',
    );
    set(mergeHead([first]), '/one');
    expect(tags(document)).toEqual([
      'description=shell',
      'canonical=https://example.com/one (/one)',
      'og:title=One (/one)',
      'json-ld={"n":1} (/one)',
    ]);
    set(mergeHead([second]), '/two');
    expect(tags(document)).toEqual(['description=Two (/two)', 'og:title=Two (/two)']);
    set(mergeHead([{}]), '/three');
    expect(tags(document)).toEqual(['description=shell']);
    set(mergeHead([first]), '/one');
    expect(tags(document)).toEqual(['description=shell', 'og:title=One (/one)', 'json-ld={"n":1} (/one)']);
  });

  it('removes at once the marked tags of another state than the one shown, whatever their key', () => {
    const { document, set } = open(
      SHELL +
        '<link rel="canonical" href="https://example.com/" data-router-head="/"><meta name="robots" content="none" data-router-head="/">',
    );
    set(mergeHead([second]), '/two');
    expect(tags(document)).toEqual(['og:site_name=Shop', 'description=Two (/two)', 'og:title=Two (/two)']);
    set(mergeHead([{}]), '/');
    expect(tags(document)).toEqual(['description=shell', 'og:site_name=Shop']);
  });

  it("leaves the shell's own canonical link, unmarked, in place on a state that names none", () => {
    const { document, set } = open('<link rel="canonical" href="https://example.com/">');
    set(mergeHead([first]), '/one');
    set(mergeHead([second]), '/two');
    expect(tags(document)).toEqual(['canonical=https://example.com/', 'description=Two (/two)', 'og:title=Two (/two)']);
  });
});
