// crawlable-router/react/server: the route table's React views rendered on the server, as a
// `SnapshotRenderer` for createSnapshotHandler. The hooks renderer runs the state's hooks (data,
// title, head, status, redirects, hydration data: RenderJob.hooks); this file only draws the
// outlet, with react-dom/server's renderToString, through the same `RouterProvider` and `Outlet`
// the browser hydrates. A separate entry, so that react-dom/server never reaches a browser bundle.

import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { AnyRoute, RouteTable } from '../index.js';
import { toUrl } from '../url/location.js';
import type { SnapshotRenderer } from '../server/index.js';
import { Outlet, RouterProvider, type RouterProviderProps } from './binding.js';

/** Options of `reactRenderer`. */
export interface ReactRendererOptions {
  /** The route table (the handler's): `Link` builds its locations from it, the outlet its views' `location`. */
  routes: RouteTable<AnyRoute>;
}

/**
 * A renderer for `createSnapshotHandler({ renderer })` (and `prerender`) that draws the state's
 * `view` with React into the shell's outlet, around the route hooks' title, head, status and
 * redirects. Views render synchronously (`renderToString`): data comes from `load`. Inside, the
 * router is a stand-in with `mode`, `current`, `href` and `subscribe`: `Link` writes the URLs
 * crawlers are told.
 */
export function reactRenderer(options: ReactRendererOptions): SnapshotRenderer {
  // Checked here, not at the first request: a `reactRenderer()` without the table would otherwise
  // fail every render with a TypeError from inside the outlet ("reading 'resolve'"). A TypeError,
  // as below: a SnapshotError would make this entry import the whole server at run time.
  const routes = (options as Partial<ReactRendererOptions> | null | undefined)?.routes;
  if (!routes || typeof routes.resolve !== 'function')
    throw new TypeError("reactRenderer({ routes }): routes must be the route table from createRoutes(), the handler's");
  return {
    async render(job) {
      if (!job.hooks) throw new TypeError('reactRenderer renders the jobs of createSnapshotHandler, which carry the route hooks');
      const { base, mode } = job.settings;
      return job.hooks(({ route, context, notFound }) => {
        const current = { ...routes.resolve(job.location, {}), route: route ?? {}, notFound, data: context.data, state: undefined };
        const router = { mode, current, href: (to: string) => toUrl(to, { base, mode }), subscribe: () => () => {} };
        return renderToString(
          createElement(RouterProvider, { router: router as unknown as RouterProviderProps['router'], routes }, createElement(Outlet)),
        );
      });
    },
  };
}
