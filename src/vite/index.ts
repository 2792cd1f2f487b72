// crawlable-router/vite: the Vite plugin. One route table, three of Vite's commands: `vite dev`
// answers bots and ugly URLs with snapshots rendered from the table as it is now (dev.ts), `vite
// build` prerenders every listed state into the build with its sitemap, robots.txt and 404 page
// (build.ts), and `vite preview` serves those snapshots to bots (preview.ts). Vite is an optional
// peer of the package: only this entry imports it, and nothing imports this entry.

import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { buildStep } from './build.js';
import { devMiddleware } from './dev.js';
import { importWithVite, previewMiddleware } from './preview.js';
import { checkOptions, routesFile, type CrawlableRouterOptions } from './options.js';
import { entryHooks, loadApp } from './views.js';

export type { CrawlableRouterOptions, PrerenderStep } from './options.js';

/**
 * The Vite plugin: snapshots for bots in `vite dev` and `vite preview`, and every listed state
 * prerendered by `vite build`. Throws SnapshotError BAD_OPTION for options that cannot work.
 */
export function crawlableRouter(options: CrawlableRouterOptions): Plugin {
  const settings = checkOptions(options);
  let config: ResolvedConfig;
  // The app a build loaded at its start (where Vite's base is checked), for its end.
  let table: ReturnType<typeof loadApp> | null = null;
  return {
    name: 'crawlable-router',
    // The module that loads the app in the dev server's module runner (views.ts).
    ...entryHooks(() => routesFile(settings, config.root)),
    configResolved(resolved) {
      config = resolved;
    },
    async configureServer(server) {
      server.middlewares.use(await devMiddleware(server, settings));
    },
    async configurePreviewServer(server) {
      server.middlewares.use(await previewMiddleware(server.config, settings));
    },
    async buildStart() {
      if (config.command !== 'build' || this.environment.config.consumer !== 'client') return;
      const file = routesFile(settings, config.root);
      table = loadApp(settings, file, config.base, importWithVite(config, file));
      // A missing module, a module with no table, or another base fails the build before bundling.
      await table;
    },
    async writeBundle(output, bundle) {
      if (config.command !== 'build' || this.environment.config.consumer !== 'client' || table === null) return;
      const page = bundle['index.html'];
      if (page?.type !== 'asset') this.error(`the build wrote no index.html, the shell every state is rendered into`);
      const shell = typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source);
      const outDir = path.resolve(config.root, output.dir ?? config.build.outDir);
      const { failures } = await buildStep(settings, await table, outDir, shell, config.logger);
      if (failures === null) return;
      if (settings.prerender === false || settings.prerender.failOnError !== false) this.error(failures);
      config.logger.warn(`crawlable-router: ${failures} (failOnError: false, so the build passes)`);
    },
  };
}
