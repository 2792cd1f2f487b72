// Type fixtures, compiled by `npm run typecheck` (tsconfig.json includes test/): a line marked
// `@ts-expect-error` must be an error, every other line must compile. Never run.
import { createRouter, type RouterWindow } from '../../src/client/index.js';
import { createRoutes, notFound, redirect, route, type Head, type HookContext, type RouteDefinition } from '../../src/index.js';

// `data` in title, head and render is what `load` returns (load written before them; see the README).
export const book = route({
  path: '/books/:id',
  name: 'book',
  load: async ({ params }) => {
    if (params.id === '0') throw notFound();
    return { name: `Book ${params.id}` };
  },
  title: ({ data, params }) => `${data.name} ${params.id}`,
  head: ({ data }): Head => ({ meta: [{ name: 'description', content: data.name }], jsonLd: { '@type': 'Book', name: data.name } }),
  render: ({ data }) => data.name.toUpperCase(),
});

// Every hook knows where it is and, on the server, for whom: `params` typed by the path in `beforeLoad` too.
export const ruled = route({
  path: '/teams/:team',
  beforeLoad: ({ params, request, origin }) => {
    const team: string = params.team;
    if (!request?.headers.get('cookie')) throw redirect(`/login?next=${encodeURIComponent(origin + '/teams/' + team)}`);
  },
  // @ts-expect-error: beforeLoad gives no data
  title: ({ data }) => data.name,
});
export const where = (context: HookContext<{ team: string }>): string => context.origin + context.location + context.params.team;

// The name stays its literal; data is never inferred from a hook that reads it.
export const named: RouteDefinition<'/books/:id', { name: string }, 'book'> = book;

export const wrongData = route({
  path: '/x',
  load: () => ({ name: 'x' }),
  // @ts-expect-error: data has no `title`
  title: ({ data }) => data.title,
});

export const wrongParam = route({
  path: '/authors/:slug',
  // @ts-expect-error: the path has no `id`
  render: ({ params }) => params.id,
});

export const table = createRoutes(
  [book, { path: '/old/:id', redirect: '/books/:id' }, { path: '/legacy', redirect: ({ query }) => `/books/${String(query['id'])}` }],
  {
    head: ({ location }) => ({ link: [{ rel: 'alternate', hreflang: 'x-default', href: location }] }),
  },
);

// @ts-expect-error: a redirect function gives a location
createRoutes([{ path: '/bad', redirect: () => 42 }]);

// A table of route() routes checks href's name and params at compile time.
const author = route({ path: '/authors/:slug', name: 'author' });
const home = route({ path: '/', name: 'home' });
const files = route({ path: '/files/*path', name: 'files' });
export const typed = createRoutes([book, author, home, files]);
typed.href('book', { id: '1' });
typed.href('author', { slug: 'hugo' }, { tab: 'books' });
typed.href('home');
typed.href('files', { path: ['a', 'b'] });
// @ts-expect-error: no route is named "nope"
typed.href('nope');
// @ts-expect-error: the book route needs `id`
typed.href('book', { slug: '1' });
// @ts-expect-error: the book route needs params
typed.href('book');
// @ts-expect-error: a wildcard takes an array of segments
typed.href('files', { path: 'a' });

// A table with inline routes keeps typed params in its hooks, and a loose href.
export const inline = createRoutes([{ path: '/q/:term', name: 'q', render: ({ params }) => params.term.toUpperCase() }]);
inline.href('anything', { term: 'x' });

// Both kinds of table drive the client router and the server.
export const routers = (window: RouterWindow) => [createRouter({ routes: typed, window }), createRouter({ routes: inline, window })];

// Any DOM window is a router's window: the global one, and another frame's, typed `Window` alone.
export const frames = (frame: HTMLIFrameElement) => [
  createRouter({ routes: typed, window }),
  createRouter({ routes: typed, window: frame.contentWindow ?? window }),
  // @ts-expect-error: an object that is no window
  createRouter({ routes: typed, window: { location: window.location } }),
];

// A guard or a subscriber reads the route's name, whichever route it is (the notFound route has none).
export const guarded = (window: RouterWindow) => {
  const router = createRouter({ routes: typed, window });
  router.beforeEach((to) => to.route.name !== 'book');
  router.subscribe((current) => console.log(current.route.name === 'home'));
};
