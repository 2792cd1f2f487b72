// One table of outcome cases for the client router, the hooks renderer and the headless renderer
// (plain JavaScript, so the headless test serves this very file to its page). `caseRoutes(lib)`
// builds the routes from the library it is given: the sources in Node, the UMD global in the page.

/** HTML-escapes text, as a route's `render` must. */
export const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The route table's definitions, the error view and the head defaults, from `{ notFound, redirect }`. */
export function caseRoutes({ notFound, redirect }) {
  const routes = [
    { path: '/', name: 'home', title: 'Home', render: () => '<h1>Home</h1>' },
    {
      path: '/items/:id',
      name: 'item',
      load: async ({ params }) => {
        if (params.id === 'missing') throw notFound();
        if (params.id === 'moved') throw redirect('/items/1', 301);
        if (params.id === 'elsewhere') throw redirect('https://evil.example/items/2');
        if (params.id === 'boom') throw new Error('secret internal detail');
        if (params.id === 'loop') throw redirect('/items/loop');
        return { name: `Item ${params.id}` };
      },
      title: ({ data }) => data.name,
      head: ({ data }) => ({
        meta: [
          { name: 'description', content: `About ${data.name}` },
          { property: 'og:title', content: data.name },
        ],
        jsonLd: { '@type': 'Thing', name: data.name },
      }),
      render: ({ data }) => `<h1>${esc(data.name)}</h1>`,
    },
    { path: '/old/:id', redirect: '/items/:id' },
    {
      // An access rule: it runs before load, on both sides, and ends the state as load may.
      path: '/members/:id',
      beforeLoad: async ({ params }) => {
        if (params.id === 'guest') throw redirect('/items/1');
        if (params.id === 'gone') throw notFound();
        if (params.id === 'broken') throw new Error('secret rule detail');
      },
      load: async ({ params }) => ({ name: `Member ${params.id}` }),
      title: ({ data }) => data.name,
      head: ({ data }) => ({
        meta: [{ name: 'description', content: `About ${data.name}` }],
        jsonLd: { '@type': 'Thing', name: data.name },
      }),
      render: ({ data }) => `<h1>${esc(data.name)}</h1>`,
    },
  ];
  const notFoundView = {
    title: 'Not found',
    head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
    render: ({ location }) => `<h1>Not found</h1><p>${esc(location)}</p>`,
  };
  const error = {
    title: 'Error',
    head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
    render: () => '<h1>Something went wrong</h1>',
  };
  const head = { meta: [{ name: 'description', content: 'Every item' }] };
  return { routes, notFound: notFoundView, error, head };
}

/**
 * The cases: where the state is, what status every renderer answers, where a redirect goes, and
 * what the page shows (title, description, outlet heading), with `current.notFound`/`error` on the client.
 */
export const cases = [
  { name: 'an item that exists', location: '/items/7', status: 200, title: 'Item 7', description: 'About Item 7', heading: 'Item 7' },
  {
    name: 'a missing item (load throws notFound())',
    location: '/items/missing',
    status: 404,
    title: 'Not found',
    description: 'Every item',
    heading: 'Not found',
    notFound: true,
  },
  {
    name: 'a location no route matches',
    location: '/nowhere',
    status: 404,
    title: 'Not found',
    description: 'Every item',
    heading: 'Not found',
    notFound: true,
  },
  {
    name: 'a redirect from load',
    location: '/items/moved',
    status: 301,
    redirect: '/items/1',
    title: 'Item 1',
    description: 'About Item 1',
    heading: 'Item 1',
  },
  {
    name: 'a redirect to another origin, kept on this one',
    location: '/items/elsewhere',
    status: 302,
    redirect: '/https:/evil.example/items/2',
    title: 'Not found',
    description: 'Every item',
    heading: 'Not found',
    notFound: true,
  },
  {
    name: 'a redirect route',
    location: '/old/5?x=1',
    status: 301,
    redirect: '/items/5?x=1',
    title: 'Item 5',
    description: 'About Item 5',
    heading: 'Item 5',
  },
  {
    name: 'a redirect to itself (a loop)',
    location: '/items/loop',
    // The client router gives up after 10 redirects: `navigate` rejects, nothing is committed (its own test).
    loop: true,
    status: 500,
    title: 'Error',
    description: 'Every item',
    heading: 'Something went wrong',
    error: true,
  },
  {
    name: 'a state its beforeLoad lets through',
    location: '/members/ann',
    status: 200,
    title: 'Member ann',
    description: 'About Member ann',
    heading: 'Member ann',
  },
  {
    name: 'a redirect from beforeLoad (302 unless given)',
    location: '/members/guest',
    status: 302,
    redirect: '/items/1',
    title: 'Item 1',
    description: 'About Item 1',
    heading: 'Item 1',
  },
  {
    name: 'a state its beforeLoad says is not found',
    location: '/members/gone',
    status: 404,
    title: 'Not found',
    description: 'Every item',
    heading: 'Not found',
    notFound: true,
  },
  {
    name: 'a beforeLoad that fails',
    location: '/members/broken',
    status: 500,
    title: 'Error',
    description: 'Every item',
    heading: 'Something went wrong',
    error: true,
  },
  {
    name: 'any other failure',
    location: '/items/boom',
    status: 500,
    title: 'Error',
    description: 'Every item',
    heading: 'Something went wrong',
    error: true,
  },
];
