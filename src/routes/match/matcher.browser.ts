// The browser's matcher: every pattern tested in declaration order, path-to-regexp's own first-match
// scan. The package's "browser" field puts this file in the place of matcher.ts, so an app's
// bundler (Vite, webpack, esbuild, Rollup, Parcel) ships a page no segment index: a page matches
// once per navigation, where a server matches on every request, and the index was the biggest part
// of every app. Both give the same route and params for every path (test/fuzz/routes.test.ts).

import { regexpParams, type CompiledRoute, type CreateMatcher } from '../pattern/compile.js';

/** The matcher of a browser: each pattern's regexp, in declaration order. */
export const createMatcher: CreateMatcher = (compiled, _sensitive, hit) => (path, at) => {
  for (let id = 0; id < compiled.length; id++) {
    const params = regexpParams(compiled[id] as CompiledRoute, path);
    if (params) return hit(id, params, at);
  }
  return null;
};
