// Minified + gzip -9 sizes: crawlable-router's entries and the peers' browser bundles, each bundled
// the way an app's bundler builds it (tree-shaken, dependencies inside, React left out for wouter).
import { bundleSize, fileSize } from '../scripts/size.mjs';

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

/**
 * Our figures, in bytes of min+gzip. `budget` is issue 17's goal where it has one (6,144 B for a real
 * app and for the UMD bundle); the codec alone and createRouter alone have none and hold the
 * budgets of test/size.test.ts, so that they do not grow.
 */
export const ours = {
  'codec alone': {
    code: `export { toUglyUrl, toPrettyUrl, isPrettyUrl, isUglyUrl, escapeFragment, unescapeFragment, CodecError } from 'crawlable-router';`,
    budget: 1587,
  },
  'core (codec, URL forms, route table)': { code: `export * from 'crawlable-router';`, budget: null },
  'an app importing only createRouter': { code: `export { createRouter } from 'crawlable-router/client';`, budget: 5447 },
  // The router does not bundle the table it is given; a real app imports both (path-to-regexp inside).
  'an app importing createRouter and createRoutes': {
    code: `export { createRouter } from 'crawlable-router/client'; export { createRoutes } from 'crawlable-router';`,
    budget: 6 * 1024,
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
  out['crawlable-router: UMD bundle (min file)'] = { ...(await fileSize('dist/crawlable-router.umd.min.js')), budget: 6 * 1024 };
  for (const [name, code] of Object.entries(peers)) {
    out[name] = { ...(await bundleSize(code, { external: ['react', 'react-dom', 'react/jsx-runtime'] })), budget: null };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await runSize());
