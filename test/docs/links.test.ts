import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link of the repository's pages lands: the file it names exists, and the anchor it
// names is a heading of that file as GitHub spells its id. Pages are split and headings renamed, and
// a link into them that no longer lands is found here, not by a reader.

/** The pages: every .md file of the repository's root and of docs/, its folders too. */
function pages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? under(file) : entry.name.endsWith('.md') ? [file] : [];
    });
  return [...readdirSync('.').filter((name) => name.endsWith('.md')), ...under('docs')];
}

/** The text without fenced code blocks, whose `#` lines are no headings and whose brackets are no links. */
const prose = (markdown: string): string => markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/**
 * A heading's id as GitHub writes it: the heading's text (a link's text, not its URL), in lower case,
 * with every character but letters, digits, spaces, hyphens and underscores dropped, and each space a
 * hyphen. `seen` counts the ids so far: a repeated one gets `-1`, `-2`….
 */
function slug(heading: string, seen: Map<string, number>): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  const base = text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** The anchors a page has: its headings' ids, and the ids and names of its own HTML anchors. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const text = prose(markdown);
  const headings = [...text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)].map((m) => slug(m[1] as string, seen));
  const html = [...text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)].map((m) => m[1] as string);
  return new Set([...headings, ...html]);
}

/** Every link of a page that names no scheme: inline ones and reference definitions, outside code. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown).replace(/(`+)[^`][\s\S]*?\1/g, '');
  const inline = [...text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((m) => m[1] as string);
  return [...inline, ...defined].filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

const anchors = new Map<string, Set<string>>();
const anchorsOfFile = (file: string): Set<string> => {
  let found = anchors.get(file);
  if (found === undefined) anchors.set(file, (found = anchorsOf(readFileSync(file, 'utf8'))));
  return found;
};

/** What is wrong with `href` on `page`, or null when it lands. */
function broken(page: string, href: string): string | null {
  const hash = href.indexOf('#');
  const target = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(href.slice(hash + 1));
  const file = target === '' ? page : path.normalize(path.join(path.dirname(page), decodeURI(target)));
  if (!existsSync(file)) return `${page} links to ${href}: no file ${file}`;
  if (anchor === null || anchor === '' || !file.endsWith('.md') || statSync(file).isDirectory()) return null;
  return anchorsOfFile(file).has(anchor) ? null : `${page} links to ${href}: no heading of ${file} has the id "${anchor}"`;
}

describe("the pages' links", () => {
  it('spells ids as GitHub does', () => {
    const seen = new Map<string, number>();
    const ids = [
      '`crawlable-router` (isomorphic: no DOM, no Node)',
      "Vite's `base` and the route table's",
      'Logged-in visitors: `request` and `beforeLoad`',
      '`_escaped_fragment_`',
      'Attacks of the fifth review (the server side)',
      'Attacks of the fifth review (the server side)',
      'See [api.md](docs/api.md) — café',
    ].map((heading) => slug(heading, seen));
    expect(ids).toEqual([
      'crawlable-router-isomorphic-no-dom-no-node',
      'vites-base-and-the-route-tables',
      'logged-in-visitors-request-and-beforeload',
      '_escaped_fragment_',
      'attacks-of-the-fifth-review-the-server-side',
      'attacks-of-the-fifth-review-the-server-side-1',
      'see-apimd--café',
    ]);
  });

  it('finds links outside code only, and the headings of a page', () => {
    const page =
      '# A\n\n```md\n# Not a heading\n[x](nowhere.md)\n```\n\n## B `c`\n\nSee [b](#b-c), `[y](nor-here.md)` and [ext](https://x.test/#q).\n';
    expect(linksOf(page)).toEqual(['#b-c']);
    expect([...anchorsOf(page)]).toEqual(['a', 'b-c']);
  });

  it('every relative link names a file of the repository, and an anchor a heading of it', () => {
    const problems = pages().flatMap((page) =>
      linksOf(readFileSync(page, 'utf8'))
        .map((href) => broken(page, href))
        .filter((problem) => problem !== null),
    );
    expect(problems).toEqual([]);
  });
});
