// The browser's start of a React app on the router: the router started, then its state drawn into
// the outlet element, hydrating what the server rendered there for that very state (`cleanUrls:
// 'all'`, crawlable-router/react/server), else rendered anew.

import { createElement } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { RENDERED_ATTRIBUTE } from '../contract/hydration.js';
import { Outlet, RouterProvider, served, type RouterProviderProps } from './binding.js';

/**
 * Starts the router (its first navigation takes a server-rendered page's data instead of calling
 * `load`), waits until it settled, and draws `children` (default `<Outlet />`) inside a
 * `RouterProvider` into `element`: `hydrateRoot` when the server rendered the current state into
 * it (the element's `data-router-rendered` mark names that state), else `createRoot`. Resolves to
 * the React root.
 */
export async function mount(element: Element, { router, routes, children = createElement(Outlet) }: RouterProviderProps): Promise<Root> {
  await router.start();
  await router.settled();
  const app = createElement(RouterProvider, { router, routes }, children);
  const current = router.current;
  const mark = element.getAttribute(RENDERED_ATTRIBUTE);
  if (current && mark === routes.stateOf(current.location)) {
    // React hydrates the state as the server drew it (no anchor, no history state), then the router's
    // current one: a navigation may commit before hydration runs, in a later task.
    served.set(router, { ...current, location: mark, hash: '', state: undefined });
    return hydrateRoot(element, app);
  }
  const root = createRoot(element);
  root.render(app);
  return root;
}
