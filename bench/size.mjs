// Minified + gzip -9 sizes: crawlable-router's entries and the peers' browser bundles, each bundled
// the way an app's bundler builds it (tree-shaken, dependencies inside, React left out for wouter),
// and one app of three routes on React written for each React router (React and ReactDOM left out).
// `node bench/size.mjs --write` measures this part alone and rewrites its section of RESULTS.md
// and its chart; `npm run bench` writes it with the rest.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { budgets, bundleSize, fileSize } from '../scripts/size.mjs';
import { fmt } from './lib/measure.mjs';
import { barChart, markdown, print } from './lib/report.mjs';

/** What an app imports from each peer to route in a browser. */
export const peers = {
  'history 5': `export { createBrowserHistory, createHashHistory } from 'history';`,
  '@nanostores/router': `export * from '@nanostores/router';`,
  'path-to-regexp 8': `export * from 'path-to-regexp';`,
  'universal-router': `export { default } from 'universal-router';`,
  wouter: `export * from 'wouter';`,
  'page.js': `export { default } from 'page';`,
  navigo: `export { default } from 'navigo';`,
};

/** The goal of issue 17 (46 for the lite client) where a case has one, else the budget `npm test` holds (scripts/size.mjs). */
const budget = (name) => budgets[name].goal ?? budgets[name].gzip;

/** A case of scripts/size.mjs: what it imports, and its goal or budget. */
const ofBudget = (name) => ({ code: budgets[name].code, budget: budget(name) });

/** Our figures, in bytes of min+gzip, with the budgets of scripts/size.mjs where a case has one. */
export const ours = {
  'codec alone': ofBudget('the codec alone'),
  'core (codec, URL forms, route table)': { code: `export * from 'crawlable-router';`, budget: null },
  'an app importing only createRouter': ofBudget('an app importing only createRouter'),
  // The router does not bundle the table it is given; a real app imports both (the pattern compiler inside).
  'an app importing createRouter and createRoutes': ofBudget('an app importing createRouter and createRoutes'),
  // The same app on the lite client (crawlable-router/client/lite): routing alone, beside page.js.
  'an app importing the lite createRouter and createRoutes': ofBudget('an app importing the lite createRouter and createRoutes'),
  // The lite app's two halves, each alone: the table any app imports, and the lite router.
  'the route table alone (createRoutes)': ofBudget('the route table alone (createRoutes)'),
  'an app importing only the lite createRouter': ofBudget('an app importing only the lite createRouter'),
  // An app that hands the router a `history` instance bundles that package too; one that does not, none of it.
  'an app passing createRouter a memory history': {
    code: `export { createRouter } from 'crawlable-router/client'; export { createMemoryHistory } from 'history';`,
    budget: null,
  },
  'an app passing createRouter a browser history': {
    code: `export { createRouter } from 'crawlable-router/client'; export { createBrowserHistory } from 'history';`,
    budget: null,
  },
};

/** What a React app's bundle leaves out: React and ReactDOM are the app's whatever routes it. */
const REACT = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];

/** The browser's modules of examples/react-vite (entry-server.ts is the server's). */
const EXAMPLE = new URL('../examples/react-vite/src/', import.meta.url);

/**
 * The example app's router share: an entry exporting every name its browser modules import from
 * the package (type imports left out), read from its sources, so the figure follows the example.
 */
export async function exampleShare() {
  const names = new Map();
  for (const file of (await readdir(EXAMPLE)).filter((name) => /\.tsx?$/.test(name) && name !== 'entry-server.ts')) {
    const text = await readFile(new URL(file, EXAMPLE), 'utf8');
    for (const [, list, from] of text.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'(crawlable-router(?:\/[\w/]+)?)'/gm)) {
      const values = list
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '));
      names.set(from, new Set([...(names.get(from) ?? []), ...values]));
    }
  }
  return [...names]
    .filter(([, values]) => values.size > 0)
    .map(([from, values]) => `export { ${[...values].sort().join(', ')} } from '${from}';`)
    .join(' ');
}

/**
 * One app on React for each router: the example's three routes (a home linking to a book, a book
 * whose loader gives its data, an about page) and a not-found view, under /app/, drawn into
 * #app. The views are one element each: the bytes are the router's and its binding's.
 */
