// crawlable-router/react: a thin React binding over the client router. A route's `view` drawn with
// its data (`Outlet`), `current` as React state (`useCurrent`), links in the router's URL form
// (`Link`), and `mount`, which hydrates a page the server rendered with crawlable-router/react/server.

export { Link, Outlet, RouterProvider, route, useCurrent, useRouter } from './binding.js';
export type {
  ErrorViewProps,
  LinkProps,
  LinkTarget,
  OutletProps,
  ReactRouteDefinition,
  Register,
  RegisteredRoute,
  RouterProviderProps,
  ViewProps,
} from './binding.js';
export { mount } from './mount.js';
