// crawlable-router/client: the browser router. pushState with a `#!` fallback over the same route
// table the snapshot server uses. Builds on the core; never on the server.

export { createRouter } from './router.js';
export type {
  Current,
  ErrorContext,
  ErrorView,
  Guard,
  GuardResult,
  Listener,
  NavigateOptions,
  Router,
  RouterMode,
  RouterHistory,
  RouterOptions,
  RouterWindow,
  Target,
} from './types.js';
