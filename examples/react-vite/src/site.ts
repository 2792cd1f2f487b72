/** Where the app is served: Vite's `base` and the route table's, one constant for both. */
export const BASE = '/app/';

/** The site's public origin, for canonical links and the sitemap. */
export const ORIGIN = 'https://example.com';
