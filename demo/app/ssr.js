// The server-rendered app at /ssr/ (cleanUrls: 'all'): every clean URL arrives as the rendered
// page with the state's data in it; the router's first navigation takes that data instead of
// fetching the catalogue and leaves the server's outlet as it is. Later navigations load as usual.
import { createRoutes, toUrl } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { defineRoutes } from './routes.js';

const base = '/ssr/';
const { routes, notFound } = defineRoutes({ catalogue: catalogue('/data/books.json'), link: (location) => toUrl(location, { base }) });
const router = createRouter({ routes: createRoutes(routes, { base, notFound }), base, mode: 'auto', outlet: '#app' });
void router.start();
