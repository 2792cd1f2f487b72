// The server-rendered app at /ssr/ (cleanUrls: 'all'): every clean URL arrives as the rendered
// page with the state's data in it; the router's first navigation takes that data instead of
// fetching the catalogue and leaves the server's outlet as it is. Later navigations load as usual.
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { appRoutes } from './routes.js';

const base = '/ssr/';
const { routes } = appRoutes({ catalogue: catalogue('/data/books.json'), origin: location.origin, base, mode: 'history' });
const router = createRouter({ routes, base, mode: 'auto', outlet: '#app' });
void router.start();
