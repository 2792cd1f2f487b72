// One route table for the browser, the Express server and the Vite plugin (its sitemap and its
// snapshots in `vite dev`).
import { createRoutes, notFound } from 'crawlable-router';
import { route } from 'crawlable-router/react';
import { BASE } from './site';
import { bookIds, getBook } from './books';
import { About, BookPage, Home, NotFound } from './views';

export const routes = createRoutes(
  [
    route({ path: '/', name: 'home', title: 'Books', view: Home }),
    route({
      path: '/books/:id',
      name: 'book',
      entries: () => bookIds().map((id) => ({ id })),
      async load({ params, signal }) {
        const book = await getBook(params.id, signal);
        if (!book) throw notFound(); // the NotFound view, with 404 on the server
        return book;
      },
      title: ({ data }) => data.title,
      head: ({ data }) => ({ meta: [{ name: 'description', content: `${data.title}, by ${data.author}` }] }),
      view: BookPage,
    }),
    route({ path: '/about', name: 'about', title: 'About', view: About }),
  ],
  { base: BASE, notFound: { title: 'Not found', view: NotFound } },
);

// Registers the table for Link's types: `to` and `params` are checked against it.
declare module 'crawlable-router/react' {
  interface Register {
    routes: typeof routes;
  }
}
