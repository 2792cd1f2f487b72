// `vite build` builds both halves of the app: the browser's (dist/client/, with the sitemap and
// robots.txt of the route table) and the server's (dist/server/entry-server.js, for server.mjs).
import { defineConfig } from 'vite';
import { crawlableRouter } from 'crawlable-router/vite';
import { BASE, ORIGIN } from './src/site.ts';

export default defineConfig({
  base: BASE,
  plugins: [
    // The Express server draws every state with React (server.mjs), so the build prerenders
    // nothing: the plugin checks that Vite's base is the table's and writes sitemap.xml and
    // robots.txt. In `vite dev` it answers bots with the state's view drawn by React (the routes
    // carry views), and browsers get Vite's page, which main.ts renders: the default
    // `cleanUrls: 'bots'`.
    crawlableRouter({ routes: 'src/routes.ts', origin: ORIGIN, prerender: false }),
  ],
  environments: {
    client: { build: { outDir: 'dist/client' } },
    ssr: {
      // The package stays a package on the server: one copy of it, and of React, for the routes and
      // the server's renderer.
      resolve: { external: ['crawlable-router'] },
      build: { outDir: 'dist/server', rollupOptions: { input: 'src/entry-server.ts' } },
    },
  },
  // Both environments in one `vite build`.
  builder: {},
});