export const threeRoutes = {
  'crawlable-router/react': `import { createElement as h } from 'react';
import { createRoutes } from 'crawlable-router';
import { createRouter } from 'crawlable-router/client';
import { Link, mount, route } from 'crawlable-router/react';
const routes = createRoutes(
  [
    route({ path: '/', name: 'home', view: () => h(Link, { to: 'book', params: { id: '1' } }, 'Dune') }),
    route({ path: '/books/:id', name: 'book', load: ({ params }) => ({ title: params.id }), view: ({ data }) => h('h1', null, data.title) }),
    route({ path: '/about', name: 'about', view: () => h('h1', null, 'About') }),
  ],
  { base: '/app/', notFound: { view: () => h('h1', null, 'Not found') } },
);
mount(document.getElementById('app'), { router: createRouter({ routes }), routes });`,
  'React Router 7 (data mode)': `import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, useLoaderData } from 'react-router';
import { RouterProvider } from 'react-router/dom';
const router = createBrowserRouter(
  [
    { path: '/', Component: () => h(Link, { to: '/books/1' }, 'Dune') },
    { path: '/books/:id', loader: ({ params }) => ({ title: params.id }), Component: () => h('h1', null, useLoaderData().title) },
    { path: '/about', Component: () => h('h1', null, 'About') },
    { path: '*', Component: () => h('h1', null, 'Not found') },
  ],
  { basename: '/app' },
);
createRoot(document.getElementById('app')).render(h(RouterProvider, { router }));`,
  'TanStack Router': `import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
const root = createRootRoute({ component: () => h(Outlet), notFoundComponent: () => h('h1', null, 'Not found') });
const home = createRoute({ getParentRoute: () => root, path: '/', component: () => h(Link, { to: '/books/$id', params: { id: '1' } }, 'Dune') });
const book = createRoute({
  getParentRoute: () => root,
  path: '/books/$id',
  loader: ({ params }) => ({ title: params.id }),
  component: () => h('h1', null, book.useLoaderData().title),
});
const about = createRoute({ getParentRoute: () => root, path: '/about', component: () => h('h1', null, 'About') });
const router = createRouter({ routeTree: root.addChildren([home, book, about]), basepath: '/app' });
createRoot(document.getElementById('app')).render(h(RouterProvider, { router }));`,
};

/** Sizes of every case: `{ name: { min, gzip, budget } }`. */
export async function runSize() {
  const out = {};
  for (const [name, { code, budget }] of Object.entries(ours)) out[`crawlable-router: ${name}`] = { ...(await bundleSize(code)), budget };
  out['crawlable-router: UMD bundle (min file)'] = {
    ...(await fileSize('dist/crawlable-router.umd.min.js')),
    budget: budget('the UMD bundle (min file)'),
  };
  const binding = budgets['the React binding (crawlable-router/react)'];
  out["crawlable-router: the React binding's own bytes (mount included)"] = {
    ...(await bundleSize(binding.code, { external: binding.external })),
    budget: budget('the React binding (crawlable-router/react)'),
  };
  out["crawlable-router: the example app's router share (examples/react-vite's imports)"] = {
    ...(await bundleSize(await exampleShare(), { external: REACT })),
    budget: null,
  };
  for (const [name, code] of Object.entries(threeRoutes))
    out[`${name}: three routes on React`] = { ...(await bundleSize(code, { external: REACT })), budget: null };
  for (const [name, code] of Object.entries(peers)) {
    out[name] = { ...(await bundleSize(code, { external: ['react', 'react-dom', 'react/jsx-runtime'] })), budget: null };
  }
  return out;
}

const APP = 'crawlable-router: an app importing createRouter and createRoutes';
const TABLE = 'crawlable-router: the route table alone (createRoutes)';
const LITE_ROUTER = 'crawlable-router: an app importing only the lite createRouter';
const LITE_GOAL = budgets['an app importing the lite createRouter and createRoutes'].goal;

