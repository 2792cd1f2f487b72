// Min+gzip sizes of the built files, as an app's bundler would see them: each case bundles a small
// entry that imports from dist/ (tree-shaken), minifies with terser and
// gzips at level 9, with `process.env.NODE_ENV` set to "production" as every app bundler (Vite,
// webpack, esbuild, Parcel) sets it for a production build. Holds the budgets test/size.test.ts checks and
// bench/size.mjs reports; `node scripts/size.mjs` prints the figures.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import { minify } from 'terser';
import { rollup } from 'rollup';

const dist = resolve('dist');
// The entry in memory, and `crawlable-router[/entry]` resolved to dist/ with the package's own
// "sideEffects": false applied, as an app's bundler would. The modules of dist/ import each other
// through node-resolve, which applies the package's "browser" field as an app's browser build does.
const virtual = (code) => ({
  name: 'virtual-entry',
  resolveId(id) {
    if (id === 'entry') return id;
    if (id === 'crawlable-router') return { id: `${dist}/index.js`, moduleSideEffects: false };
    if (id.startsWith('crawlable-router/')) return { id: `${dist}/${id.slice(17)}/index.js`, moduleSideEffects: false };
    return null;
  },
  load: (id) => (id === 'entry' ? code : null),
});

// What an app's production build does to `process.env.NODE_ENV` (see src/env/dev.browser.ts): Vite,
// webpack, esbuild and Parcel by themselves, Rollup with @rollup/plugin-replace.
const production = replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } });

