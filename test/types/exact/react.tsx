// The React binding under `"exactOptionalPropertyTypes": true`: Link's params and query, Outlet's
// error view and the routes' fields given values that may be undefined. Compiled against the built
// types by test/types/exact.test.ts; never run. Every line must compile.
import type { ReactNode } from 'react';
import { createRoutes } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { Link, Outlet, RouterProvider, route, type ErrorViewProps, type ViewProps } from 'crawlable-router/react';
import { reactRenderer } from 'crawlable-router/react/server';
import { createSnapshotHandler } from 'crawlable-router/server';

const maybe = <T,>(value: T): T | undefined => (process.env['UNSET'] === undefined ? undefined : value);

function Book({ data, params }: ViewProps<{ id: string }, { title: string }>): ReactNode {
  return (
    <h1>
      {data.title} {params.id}
    </h1>
  );
}
function Failed({ error }: ErrorViewProps): ReactNode {
  return <p>{String(error)}</p>;
}

const book = route({ path: '/books/:id', name: 'book', title: maybe('Book'), load: () => ({ title: 'Dune' }), view: Book });
const list = route({
  path: '/books{/:page}',
  name: 'list',
  queryKeys: maybe(['sort']),
  view: ({ params }) => <ul data-page={params.page} />,
});
export const routes = createRoutes([book, list]);

declare module 'crawlable-router/react' {
  interface Register {
    routes: typeof routes;
  }
}

export function App({ page, sort }: { page?: string | undefined; sort?: string | undefined }): ReactNode {
  return (
    <RouterProvider router={createRouter({ routes, outlet: maybe(null) })} routes={routes}>
      <Link to="book" params={{ id: '1' }} query={maybe({ tab: 'reviews' })} className={maybe('link')}>
        Dune
      </Link>
      <Link to="list" params={{ page }} query={{ sort }}>
        Books
      </Link>
      <Link to="list" params={maybe({ page: '2' })}>
        Page 2
      </Link>
      <Outlet error={maybe(Failed)} />
    </RouterProvider>
  );
}

export const handler = createSnapshotHandler({ routes, origin: 'https://example.com', renderer: reactRenderer({ routes }) });
