// The pushState app at /: ES modules, clean URLs, and `#!` where pushState is missing ('auto').
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { appRoutes } from './routes.js';

const base = '/';
const { routes } = appRoutes({ catalogue: catalogue('/data/books.json'), origin: location.origin, base, mode: 'history' });
const router = createRouter({ routes, base, mode: 'auto', outlet: '#app' });
void router.start();
