// The catalogue's routes, shared by every app (/, /classic/, /spa/, /ssr/) and the server's
// snapshots: the same `load`, `title`, `head` and `render` on both sides, and every side builds its
// table with `appRoutes`, so none has other head defaults. A book, an author or a page of /books
// that does not exist is a 404 everywhere (`notFound()`), and the old `/book/:id` URLs redirect to
// `/books/:id` (a redirect route, 301). The four apps show one catalogue: each state's canonical
// URL is the pushState app's (docs/demo.md).
import { createRoutes, notFound, redirect, toUrl } from 'crawlable-router';
import { html } from './html.js';

const PAGE = 40;
/** The app whose URLs are the catalogue's canonical ones: the pushState app at /. */
const CANONICAL = { base: '/', mode: 'history' };
/** The image link previews show for every page, each book's included: a file of demo/public, 1200 × 630 as they want it. */
const IMAGE = { path: '/images/book.png', width: 1200, height: 630, alt: 'A closed red book with gold bands' };

/**
 * The route definitions for `createRoutes`. `catalogue(signal)` fetches the books JSON;
 * `link(location)` writes a location as this app's URL form (clean or `#!`); `origin` is the
 * site's (`https://example.com`), for absolute URLs in the head (`og:image`).
 */
export function defineRoutes({ catalogue, link, origin }) {
  const load = ({ signal }) => catalogue(signal);
  // The books a search finds (all of them without one), and the page of them `query` asks for:
  // 1 without `page`, null for a page that does not exist (and for `page=1`: that is the list itself).
  const matching = (data, q) => {
    const needle = q.toLowerCase();
    return data.books.filter(
      (b) => !q || b.title.toLowerCase().includes(needle) || (authorOf(data, b.author)?.name ?? '').toLowerCase().includes(needle),
    );
  };
  const pageOf = (query, found) => {
    if (query.page === undefined) return 1;
    const page = typeof query.page === 'string' && /^[1-9][0-9]*$/.test(query.page) ? Number(query.page) : 0;
    return page > 1 && page <= Math.ceil(found.length / PAGE) ? page : null;
  };
  const searchOf = (query) => (typeof query.q === 'string' ? query.q : '');
  // The catalogue, once it is known to hold the item `find` looks for.
  const loadOne =
    (find) =>
    async ({ params, signal }) => {
      const data = await catalogue(signal);
      if (!find(data, params)) throw notFound();
      return data;
    };
  const byAuthor = (data, slug) => data.books.filter((b) => b.author === slug);
  const authorOf = (data, slug) => data.authors.find((a) => a.slug === slug);
  const bookOf = (data, id) => data.books.find((b) => b.id === id);
  const bookItem = (data, book) =>
    html`<li>
      <a href="${link(`/books/${encodeURIComponent(book.id)}`)}">${book.title}</a>
      <span class="by">${authorOf(data, book.author)?.name ?? ''}, ${book.year}</span>
    </li>`;
  const search = (term) => link(`/books?q=${encodeURIComponent(term)}`);
  // The location of page `n` of a search (of all books when `q` is empty): the first is the list itself, with no `page`.
  const at = (q, n) => {
    const query = [q ? `q=${encodeURIComponent(q)}` : '', n > 1 ? `page=${n}` : ''].filter(Boolean).join('&');
    return query ? `/books?${query}` : '/books';
  };
  const nav = html`<nav><a href="${link('/')}">Home</a> <a href="${link('/books')}">All books</a></nav>`;

  const routes = [
    {
      path: '/',
      name: 'home',
      title: 'Crawlable Books',
      load,
      render: ({ data }) =>
        html`${nav}
          <h1>Crawlable Books</h1>
          <p>
            ${data.books.length} books by ${data.authors.length} authors. Every page here has its own URL, and a crawler gets the same page
            as you.
          </p>
          <h2>Searches</h2>
          <ul class="searches">
            ${['Les Misérables', 'C++', '日本', 'Pride & Prejudice', '100%', 'Notes on'].map(
              (term) => html`<li><a href="${search(term)}">${term}</a></li>`,
            )}
          </ul>
          <h2>Authors</h2>
          <ul class="authors">
            ${data.authors.map((a) => html`<li><a href="${link(`/authors/${a.slug}`)}">${a.name}</a></li>`)}
          </ul>
          <p>
            <a href="${link('/nowhere')}">A page that does not exist</a> ·
            <a href="${link('/books/99999')}">A book that does not exist</a> · <a href="${link('/book/3')}">An old link to a book</a>
          </p>`.text,
    },
    {
      path: '/books',
      name: 'books',
      title: ({ query }) => (searchOf(query) ? `Books matching “${searchOf(query)}”` : 'All books'),
      // A page past the last (`/books?page=99`, or `page=0`, `page=x`) is a 404 on every side, not
      // an empty list; `page=1` is the list itself, where it moves for good (one URL per state).
      load: async ({ query, signal }) => {
        const data = await catalogue(signal);
        const q = searchOf(query);
        if (pageOf(query, matching(data, q)) === null) throw query.page === '1' ? redirect(at(q, 1), 301) : notFound();
        return data;
      },
      render: ({ data, query }) => {
        const q = searchOf(query);
        const found = matching(data, q);
        const page = pageOf(query, found) ?? 1;
        const pages = Math.max(1, Math.ceil(found.length / PAGE));
        return html`${nav}
          <h1>${q ? html`Books matching “${q}”` : 'All books'}</h1>
          <p class="count">${found.length} found${pages > 1 ? html`, page ${page} of ${pages}` : ''}</p>
          <ul class="books">
            ${found.slice((page - 1) * PAGE, page * PAGE).map((b) => bookItem(data, b))}
          </ul>
          <p class="pages">
            ${page > 1 ? html`<a rel="prev" href="${link(at(q, page - 1))}">Previous</a>` : ''}
            ${page < pages ? html`<a rel="next" href="${link(at(q, page + 1))}">Next</a>` : ''}
          </p>`.text;
      },
    },
    {
      path: '/books/:id',
      name: 'book',
      entries: async () => (await catalogue()).books.map((b) => ({ id: b.id })),
      load: loadOne((data, params) => bookOf(data, params.id)),
      title: ({ params, data }) => bookOf(data, params.id).title,
      head: ({ params, data }) => {
        const book = bookOf(data, params.id);
        const author = authorOf(data, book.author)?.name ?? book.author;
        const description = `${book.title}, by ${author} (${book.year}).`;
        return {
          meta: [
            { name: 'description', content: description },
            { property: 'og:type', content: 'book' },
            { property: 'og:title', content: book.title },
            { property: 'og:description', content: description },
          ],
          jsonLd: {
            '@context': 'https://schema.org',
            '@type': 'Book',
            name: book.title,
            author: { '@type': 'Person', name: author },
            datePublished: String(book.year),
          },
        };
      },
      render: ({ params, data }) => {
        const book = bookOf(data, params.id);
        const author = authorOf(data, book.author);
        return html`${nav}
          <h1>${book.title}</h1>
          <p class="author">by <a href="${link(`/authors/${book.author}`)}">${author?.name ?? book.author}</a>, ${book.year}</p>
          <h2>More by this author</h2>
          <ul class="books">
            ${byAuthor(data, book.author)
              .filter((b) => b !== book)
              .slice(0, 5)
              .map((b) => bookItem(data, b))}
          </ul>`.text;
      },
    },
    {
      path: '/authors/:slug',
      name: 'author',
      entries: async () => (await catalogue()).authors.map((a) => ({ slug: a.slug })),
      load: loadOne((data, params) => authorOf(data, params.slug)),
      title: ({ params, data }) => authorOf(data, params.slug).name,
      head: ({ params, data }) => ({
        meta: [
          { name: 'description', content: `Books by ${authorOf(data, params.slug).name} in the catalogue.` },
          { property: 'og:title', content: authorOf(data, params.slug).name },
        ],
      }),
      render: ({ params, data }) => {
        const author = authorOf(data, params.slug);
        return html`${nav}
          <h1>${author.name}</h1>
          <p class="country">${author.country}</p>
          <ul class="books">
            ${byAuthor(data, author.slug).map((b) => bookItem(data, b))}
          </ul>`.text;
      },
    },
    // The old URL of a book: moved for good.
    { path: '/book/:id', redirect: '/books/:id' },
  ];
  const notFoundView = {
    title: 'Not found',
    head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
    render: ({ location }) =>
      html`${nav}
        <h1>Not found</h1>
        <p>Nothing lives at ${location}.</p>`.text,
  };
  // Every state's head unless it says otherwise: the picture link previews show with it too (a
  // page with Open Graph tags and no og:image is shown without one).
  const head = {
    meta: [
      { name: 'description', content: 'A catalogue of classic books whose every page has its own URL.' },
      { property: 'og:site_name', content: 'Crawlable Books' },
      { property: 'og:image', content: origin + IMAGE.path },
      { property: 'og:image:width', content: String(IMAGE.width) },
      { property: 'og:image:height', content: String(IMAGE.height) },
      { property: 'og:image:alt', content: IMAGE.alt },
      { name: 'twitter:card', content: 'summary_large_image' },
    ],
  };
  return { routes, notFound: notFoundView, head };
}

/**
 * The route table of the app at `base` (`mode`: how its links are written, `'history'` or
 * `'hashbang'`), as every client and server of every app builds it: the same routes, notFound view
 * and head defaults. Every state's canonical link names the pushState app's clean URL of it on
 * `origin`. `render: false` gives the routes without their `render` hooks (the client-only app,
 * whose server has no views): `views` then maps each route of the table to its hook.
 */
export function appRoutes({ catalogue, origin, base, mode, render = true }) {
  const { routes, notFound, head } = defineRoutes({ catalogue, origin, link: (location) => toUrl(location, { base, mode }) });
  const hooks = new Map();
  const bare = ({ render: view, ...route }) => (hooks.set(route, view), route);
  const table = createRoutes(render ? routes : routes.map(bare), {
    base,
    notFound: render ? notFound : bare(notFound),
    // The table's own spelling of the state (tracking tags dropped), at the pushState app's URL. A
    // state that is not found gets no canonical link on any side, whatever its head says.
    head: ({ location }) => {
      const match = table.match(location);
      const canonical = (match && table.canonical(match)) ?? location;
      return { ...head, link: [{ rel: 'canonical', href: origin + toUrl(canonical, CANONICAL) }] };
    },
  });
  return { routes: table, views: hooks };
}
