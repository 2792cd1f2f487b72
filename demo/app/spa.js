// The app at /spa/: its DOM is built only here, in the browser. The server has no render hooks
// for it and snapshots it by running this very script headless (headlessRenderer).
import { createRoutes, toUrl } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { defineRoutes } from './routes.js';

const base = '/spa/';
const { routes, notFound, head } = defineRoutes({
  catalogue: catalogue('/data/books.json'),
  link: (location) => toUrl(location, { base }),
});
// The routes without `render`: the views live in this file only, keyed by the route they draw.
const bare = routes.map(({ render, ...route }) => route);
const { render: notFoundView, ...bareNotFound } = notFound;
const views = new Map(routes.map((route, i) => [bare[i], route.render]));
views.set(bareNotFound, notFoundView);

const router = createRouter({ routes: createRoutes(bare, { base, notFound: bareNotFound, head }), base, mode: 'auto' });
const main = document.getElementById('app');
router.subscribe((current) => {
  const view = views.get(current.route);
  const section = document.createElement('section');
  section.innerHTML = view ? view(current) : '';
  main.replaceChildren(section);
  const title = current.route.title;
  document.title = typeof title === 'function' ? title(current) : (title ?? document.title);
});
void router.start();
