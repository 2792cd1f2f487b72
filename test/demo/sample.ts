// The pages of the demo's crawl tests that are checked one in eight. The client-only app (/spa/)
// has no views on its server: each of its states a crawler fetches is rendered headless, in a page
// process of its own that takes about a second of CPU to start (happy-dom's modules); its 222 book
// and author pages took most of the two crawl tests' seven minutes on two cores. They are two routes,
// each page the same code on other data, and the other apps render every one of them from the
// same route table (demo/app/routes.js): the crawl tests fetch one in eight of them in /spa/ (and
// check one in eight of every app's in Chromium), and every other state of every app: each route,
// each outcome (200, the deliberate 404s, the 301 of an old URL), each page of /books, each search.
import { readFileSync } from 'node:fs';

const data = JSON.parse(readFileSync('demo/public/data/books.json', 'utf8')) as { books: { id: string }[]; authors: { slug: string }[] };

/** One in eight of the book pages and of the author pages, as app locations: the first, the ninth, … */
const SAMPLE = new Set([
  ...data.books.filter((_, i) => i % 8 === 0).map((book) => `/books/${book.id}`),
  ...data.authors.filter((_, i) => i % 8 === 0).map((author) => `/authors/${author.slug}`),
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