/** Bytes of `code` bundled, minified and gzipped. */
export async function bundleSize(code, { external = [] } = {}) {
  const bundle = await rollup({
    input: 'entry',
    external,
    plugins: [virtual(code), production, nodeResolve({ browser: true }), commonjs()],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  const min = (await minify(output[0].code, { module: true, compress: { passes: 2 } })).code ?? '';
  return { min: min.length, gzip: gzipSync(min, { level: 9 }).length };
}

/** Bytes of a built file, minified as it is and gzipped. */
export async function fileSize(file) {
  const min = await readFile(file, 'utf8');
  return { min: min.length, gzip: gzipSync(min, { level: 9 }).length };
}

// The size budgets' history. Sizes of the built files, in bytes of min+gzip, bundled as an app's
// production build would (process.env.NODE_ENV "production": what src/env/dev.ts guards is dropped).
// Each budget is the size measured last plus ~30 B, so that nothing grows unnoticed.
// Issue 17's goal is 6,144 B for a real app (createRouter with createRoutes, the pattern compiler inside)
// and for the UMD bundle; both are short (bench/RESULTS.md). The codec alone and createRouter alone
// have no goal of issue 17's, only budgets.
// Measured after issue 17's three size branches (long error texts of the router, the route table,
// redirect() and the codec behind DEV; the UMD min file built for production; one UTF-8 decoder;
// a smaller commit and head merge): app 10,122 -> 9,585, UMD 10,640 -> 10,125, createRouter alone
// 5,770 -> 5,609, the codec alone 1,586 -> 1,587. Then two costs, both taken for correctness or
// speed: production errors that are never blank (+28 B) and matching's fast path for a location
// that is a path alone (+30 B): app 9,644, UMD 10,184, createRouter alone 5,620. Later fixes
// brought them to app 9,668, UMD 10,210, createRouter alone 5,649. Then path-to-regexp built in as
// an ES module (scripts/vendor.mjs), so that its match() and stringify() are dropped: app 9,298
// (-370 B), UMD 9,878 (-384 B, then +52 B for the licence notice it lacked). Then the client read
// ugly URLs without CodecError and wrote URLs through toUrl's core, paths were written without
// path-to-regexp's compile(), the segment index was built in one pass, and the texts of percent
// faults and of params of the wrong type became development-only: app 9,298 -> 8,805, UMD 9,878 ->
// 9,624, createRouter alone 5,649 -> 5,386, the codec alone 1,589 -> 1,557. Removing a server-rendered
// page's canonical link once its state is left: app 8,805 -> 8,824, UMD 9,624 -> 9,645, createRouter
// alone 5,386 -> 5,408. Taking a snapshot opened at its ugly URL for a rendered page (its head tags
// are the state's): app 8,834, UMD 9,655, createRouter alone 5,417.
// Then fixes of a hostile review: params named like Object.prototype's members (+10 B), the
// index's reading of `/feed{/:lang}.xml` (+22 B) and no href with an empty segment (+5 B), measured
// on their own: after both merges, app 8,873, UMD 9,689, createRouter alone 5,417.
// The window typed by shape (types only, 0 B) and an anchor's target scrolled only where the DOM
// has scrollIntoView (jsdom has none, +1 B): app 8,875, UMD 9,690, createRouter alone 5,418.
// Then a client pass (redundant null tests and a second scan for `#!` dropped, the UMD minifier given
// ES2020, three passes and arrows; shorter property names and shared literals measured, and worth
// nothing once gzipped): app 8,875 -> 8,837, UMD 9,690 -> 9,641, createRouter alone 5,418 -> 5,383.
// Then matching made faster for issue 17's goal 4 (params and query records that are not in
// dictionary mode +34 B, static edges compared in place and a walk that loops, a param with no
// escape not decoded): app 8,998, UMD 9,804, createRouter alone 5,383. The codec's encoder writing a
// character's UTF-8 escapes itself, not through encodeURIComponent (goal 3): the codec alone 1,557 ->
// 1,571, UMD 9,831. The UMD minifier without unsafe_arrows, which made record.ts's constructor an
// arrow (`new` on it threw in every page): UMD 9,846. The index looking for a segment's end only
// where an edge needs it (-185 instructions per match at 10 routes): app 9,036, UMD 9,886. Then the
// index reading most patterns exactly, so that their matches need no regexp (whole-segment params,
// a last group, a last wildcard; 16-36% less time per match): app 9,360, UMD 10,217. A params record
// made only for a candidate that matches: app 9,366, UMD 10,222. Then fixes of a new-user trial (a
// history option that is no history instance refused, +11 B) and of a hostile review of the browser
// side (data read from a <script> only, a state whose view hooks throw published as 500, the entry
// the address bar is on kept through back/forward races, hrefs read as the URL parser reads them,
// +119 B): app 9,495, UMD 10,341, createRouter alone 5,505. Then what a navigation nobody awaits
// threw (a back/forward, a link click) handed to `onError` or the window's reportError, where it was
// an unhandled rejection that ended a Node process on a memory history (+45 B), and a page opened at a
// malformed ugly URL published as 400, not 200 (+16 B): app 9,556, UMD 10,398, createRouter alone 5,563.
// Then a second new-user trial (a route without a title shows the shell's, as its snapshot does,
// +27 B) and a differential test of the renderers (the client's hooks given the state the server
// renders, `'` and `%27` one location, an 'all' page kept at a URL with undeclared query keys,
// +11 B): app 9,597, UMD 10,432, createRouter alone 5,605. Then no canonical link from any head layer
// on a state that is not found or failed, as on the server (a table default's was shown, +28 B):
// app 9,626, UMD 10,459, createRouter alone 5,635, each within its budget, unchanged. Then two
// savings (percentDecode reading from an index in place, with no slice and no unused end: createRouter
// alone -30 B, app -28 B, UMD -22 B, the codec +1 B; missing params tested with some(): app -9 B, UMD
// -5 B) and one cost, for correctness: head tags marked with their state's location, so a headless or
// prerendered page under cleanUrls 'all' leaves none of its first state's tags (createRouter alone
// +10 B, app +12 B, UMD +10 B): app 9,601, UMD 10,445, createRouter alone 5,615, the codec 1,572,
// the budgets unchanged. Then a match that no longer allocates an array grown by push for its
// candidates (a list reused by each walk, copied out at its length; 240 B allocated per match at
// 1000 routes where it was 340, +11 B): app 9,612, UMD 10,453, the budgets as they were. Then the
// shell's title read from a mark on <title> that every page rendered for a state carries (the hooks
// and headless renderers write it), where the data script of an 'all' page named it: a route without
// a title after a headless, prerendered or ugly-URL page shows the shell's (createRouter alone +2 B):
// app 9,614, UMD 10,454, createRouter alone 5,617. Then src/client/router.ts split for reading (what
// a rendered page gives the first navigation read in hydrate.ts, the settled outcome published from
// src/client/settled.ts): app 9,608 (-6 B), createRouter alone 5,616, UMD 10,463 (+9 B, its own
// minifier's settings), past its budget by 1 B: the UMD budget 10,462 -> 10,493. Then `jsonLd: null`
// taking the defaults' JSON-LD away, where it wrote a script of `null` (+14 B): app 9,624, UMD
// 10,476, createRouter alone 5,630. Then the pattern language read and compiled by src/routes/pattern/syntax.ts,
// to the tokens and regexps path-to-regexp 8.4 makes (test/routes/pattern/syntax.test.ts), where path-to-regexp's
// own parse() and pathToRegexp() were built in (options, a class and long error texts no production
// build reads): app 9,624 -> 9,208 (-416 B), UMD 10,476 -> 10,052 (-424 B), the budgets 9,240 and 10,085.
// Then a size hunt of 22 changes, each kept only for the bytes it saved (one split of a location
// into its parts where five places split it by hand, location.ts's regexps as literals, not built
// at load, the index built in one branch, a scroll keeper made only when the router scrolls):
// app 9,002 (-206 B), UMD 9,864 (-188 B), createRouter alone 5,534 (-96 B), the codec 1,553 (-19 B).
// Then a browser build matching by a first-match scan over the patterns' regexps, where a server
// keeps the segment index (package.json's "browser" field puts src/routes/match/matcher.browser.ts in the place of
// src/routes/match/matcher.ts; the UMD bundle is built so): app 9,002 -> 7,995 (-1,007 B), UMD 9,864 -> 8,856
// (-1,008 B), the budgets 8,025 and 8,886. A meta of `content: null` (or none) taking the defaults'
// tag with its key away, where it wrote a tag without content (+13 B): app 8,008, UMD 8,868.
// Then a browser build reading UTF-8 escapes with decodeURIComponent (src/url/utf8.browser.ts, in the
// place of src/url/utf8.ts, which a server keeps for speed): app 8,008 -> 7,867 (-141 B), UMD 8,868
// -> 8,745 (-123 B), createRouter alone 5,550 -> 5,406, the codec alone 1,553 -> 1,469; the budgets
// 7,897, 8,775, 5,436 and 1,499.
// Then src/client/router.ts split for reading (what a committed state shows is src/client/view.ts):
// app 7,895 (+28 B), UMD 8,769 (+24 B), createRouter alone 5,431 (+25 B), the budgets as they were.
// Then a hostile review's fix: the link handler strips an href's C0 controls and spaces in linear
// time, where a click on a link holding 64 kB of spaces froze the tab for 3 s (+10 B): app 7,905,
// UMD 8,781, createRouter alone 5,443; the budgets 7,935, 8,811 and 5,473.
// Then two costs for correctness: a pattern past the engine's limits a RouteError, not a RangeError
// (+21 B), and the settled event carrying what a failed load threw, so that a headless 500 says why
// (+6 B): app 7,932, UMD 8,812, createRouter alone 5,453; the budgets 7,962, 8,842 and 5,483. The
// router's development checks of its options and of a navigate target are 0 B in production.
// Then a size hunt of what an app bundled only because it shares code with the codec's public API:
// an ugly URL's fragment read with cleanDecode, no PercentFault (-122 B), a redirect route's 301
// made with no check of its status (-49 B), a lone surrogate's index found in development only
// (-22 B); and one path where there were two (an ugly URL read as its pretty URL -11 B, an empty
// ugly value decoded as any other -7 B, a location's anchor found by the codec's endOf -5 B): app
// 7,932 -> 7,716 (-216 B), UMD 8,812 -> 8,788 (-24 B), createRouter alone 5,453 -> 5,297 (-156 B),
// the codec alone 1,469 -> 1,436 (-33 B); the budgets 7,746, 8,818, 5,327 and 1,466.
// Then a size hunt of the client (view, head, hydration): leftovers of earlier designs (a page answered
// 404 by its own branch, '' read as the drawn location of a page at an ugly URL, readPage's tuple) and
// shorter head rules (a key read from a tag's fields, JSON-LD of null dropped as a meta of no content,
// a key looked up with some()): app 7,716 -> 7,632 (-84 B), UMD 8,788 -> 8,695 (-93 B), createRouter
// alone 5,297 -> 5,211 (-86 B); the budgets 7,662, 8,725, 5,241 and 1,466.
// Then three fixes of a hostile review of the `history` adapter (src/client/history.ts): the entry an
// app's own listener writes during the router's write is routed, where the router showed the state it
// had written over the entry the instance was on; an entry a browser history did not write (`default`,
// the key of every such entry) is a new one, where it took the position of another; at most 1,000
// entries remembered, where every navigation's state stayed alive: app 7,632 -> 7,707 (+75 B), UMD
// 8,695 -> 8,773 (+78 B), createRouter alone 5,210 -> 5,288 (+78 B); the budgets 7,737, 8,803 and 5,318.
// Then a navigation whose write a blocker of the instance refused (`history.block`) committed nothing
// where it showed a state the instance never reached: app 7,729 (+22 B), UMD 8,794 (+21 B), createRouter
// alone 5,305 (+17 B); the budgets 7,759, 8,824 and 5,335.
// Then a structural size hunt: a browser build writes the codec's UTF-8 escapes with
// encodeURIComponent (src/url/utf8.browser.ts, beside its decodeURIComponent reader), where a server
// keeps the loop that writes them itself, and the codec hands the encoder the set of characters it
// keeps, not a table of 256 escapes built at load: UMD 8,695 -> 8,528 (-167 B), the codec alone
// 1,436 -> 1,271 (-165 B), an app 0 B (it bundles no encoder); the budgets 8,558 and 1,301.
// Then the pattern's tokens kept leaner than path-to-regexp's: text a string and a group an array,
// where both were objects with a `type` to compare (params and wildcards as they were): app 7,632 ->
// 7,584 (-48 B), UMD 8,528 -> 8,485 (-43 B), createRouter alone 0 B; the budgets 7,614 and 8,515.
// Both merged with the review's fixes above and a redirect loop's error published (+17 B): app 7,701,
// UMD 8,598, createRouter alone 5,330, the codec alone 1,271; the budgets 7,731, 8,628, 5,360 and 1,301.
// Then a destroyed router is final: navigate(), start() and redirects write nothing (app +21 B, to
// 7,722), and back(), forward() and go() move no history (+7 B): app 7,729, UMD 8,622, createRouter
// alone 5,357; the budgets unchanged. Then the router scrolls after its subscribers, once what they
// queued has run (a React app drawing from useSyncExternalStore lost its back/forward position and
// its anchor; +10 B): app 7,739, UMD 8,631, createRouter alone 5,366; the budgets 7,769, 8,661, 5,396.
// Alongside, the eleventh hostile review: a route's declared query keys kept in the order it declares them,
// so that every order of them is one state (one render, one cache entry, one canonical URL), where each
// order was a state with a canonical link naming itself: app 7,722 -> 7,744 (+22 B), UMD 8,615 -> 8,638
// (+23 B), createRouter alone 0 B; the budgets 7,774 and 8,668.
// Both merged: app 7,760, UMD 8,653, createRouter alone 5,366; the budgets 7,790, 8,683 and 5,396.
// Then the scrolls of states committed in one go (a subscriber that moves to an anchor at once, or
// two navigate() calls to routes with no load): the microtask put the inner state's scroll first and
// the page ended at the top, not the anchor. A commit now runs the scroll still pending from the one
// before it, then saves the entry it leaves, and only the last commit's microtask scrolls: app 7,796
// (+36 B), UMD 8,699 (+46 B), createRouter alone 5,405 (+39 B); the budgets 7,826, 8,729 and 5,435.
// Then head tags a layer gives one key several times (Open Graph arrays: og:locale:alternate,
// og:image, article:tag), of which only the last was written: each layer's tags are grouped by key
// and a group replaces an earlier layer's: app 7,829 (+33 B), UMD 8,731 (+32 B), createRouter alone
// 5,450 (+45 B); the budgets 7,859, 8,761 and 5,480.
// Alongside, the thirteenth hostile review: a push stamps again the entry it leaves when another script wrote
// that entry's history.state over (replaceState(null, '', url), as tags taking utm_ out of a URL do),
// where a back to it was a new entry, its position off, and a refused back from there left the address
// bar on the state before the one shown: app 7,828 (+32 B), UMD 8,729 (+30 B), createRouter alone
// 5,436 (+31 B); the budgets 7,858, 8,759 and 5,466.
// Both merged: app 7,863, UMD 8,761, createRouter alone 5,481; the budgets 7,893, 8,791 and 5,511.
// Tracking tags out of every state and Open Graph derived in document.head: app 8,126 (+263 B), UMD
// 9,029 (+268 B), createRouter alone 5,643 (+162 B); the budgets 8,156, 9,059 and 5,673.
// routes.locations() leaves out the states of noindex routes (issue 42): +19 B app and UMD. The
// router's document read through its prototype (a Proxy made once per router), so that a page's
// named elements (`<img name="querySelector">`, `<form name="head">`) shadow none of what it calls:
// +74 B app, +68 B UMD, +72 B createRouter alone. The fourteenth hostile review: the router compares
// a URL it reads as the table reads it (without tracking tags): +13 B. All merged: app 8,232, UMD 9,135,
// createRouter alone 5,730; the budgets 8,262, 9,165 and 5,760.
// Then issue 42's hooks context on the client: `beforeLoad` before `load`, `origin`, and `location`
// the canonical spelling (the view given the match, to find the state's own marks): app 8,290
// (+58 B), UMD 9,188 (+53 B), createRouter alone 5,782 (+52 B); the budgets 8,320, 9,218 and 5,812.
// Then issue 44's names for the router's state and steps (navigation kinds and History API levels
// compared by name, never by truthiness; the anchor-only and status checks as helpers; `address.entry`):
// app 8,310 (+20 B), UMD 9,211 (+23 B), createRouter alone 5,805 (+23 B); the budgets unchanged.
/**
 * The size budgets `npm test` holds (test/size.test.ts) and `npm run bench` reports beside issue 17's
 * goals (bench/size.mjs): what an app imports (null: the built UMD file), the budget in bytes of
 * min+gzip, and the issue's goal where it has one.
 */
export const budgets = {
  'the codec alone': {
    code: `export { toUglyUrl, toPrettyUrl, isPrettyUrl, isUglyUrl, escapeFragment, unescapeFragment, CodecError } from 'crawlable-router';`,
    gzip: 1301,
    goal: null,
  },
  'an app importing only createRouter': { code: `export { createRouter } from 'crawlable-router/client';`, gzip: 5812, goal: null },
  'an app importing createRouter and createRoutes': {
    code: `export { createRouter } from 'crawlable-router/client'; export { createRoutes } from 'crawlable-router';`,
    gzip: 8320,
    goal: 6144,
  },
  'the UMD bundle (min file)': { code: null, gzip: 9218, goal: 6144 },
};

export const cases = {
  'codec alone': budgets['the codec alone'].code,
  'core (codec, URL forms, route table)': `export * from 'crawlable-router';`,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, code] of Object.entries(cases)) console.log(name, await bundleSize(code));
  console.log('UMD min', await fileSize('dist/crawlable-router.umd.min.js'));
}
