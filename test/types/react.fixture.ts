// Type fixtures of crawlable-router/react, compiled by `npm run typecheck`: a line marked
// `@ts-expect-error` must be an error, every other line must compile. Never run. The table of
// test/react/app.ts is the one registered for `Link` (its `declare module`).
import { createElement as h, type ReactNode } from 'react';
import { Link, Outlet, route, type ErrorViewProps, type LinkProps, type ViewProps } from '../../src/react/index.js';
import { reactRenderer } from '../../src/react/server.js';
import { createSnapshotHandler } from '../../src/server/index.js';
import { app } from '../react/app.js';

interface Book {
  id: string;
  title: string;
}
function BookPage({ data, params }: ViewProps<{ id: string }, Book>): ReactNode {
  return h('h1', null, `${data.title} ${params.id}`);
}

// A view's props are typed by the route: `data` by `load`, `params` by the path, declared apart or inline.
export const apart = route({ path: '/books/:id', load: ({ params }): Book => ({ id: params.id, title: 'Dune' }), view: BookPage });
export const inline = route({
  path: '/authors/:slug',
  load: async ({ params }) => ({ name: params.slug }),
  view: ({ data, params, query, location }) => `${data.name} ${params.slug} ${String(query['tab'])} ${location}`,
});
export const plain = route({ path: '/', view: ({ data }: ViewProps<{}, undefined>) => String(data) });

export const wrongData = route({
  path: '/authors/:slug',
  load: () => ({ name: 'Hugo' }),
  // @ts-expect-error: data has no `title`
  view: ({ data }) => data.title,
});

// @ts-expect-error: the view needs a book, and the route has no `load` to give one
export const noLoad = route({ path: '/books/:id', view: BookPage });

export const wrongLoad = route({
  path: '/books/:id',
  // @ts-expect-error: `load` gives no book, which the view needs
  load: () => ({ id: '1' }),
  view: BookPage,
});

export const wrongParams = route({
  path: '/authors/:slug',
  load: (): Book => ({ id: '1', title: 'Dune' }),
  // @ts-expect-error: the path has no `id`, which the view reads
  view: BookPage,
});

// Link's `to` and params are the registered table's, as `routes.href`'s are.
export const links: ReactNode[] = [
  h(Link, { to: 'book', params: { id: '1' } }, 'Dune'),
  h(Link, { to: 'book', params: { id: '1' }, query: { tab: 'reviews' }, className: 'a', target: '_blank' }, 'Dune'),
  h(Link, { to: 'home' }),
  // @ts-expect-error: no route is named "nope"
  h(Link, { to: 'nope' }),
  // @ts-expect-error: the book route needs `id`
  h(Link, { to: 'book', params: { slug: '1' } }),
  // @ts-expect-error: the book route needs params
  h(Link, { to: 'book' }),
  // @ts-expect-error: a Link's href is the router's, never given
  h(Link, { to: 'home', href: '/elsewhere' }),
];
export const props: LinkProps = { to: 'old', params: { id: '1' }, children: 'Old' };

// The outlet's error view gets what threw.
export const outlet = h(Outlet, { error: ({ error }: ErrorViewProps) => String(error) });

// reactRenderer is a renderer of the handler's; the tables of app() fit it and the provider.
const { routes } = app();
export const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer: reactRenderer({ routes }) });