/** The size figure of RESULTS.md: its title, table and notes, and its chart. */
export function sizeFigure(size) {
  const verdict = (ok) => (ok ? 'pass' : 'short');
  const app = budgets['an app importing createRouter and createRoutes'];
  return {
    title: 'Size (bytes, minified + gzip -9)',
    header: ['bundle', 'min', 'min+gz', 'budget', 'result'],
    rows: Object.entries(size).map(([name, s]) => [
      name,
      fmt(s.min),
      fmt(s.gzip),
      s.budget ? fmt(s.budget) : '',
      s.budget ? verdict(s.gzip <= s.budget) : '',
    ]),
    notes:
      "Each case is bundled as an app's production browser build bundles it (scripts/size.mjs): Rollup, node-resolve " +
      'with `browser: true`, terser, gzip -9. The package\'s "browser" field puts a first-match scan over the patterns\' ' +
      'regexps in the place of the segment index, and decodeURIComponent and encodeURIComponent in the place of UTF-8 loops, ' +
      "which a server keeps (the route matching and the codec above are the index's and the loops').\n\n" +
      'The lite client (`crawlable-router/client/lite`) is the same router without head tags beyond the title, hydration, ' +
      "the `history` adapter and reading ugly URLs; its budget's goal is issue 46's, page.js's size (4 KB), out of reach " +
      `while the contract holds: the route table alone (\`createRoutes\`, path-to-regexp 8's pattern language) is ` +
      `${fmt(size[TABLE].gzip)} B (${Math.round((size[TABLE].gzip / LITE_GOAL) * 100)}% of it) and the lite \`createRouter\` ` +
      `alone ${fmt(size[LITE_ROUTER].gzip)} B (${Math.round((size[LITE_ROUTER].gzip / LITE_GOAL) * 100)}%); page.js's ` +
      "pattern language is path-to-regexp 1's. Issue 46's goal " +
      `for the full client's app with the Navigation API tier is ${fmt(app.tierGoal)} B, nearer than issue 17's in the table: ` +
      `${fmt(size[APP].gzip)} B, ${verdict(size[APP].gzip <= app.tierGoal)}.\n\n` +
      'The React rows leave out React and ReactDOM (`react`, `react-dom`, `react-dom/client`, `react/jsx-runtime`), ' +
      "which an app on React bundles whatever routes it. The binding's own bytes are `export * from 'crawlable-router/react'` " +
      "(issue 45's goal, 1 KB). The example app's share exports every name the browser modules of examples/react-vite " +
      'import from the package, read from its sources. "Three routes on React" is one small app written for each router ' +
      "(bench/size.mjs `threeRoutes`): the example's three routes (a home linking to a book, a book whose loader gives its " +
      'data, an about page) and a not-found view under /app/, drawn into #app, each view one element. The peers are the ' +
      "versions bench/package.json pins (React Router 7 in data mode, `createBrowserRouter` and `react-router/dom`'s " +
      '`RouterProvider`; TanStack Router with code-based routes).',
    chart: barChart({
      title: 'min+gzip bytes',
      unit: 'B',
      bars: Object.entries(size).map(([label, s]) => ({ label, value: s.gzip, ours: label.startsWith('crawlable-router') })),
    }),
  };
}

/** Measures the sizes alone and rewrites their section of RESULTS.md and charts/size.svg. */
async function writeSizeSection() {
  const figure = sizeFigure(await runSize());
  print(figure.title, figure.header, figure.rows);
  const file = new URL('./RESULTS.md', import.meta.url);
  const results = await readFile(file, 'utf8');
  const start = results.indexOf(`## ${figure.title}\n`);
  if (start < 0) throw new Error(`bench/RESULTS.md has no section "${figure.title}": run npm run bench`);
  const next = results.indexOf('\n## ', start + 1);
  const alone = `This section alone: \`node bench/size.mjs --write\`, ${new Date().toISOString().slice(0, 10)}.`;
  const section = `## ${figure.title}\n\n${markdown(figure.header, figure.rows)}\n\n${figure.notes}\n\n${alone}\n`;
  await writeFile(file, results.slice(0, start) + section + (next < 0 ? '' : results.slice(next)));
  await writeFile(new URL('./charts/size.svg', import.meta.url), figure.chart);
  console.log('\nwrote the size section of bench/RESULTS.md and bench/charts/size.svg');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--write')) await writeSizeSection();
  else console.table(await runSize());
}
