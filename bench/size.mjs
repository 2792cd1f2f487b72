// Minified + gzip -9 sizes: crawlable-router's entries and the peers' browser bundles, each bundled
// the way an app's bundler builds it (tree-shaken, dependencies inside, React left out for wouter).
import { budgets, bundleSize, fileSize } from '../scripts/size.mjs';

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

/** The goal of issue 17 where a case has one, else the budget `npm test` holds (scripts/size.mjs). */
const budget = (name) => budgets[name].goal ?? budgets[name].gzip;

/** Our figures, in bytes of min+gzip, with the budgets of scripts/size.mjs where a case has one. */
export const ours = {
  'codec alone': { code: budgets['the codec alone'].code, budget: budget('the codec alone') },
  'core (codec, URL forms, route table)': { code: `export * from 'crawlable-router';`, budget: null },
  'an app importing only createRouter': {
    code: budgets['an app importing only createRouter'].code,
    budget: budget('an app importing only createRouter'),
  },
  // The router does not bundle the table it is given; a real app imports both (the pattern compiler inside).
  'an app importing createRouter and createRoutes': {
    code: budgets['an app importing createRouter and createRoutes'].code,
    budget: budget('an app importing createRouter and createRoutes'),
  },
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

/** Sizes of every case: `{ name: { min, gzip, budget } }`. */
export async function runSize() {
  const out = {};
  for (const [name, { code, budget }] of Object.entries(ours)) out[`crawlable-router: ${name}`] = { ...(await bundleSize(code)), budget };
  out['crawlable-router: UMD bundle (min file)'] = {
    ...(await fileSize('dist/crawlable-router.umd.min.js')),
    budget: budget('the UMD bundle (min file)'),
  };
  for (const [name, code] of Object.entries(peers)) {
    out[name] = { ...(await bundleSize(code, { external: ['react', 'react-dom', 'react/jsx-runtime'] })), budget: null };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await runSize());
