// Type fixtures for createRouter's options beyond the window (windows.fixture.ts), compiled by `npm
// run typecheck`. A line marked `@ts-expect-error` must be an error. Never run.
import { createRouter, type ErrorContext } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';

const routes = createRoutes([{ path: '/' }]);

// An error view's hooks are methods, as a route's are: one may take its context as narrower than
// the router's (`error` read as an Error), which a function-typed property would refuse.
export const errorViews = () => [
  createRouter({
    routes,
    error: {
      title: 'Failed',
      render: (context: ErrorContext & { error: Error }) => `<p>${context.error.message}</p>`,
      head: (context: ErrorContext & { error: Error }) => ({ meta: [{ name: 'description', content: context.error.name }] }),
    },
  }),
  // @ts-expect-error: a render must give the outlet's HTML
  createRouter({ routes, error: { render: () => 42 } }),
  // Given as undefined, as a spread of optional settings gives them.
  createRouter({ routes, error: { render: undefined, head: undefined } }),
];
