// Route matching at 10, 100 and 1000 routes: crawlable-router's table against find-my-way and rou3
// (radix trees), a first-match scan over path-to-regexp 8, universal-router, page.js and navigo.
// Every router gets the same realistic table in its own syntax (shared prefixes, params, optional
// groups, wildcards) and the same list of paths, hits and misses spread over the whole table.
import { createRequire } from 'node:module';
import FindMyWay from 'find-my-way';
import Navigo from 'navigo';
import { match as ptrMatch } from 'path-to-regexp';
import { addRoute, createRouter as createRou3, findRoute } from 'rou3';
import UniversalRouter from 'universal-router/sync';
import { createRoutes } from '../dist/index.js';
import { median, nsPerCall } from './lib/measure.mjs';

const require = createRequire(import.meta.url);
const page = require('page');

/** N routes as five shapes per resource; `style` writes one route in a router's own syntax. */
function table(n) {
  const routes = [];
  for (let k = 0; routes.length < n; k++) {
    routes.push(
      { kind: 'static', k, parts: [`res${k}`] },
      { kind: 'param', k, parts: [`res${k}`, ':id'] },
      { kind: 'nested', k, parts: [`res${k}`, ':id', 'comments', ':comment'] },
      { kind: 'optional', k, parts: [`res${k}`, ':id', 'edit'] },
      { kind: 'wildcard', k, parts: [`files${k}`] },
    );
  }
  return routes.slice(0, n);
}

/** The paths asked: for every resource a hit of each shape and two misses, in a fixed shuffle. */
function paths(n) {
  const out = [];
  for (let k = 0; k < Math.ceil(n / 5); k++) {
    out.push(
      `/res${k}`,
      `/res${k}/42`,
      `/res${k}/42/comments/7`,
      `/res${k}/42/edit`,
      `/res${k}/42/edit/advanced`,
      `/files${k}/a/b/c.txt`,
      `/res${k}/42/unknown`,
      `/nope${k}/x`,
    );
  }
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const v8 = (r) =>
  r.kind === 'optional'
    ? `/${r.parts.join('/')}{/:section}`
    : r.kind === 'wildcard'
      ? `/${r.parts.join('/')}/*path`
      : `/${r.parts.join('/')}`;
// Routers without optional groups get the two spellings of an optional route.
const expand = (r, optional, wildcard) =>
  r.kind === 'optional'
    ? [`/${r.parts.join('/')}`, `/${r.parts.join('/')}/${optional}`]
    : r.kind === 'wildcard'
      ? [`/${r.parts.join('/')}/${wildcard}`]
      : [`/${r.parts.join('/')}`];

const routers = {
  'crawlable-router': (routes) => {
    const t = createRoutes(routes.map((r) => ({ path: v8(r) })));
    return (p) => t.match(p);
  },
  'find-my-way': (routes) => {
    const fmw = FindMyWay();
    for (const r of routes) for (const p of expand(r, ':section', '*')) fmw.on('GET', p, () => {});
    return (p) => fmw.find('GET', p);
  },
  rou3: (routes) => {
    const router = createRou3();
    for (const r of routes) for (const p of expand(r, ':section', '**:path')) addRoute(router, 'GET', p, r);
    return (p) => findRoute(router, 'GET', p);
  },
  'path-to-regexp 8 (scan)': (routes) => {
    const fns = routes.map((r) => ptrMatch(v8(r)));
    return (p) => {
      for (const f of fns) {
        const m = f(p);
        if (m) return m;
      }
      return null;
    };
  },
  'universal-router': (routes) => {
    const router = new UniversalRouter(
      routes.map((r) => ({ path: v8(r), action: (c) => c.params })),
      { errorHandler: () => null },
    );
    return (p) => router.resolve(p);
  },
  'page.js': (routes) => {
    const instance = page.create();
    for (const r of routes) for (const p of expand(r, ':section?', '*')) instance(p, (ctx) => (ctx.found = true));
    // page.js's own dispatch: its callbacks in order, each route's middleware calling next() on a miss.
    return (p) => {
      const ctx = { path: p, params: {}, found: false };
      const callbacks = instance.callbacks;
      let i = 0;
      const next = () => {
        const fn = callbacks[i++];
        if (fn) fn(ctx, next);
      };
      next();
      return ctx.found;
    };
  },
  navigo: (routes) => {
    const router = new Navigo('/', { noMatchWarning: true });
    for (const r of routes) for (const p of expand(r, ':section', '*')) router.on(p, () => {});
    return (p) => router.match(p);
  },
};

/**
 * ns per match for every router at every size: `{ [router]: { [size]: ns } }`. Every (router, size)
 * pair is built and warmed first, then timed once per round, the rounds interleaving all pairs so
 * that neither JIT order nor a burst of load on a shared machine falls on one router; the median
 * round of at least five is reported.
 */
export function runMatch({ sizes = [10, 100, 1000], quick = false, rounds = quick ? 5 : 9 } = {}) {
  const cases = [];
  for (const [name, build] of Object.entries(routers)) {
    for (const n of sizes) {
      const match = build(table(n));
      const list = paths(n);
      const slow = name === 'navigo' || name === 'page.js' || name === 'universal-router';
      const iterations = quick ? (slow && n >= 100 ? 300 : 5000) : slow && n >= 1000 ? 2000 : 20_000;
      const fn = (i) => match(list[i % list.length]);
      nsPerCall(fn, { iterations, rounds: 1 });
      cases.push({ name, n, fn, iterations, times: [] });
    }
  }
  for (let r = 0; r < Math.max(5, rounds); r++) {
    for (const c of cases) c.times.push(nsPerCall(c.fn, { iterations: c.iterations, rounds: 1, warmup: 0 }));
  }
  const results = {};
  for (const c of cases) (results[c.name] ??= {})[c.n] = median(c.times);
  return results;
}

/** Checks the routers agree on which paths hit, so the race is over the same work. */
export function agreement(n = 100) {
  const list = paths(n);
  const hits = {};
  for (const [name, build] of Object.entries(routers)) {
    const match = build(table(n));
    hits[name] = list.filter((p) => {
      const m = match(p);
      return Array.isArray(m) ? m.length > 0 : Boolean(m);
    }).length;
  }
  return hits;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('hits per router', agreement());
  console.table(runMatch({ quick: process.argv.includes('--quick') }));
}
