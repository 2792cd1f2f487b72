// The #! app at /classic/: the same routes, forced into hashbang mode, on the UMD bundle's global
// `CrawlableRouter` (this file is bundled as a classic script with that global as its import).
import { createRoutes, toUrl } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { defineRoutes } from './routes.js';

const base = '/classic/';
const { routes, notFound, head } = defineRoutes({
  catalogue: catalogue('/data/books.json'),
  link: (location) => toUrl(location, { base, mode: 'hashbang' }),
});
const router = createRouter({ routes: createRoutes(routes, { base, notFound, head }), base, mode: 'hashbang', outlet: '#app' });
void router.start();
