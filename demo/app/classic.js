// The #! app at /classic/: the same routes, forced into hashbang mode, on the UMD bundle's global
// `CrawlableRouter` (this file is bundled as a classic script with that global as its import).
import { createRouter } from 'crawlable-router/client';
import { catalogue } from './catalogue.js';
import { appRoutes } from './routes.js';

const base = '/classic/';
const { routes } = appRoutes({ catalogue: catalogue('/data/books.json'), origin: location.origin, base, mode: 'hashbang' });
const router = createRouter({ routes, base, mode: 'hashbang', outlet: '#app' });
void router.start();
