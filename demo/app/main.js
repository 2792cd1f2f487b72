// The pushState app at /: ES modules, clean URLs, and `#!` where pushState is missing ('auto').
import { createRoutes, toUrl } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { defineRoutes } from './routes.js';

const base = '/';
const { routes, notFound, head } = defineRoutes({
  catalogue: catalogue('/data/books.json'),
  link: (location) => toUrl(location, { base }),
});
const router = createRouter({ routes: createRoutes(routes, { base, notFound, head }), base, mode: 'auto', outlet: '#app' });
void router.start();
