// The app the React binding's tests share: a table of `route()` routes with views (plain
// createElement, as the binding itself is written), and loads counted, so a test can tell which
// side ran them. The table is registered for `Link`'s types (test/types/react.fixture.ts).
import { createElement as h, useState, type ReactNode } from 'react';
import { createRoutes, notFound, redirect } from '../../src/index.js';
import { Link, route, useCurrent, useRouter, type ErrorViewProps, type ViewProps } from '../../src/react/index.js';

/** A book as `load` gives it. */
export interface Book {
  id: string;
  title: string;
}

const TITLES: Record<string, string> = { '1': 'Dune', '2': 'Emma' };

/** The home view: a link to the first book. */
export function Home(): ReactNode {
  return h('main', null, h('h1', null, 'Books'), h(Link, { to: 'book', params: { id: '1' }, id: 'first' }, 'Dune'));
}

/** A book's view: its data and location, a link onward, and state of its own (a live React tree once hydrated). */
export function BookPage({ data, params, location }: ViewProps<{ id: string }, Book>): ReactNode {
  const [likes, setLikes] = useState(0);
  const router = useRouter();
  return h(
    'article',
    null,
    h('h1', null, data.title),
    h('p', { id: 'where' }, `${params.id} at ${location} (${router.mode})`),
    h('button', { id: 'like', onClick: () => setLikes(likes + 1) }, `Liked ${likes}`),
    h(Link, { to: 'book', params: { id: '2' }, query: { tab: 'reviews' }, id: 'next', className: 'next' }, 'Next'),
  );
}

/** The about view: what `useCurrent()` reads, as a breadcrumb would draw it. */
export function About(): ReactNode {
  const current = useCurrent();
  return h('p', { id: 'here' }, `${String(current?.location)} ${String(current?.hash)}`);
}

/** The error view `<Outlet error>` takes. */
export const Failed = ({ error, location }: ErrorViewProps): ReactNode => h('p', { role: 'alert' }, `${String(error)} at ${location}`);

/** The app: its table (base `base`) and the locations whose `load` ran. */
export function app(base = '/') {
  const loads: string[] = [];
  const routes = createRoutes(
    [
      route({ path: '/', name: 'home', title: 'Books', view: Home }),
      route({
        path: '/books/:id',
        name: 'book',
        queryKeys: ['tab'],
        load: ({ params }): Book => {
          loads.push(params.id);
          const title = TITLES[params.id];
          if (title === undefined) throw notFound();
          return { id: params.id, title };
        },
        title: ({ data }) => data.title,
        head: ({ data }) => ({ meta: [{ name: 'description', content: `About ${data.title}` }] }),
        view: BookPage,
      }),
      route({ path: '/about', name: 'about', title: 'About', view: About }),
      route({ path: '/old/:id', name: 'old', redirect: '/books/:id' }),
      route({
        path: '/moved',
        name: 'moved',
        load: () => {
          throw redirect('/books/2');
        },
      }),
      route({
        path: '/broken',
        name: 'broken',
        load: () => {
          throw new Error('the database is down');
        },
        view: () => h('p', null, 'never'),
      }),
    ],
    { base, notFound: { title: 'Not found', view: (): ReactNode => h('h1', null, 'Nothing here') } },
  );
  return { routes, loads };
}

declare module '../../src/react/binding.js' {
  interface Register {
    routes: ReturnType<typeof app>['routes'];
  }
}
