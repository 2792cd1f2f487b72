// The pretty -> ugly -> pretty round trip: crawlable-router's codec against the mapper most servers
// write by hand, on WHATWG `URL` + `URLSearchParams` (as prerender-node's does). The naive mapper is
// also checked for correctness on the same URLs, so its speed is not mistaken for doing the job.
import { toPrettyUrl, toUglyUrl } from '../dist/index.js';
import { median, nsPerCall } from './lib/measure.mjs';

/** The baseline: what a hand-written mapper on the platform's URL classes looks like. */
export function naiveToUgly(pretty) {
  const url = new URL(pretty);
  const fragment = decodeURIComponent(url.hash.slice(2));
  url.hash = '';
  url.searchParams.append('_escaped_fragment_', fragment);
  return url.href;
}

/** The baseline's inverse. */
export function naiveToPretty(ugly) {
  const url = new URL(ugly);
  const fragment = url.searchParams.get('_escaped_fragment_') ?? '';
  url.searchParams.delete('_escaped_fragment_');
  if (fragment) url.hash = '!' + fragment;
  return url.href;
}

/** Pretty URLs of the kinds the demo and real apps produce. */
export const corpus = [
  'https://example.com/#!/books/42',
  'https://example.com/app/#!/books?q=Les%20Mis%C3%A9rables&page=2',
  'https://example.com/#!/search/C++',
  'https://example.com/#!key1=value1&key2=value2',
  'https://example.com/?user=1#!/authors/victor-hugo',
  'https://Example.COM:443/a/./b/#!/q/%25',
  'https://example.com/#!/q/日本語',
  'https://example.com/#!/books/42#reviews',
];

/** Which corpus URLs the naive mapper gets wrong, and how. */
export function naiveFaults() {
  return corpus.flatMap((url) => {
    const ugly = naiveToUgly(url);
    const back = naiveToPretty(ugly);
    const faults = [];
    if (ugly !== toUglyUrl(url)) faults.push(`ugly form ${ugly} (the scheme's is ${toUglyUrl(url)})`);
    if (back !== url) faults.push(`round trip gives ${back}`);
    return faults.length ? [{ url, faults }] : [];
  });
}

/**
 * ns per round trip, ours and the naive mapper's: their rounds alternate (ours, naive, ours, …) and
 * each figure is the median of its rounds, so a busy shared machine slows both alike.
 */
export function runCodec({ quick = false } = {}) {
  const iterations = quick ? 5000 : 50_000;
  const rounds = quick ? 5 : 9;
  const ours = [];
  const naive = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(nsPerCall((i) => toPrettyUrl(toUglyUrl(corpus[i % corpus.length])), { iterations, rounds: 1, warmup: r ? 0 : iterations }));
    naive.push(nsPerCall((i) => naivePrettyUgly(corpus[i % corpus.length]), { iterations, rounds: 1, warmup: r ? 0 : iterations }));
  }
  return { ours: median(ours), naive: median(naive) };
}

const naivePrettyUgly = (url) => naiveToPretty(naiveToUgly(url));

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(runCodec({ quick: process.argv.includes('--quick') }));
  console.log(JSON.stringify(naiveFaults(), null, 2));
}
