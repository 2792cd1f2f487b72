// The catalogue's routes, shared by the pushState app (/), the #! app on the UMD bundle
// (/classic/) and the server's snapshots: the same `load`, `title` and `render` on both sides.
import { html } from './html.js';

const PAGE = 40;

/**
 * The route definitions for `createRoutes`. `catalogue(signal)` fetches the books JSON;
 * `link(location)` writes a location as this app's URL form (clean or `#!`).
 */
export function defineRoutes({ catalogue, link }) {
  const load = ({ signal }) => catalogue(signal);
  const byAuthor = (data, slug) => data.books.filter((b) => b.author === slug);
  const authorOf = (data, slug) => data.authors.find((a) => a.slug === slug);
  const bookItem = (data, book) =>
    html`<li><a href="${link(`/books/${encodeURIComponent(book.id)}`)}">${book.title}</a> <span class="by">${authorOf(data, book.author)?.name ?? ''}, ${book.year}</span></li>`;
  const search = (term) => link(`/books?q=${encodeURIComponent(term)}`);
  // What a link preview shows: the description and og:title, in every state's head.
  const card = (title, description) => ({ meta: [{ name: 'description', content: description }, { property: 'og:title', content: title }] });
  const nav = html`<nav><a href="${link('/')}">Home</a> <a href="${link('/books')}">All books</a></nav>`;

  const routes = [
    {
      path: '/',
      name: 'home',
      title: 'Crawlable Books',
      head: ({ data }) => card('Crawlable Books', `${data.books.length} books by ${data.authors.length} authors; every page has its own URL.`),
      load,
      render: ({ data }) => html`${nav}<h1>Crawlable Books</h1>
<p>${data.books.length} books by ${data.authors.length} authors. Every page here has its own URL, and a crawler gets the same page as you.</p>
<h2>Searches</h2><ul class="searches">${['Les Misérables', 'C++', '日本', 'Pride & Prejudice', '100%', 'Notes on'].map(
        (term) => html`<li><a href="${search(term)}">${term}</a></li>`,
      )}</ul>
<h2>Authors</h2><ul class="authors">${data.authors.map((a) => html`<li><a href="${link(`/authors/${a.slug}`)}">${a.name}</a></li>`)}</ul>
<p><a href="${link('/nowhere')}">A page that does not exist</a></p>`.text,
    },
    {
      path: '/books',
      name: 'books',
      title: ({ query }) => (typeof query.q === 'string' && query.q ? `Books matching “${query.q}”` : 'All books'),
      head: ({ query }) => card(typeof query.q === 'string' && query.q ? `Books matching “${query.q}”` : 'All books', 'Books of the catalogue, 40 a page.'),
      load,
      render: ({ data, query }) => {
        const q = typeof query.q === 'string' ? query.q : '';
        const page = Math.max(1, Number.parseInt(typeof query.page === 'string' ? query.page : '1', 10) || 1);
        const needle = q.toLowerCase();
        const found = data.books.filter((b) => !q || b.title.toLowerCase().includes(needle) || (authorOf(data, b.author)?.name ?? '').toLowerCase().includes(needle));
        const pages = Math.max(1, Math.ceil(found.length / PAGE));
        const at = (n) => link(`/books?${q ? `q=${encodeURIComponent(q)}&` : ''}page=${n}`);
        return html`${nav}<h1>${q ? html`Books matching “${q}”` : 'All books'}</h1>
<p class="count">${found.length} found${pages > 1 ? html`, page ${Math.min(page, pages)} of ${pages}` : ''}</p>
<ul class="books">${found.slice((page - 1) * PAGE, page * PAGE).map((b) => bookItem(data, b))}</ul>
<p class="pages">${page > 1 ? html`<a rel="prev" href="${at(page - 1)}">Previous</a>` : ''} ${page < pages ? html`<a rel="next" href="${at(page + 1)}">Next</a>` : ''}</p>`.text;
      },
    },
    {
      path: '/books/:id',
      name: 'book',
      entries: async () => (await catalogue()).books.map((b) => ({ id: b.id })),
      title: ({ params, data }) => data.books.find((b) => b.id === params.id)?.title ?? 'No such book',
      head: ({ params, data }) => {
        const book = data.books.find((b) => b.id === params.id);
        return book ? card(book.title, `${book.title}, by ${authorOf(data, book.author)?.name ?? book.author}, ${book.year}.`) : card('No such book', `There is no book number ${params.id}.`);
      },
      load,
      render: ({ params, data }) => {
        const book = data.books.find((b) => b.id === params.id);
        if (!book) return html`${nav}<h1>No such book</h1><p>There is no book number ${params.id}.</p>`.text;
        const author = authorOf(data, book.author);
        return html`${nav}<h1>${book.title}</h1>
<p class="author">by <a href="${link(`/authors/${book.author}`)}">${author?.name ?? book.author}</a>, ${book.year}</p>
<h2>More by this author</h2><ul class="books">${byAuthor(data, book.author).filter((b) => b !== book).slice(0, 5).map((b) => bookItem(data, b))}</ul>`.text;
      },
    },
    {
      path: '/authors/:slug',
      name: 'author',
      entries: async () => (await catalogue()).authors.map((a) => ({ slug: a.slug })),
      title: ({ params, data }) => authorOf(data, params.slug)?.name ?? 'No such author',
      head: ({ params, data }) => {
        const author = authorOf(data, params.slug);
        return author ? card(author.name, `Books by ${author.name} (${author.country}).`) : card('No such author', `Nobody here is called ${params.slug}.`);
      },
      load,
      render: ({ params, data }) => {
        const author = authorOf(data, params.slug);
        if (!author) return html`${nav}<h1>No such author</h1><p>Nobody here is called ${params.slug}.</p>`.text;
        return html`${nav}<h1>${author.name}</h1><p class="country">${author.country}</p>
<ul class="books">${byAuthor(data, author.slug).map((b) => bookItem(data, b))}</ul>`.text;
      },
    },
  ];
  const notFound = {
    title: 'Not found',
    head: () => card('Not found', 'Nothing lives at this address.'),
    render: ({ location }) => html`${nav}<h1>Not found</h1><p>Nothing lives at ${location}.</p>`.text,
  };
  return { routes, notFound };
}
