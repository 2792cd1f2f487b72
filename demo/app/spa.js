// The app at /spa/: its DOM is built only here, in the browser. The server has no render hooks
// for it and snapshots it by running this very script headless (headlessRenderer).
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { appRoutes } from './routes.js';

const base = '/spa/';
// The routes without `render`: the views live in this file only, keyed by the route they draw.
const { routes, views } = appRoutes({
  catalogue: catalogue('/data/books.json'),
  origin: location.origin,
  base,
  mode: 'history',
  render: false,
});

const router = createRouter({ routes, base, mode: 'auto' });
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
