// The book and author pages the demo's crawl tests fetch in the client-only app and check in
// Chromium. Each state of the client-only app (/spa/) a crawler fetches is rendered headless, in a
// page process of its own (most of a second of CPU), and each check in Chromium loads a state twice;
// each app has 222 book and author pages. They are two routes, each page the same code on other
// data, and the other apps render every one of them from the same route table (demo/app/routes.js).
// What differs from page to page is the text: so the sample is a page for each kind of text the
// catalogue holds (ASCII, accented Latin, Japanese, Cyrillic, &, +, %), and the last book and author.
// The crawl tests fetch every other state of every app: each route, each outcome (200, the
// deliberate 404s, the 301 of an old URL), each page of /books, each search.
import { readFileSync } from 'node:fs';

const data = JSON.parse(readFileSync('demo/public/data/books.json', 'utf8')) as {
  books: { id: string; title: string }[];
  authors: { slug: string; name: string }[];
};

/** The kinds of text a title or a name may hold, each escaped its own way somewhere on its way to a page. */
const KINDS = [/^[\x20-\x7e]*$/, /[\u00c0-\u024f]/, /[\u3040-\u9fff]/, /[\u0400-\u04ff]/, /&/, /\+/, /%/];

/** The first of `items` whose text is of each kind, and the last of them. */
function byKind<T>(items: T[], text: (item: T) => string): T[] {
  const found = KINDS.map((kind) => items.find((item) => kind.test(text(item))));
  return [...found, items.at(-1)].filter((item): item is T => item !== undefined);
}

/** The sampled book and author pages, as app locations. */
export const SAMPLE = new Set([
  ...byKind(data.books, (book) => book.title).map((book) => `/books/${book.id}`),
  ...byKind(data.authors, (author) => author.name).map((author) => `/authors/${author.slug}`),
]);
/** Every book page and author page of the catalogue, as app locations (not a book that does not exist). */
const MANY = new Set([...data.books.map((book) => `/books/${book.id}`), ...data.authors.map((author) => `/authors/${author.slug}`)]);

/** The app location of a demo URL's path (and fragment): `/spa/books/9`, `/classic/#!/books/9` and `/books/9` are `/books/9`. */
function appLocation(path: string): string {
  const inApp = path.replace(/^\/(classic|spa|ssr)(?=\/)/, '');
  return inApp.startsWith('/#!') ? inApp.slice(3) || '/' : inApp.replace(/#.*$/, '');
}

/** True for the path of a book or author page (one of the hundreds) that the sample leaves out. */
export function leftOut(path: string): boolean {
  const location = appLocation(path);
  return MANY.has(location) && !SAMPLE.has(location);
}

/**
 * robots.txt rules that keep Googlebot off the client-only app's pages the sample leaves out, for
 * `startDemo({ disallow })`: each `/spa/books/2$` (that page alone, not /spa/books/20).
 */
export const SPA_LEFT_OUT = [...MANY].filter((location) => !SAMPLE.has(location)).map((location) => `/spa${location}$`);
