import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzz, fuzzing } from '../fuzz/runs.js';
import { browserApp, keptTabs, settled, type Watched } from './browser-app.js';
import { BROWSERS } from './browsers.js';

// Random but bounded sequences of navigate, replace, link clicks, back/forward/go, typed `#!` and
// `#anchor` changes, interleaved with slow, failing, redirecting and refused navigations, in real
// Chromium and Firefox, in both modes (the same seeds in each). Once the page is quiet the router
// must agree with the address bar: the state it names is `current`, drawn (view, data, title) and
// published (status) as that state's own, and the entry's position the router keeps is the one the
// browser's Navigation API gives.

const APP = `
import { createRoutes, redirect } from '/dist/index.js';
import { createRouter } from '/dist/client/index.js';
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const page = (location) => location.split('#')[0];
const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
  });
const view = { title: ({ location }) => page(location), render: ({ location, data }) => '<h1>' + esc(page(location)) + '</h1><p>' + esc(data?.loc ?? page(location)) + '</p>' };
const routes = createRoutes(
  [
    { path: '/', ...view },
    { path: '/p/:n', load: ({ location }) => ({ loc: page(location) }), ...view },
    { path: '/slow/:n', load: async ({ location, params, signal }) => (await wait(+params.n * 15, signal), { loc: page(location) }), ...view },
    { path: '/fail/:n', load: async ({ params, signal }) => (await wait(+params.n * 15, signal), Promise.reject(new Error('down'))), ...view },
    { path: '/r/:n', load: async ({ params, signal }) => (await wait(+params.n * 15, signal), Promise.reject(redirect('/p/' + params.n))), ...view },
    { path: '/no/:n', ...view },
  ],
  { base: '/app/', notFound: { ...view, title: ({ location }) => 'nf ' + page(location) } },
);
const router = createRouter({ routes, outlet: '#app', mode: window.MODE, error: { title: ({ location }) => 'error ' + page(location), render: ({ location }) => '<h1>error ' + esc(page(location)) + '</h1>' } });
router.beforeEach((to) => (to.path.startsWith('/no/') ? false : true));
window.router = router;
router.start();
`;

const LOCATIONS = ['/', '/p/1', '/p/2', '/p/1#a', '/slow/1', '/slow/4', '/fail/1', '/fail/3', '/r/1', '/r/4', '/no/1', '/nope'];
const where = fc.constantFrom(...LOCATIONS);
const gap = fc.constantFrom(0, 0, 5, 40);
const op = fc.oneof(
  fc.record({ op: fc.constantFrom('navigate', 'replace', 'click', 'hash'), to: where, gap }),
  fc.record({ op: fc.constant('go'), n: fc.constantFrom(-1, -1, 1, 1, -2, 2), gap }),
  fc.record({ op: fc.constant('anchor'), to: fc.constantFrom('#a', '#b'), gap }),
);
type Op = { op: string; to?: string; n?: number; gap: number };
/** At most four entries back in all: the page opens with four entries behind it, so no step leaves the case's document. */
const ops = fc.array(op, { minLength: 1, maxLength: 12 }).map((list) => {
  let back = 0;
  return list.filter((o) => o.op !== 'go' || (back += Math.max(0, -(o.n as number))) <= 4);
});

describe.each(BROWSERS)('in %s', (browser) => {
  const app = browserApp(browser, APP, { body: '<main id="app"></main><p id="a" style="margin-top:2000px">a</p><p id="b">b</p>' });
  // A tab per mode, kept while its history has room for a case: a case adds at most 17 entries (its
  // document, four navigations, a dozen steps), and past 50 Chromium drops the oldest and the
  // Navigation API's indexes shift.
  const tabs = keptTabs(app, 17, (page, mode) => page.addInitScript((m) => ((window as unknown as { MODE: string }).MODE = m), mode));

  /** Runs `list` on a document of its own in `mode`'s tab and checks the page once it is quiet. */
  async function check(mode: string, list: Op[]) {
    const t = await tabs.take(mode);
    try {
      await seeQuiet(t, list);
    } catch (error) {
      // Never reused: the next case (fast-check shrinks a failure) opens a tab of its own.
      await tabs.drop(t);
      throw error;
    }
  }

  async function seeQuiet({ page, errors, off }: Watched, list: Op[]) {
    await page.goto(app.origin + '/app/');
    await settled(page);
    const seen = await page.evaluate(
      async (list: Op[]) => {
        type R = {
          current: { location: string; notFound: boolean; error?: unknown } | null;
          navigate(to: string, o?: object): Promise<boolean>;
          href(to: string): string;
          go(n: number): void;
          settled(): Promise<void>;
        };
        const router = (window as unknown as { router: R }).router;
        const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        const quiet = async () => {
          // Settled, with the address bar unchanged for 250 ms: every traversal asked for has landed.
          // While the address bar is not the state shown, 2 s: the go() a router sends to put it back
          // took longer than 250 ms to land on a loaded machine. One that never lands still fails below.
          let last = '';
          for (let still = 0, i = 0; i < 200; i++) {
            await pause(50);
            const now = location.href + document.documentElement.dataset['routerState'];
            still = now === last && now.endsWith('settled') ? still + 1 : 0;
            last = now;
            const shown = router.current && router.href(router.current.location);
            if (still >= (location.pathname + location.search + location.hash === shown ? 5 : 40)) break;
          }
        };
        // The Navigation API's index of the entry the browser is on. Firefox 153 has said no current
        // entry (null) here with the page settled: once for a moment on a loaded machine, and once for
        // more than 2 s on an idle one (ci52). It is waited for up to 5 s; after that the browser gives
        // no position to compare (null), and the rest of the case is still checked. The router reads
        // no `currentEntry`: this is the test's own measure of where the browser is.
        const nav = (window as unknown as { navigation: { currentEntry: { index: number } | null } }).navigation;
        const index = async () => {
          for (let i = 0; i < 250 && !nav.currentEntry; i++) await pause(20);
          return nav.currentEntry?.index ?? null;
        };
        // The entry the router started on: its idx 0.
        const first = await index();
        // Four entries behind the one the sequence starts on.
        for (const to of ['/p/5', '/p/6', '/p/7', '/p/8']) await router.navigate(to);
        for (const o of list) {
          if (o.op === 'navigate') router.navigate(o.to as string).catch(() => {});
          else if (o.op === 'replace') router.navigate(o.to as string, { replace: true }).catch(() => {});
          else if (o.op === 'go') router.go(o.n as number);
          else if (o.op === 'anchor') location.hash = o.to as string;
          else if (o.op === 'hash') location.hash = '#!' + o.to;
          else {
            const a = document.createElement('a');
            a.href = router.href(o.to as string);
            document.body.append(a);
            a.click();
            a.remove();
          }
          if (o.gap) await pause(o.gap);
        }
        await quiet();
        const last = await index();
        const at = first === null || last === null ? null : last - first;
        const root = document.documentElement.dataset;
        const current = router.current;
        return {
          address: location.pathname + location.search + location.hash,
          href: current && router.href(current.location),
          location: current?.location,
          h1: document.querySelector('#app h1')?.textContent,
          data: document.querySelector('#app p')?.textContent ?? null,
          title: document.title,
          status: root['routerStatus'],
          state: root['routerState'],
          stamped: typeof (history.state as { key?: unknown } | null)?.key === 'string',
          // Where the router believes the entry is (it undoes a cancelled back by that) and where it is.
          idx: [(history.state as { idx?: number } | null)?.idx, at],
        };
      },
      // Plain copies: fast-check's records have no prototype, which WebDriver BiDi cannot send.
      list.map((o) => ({ ...o })),
    );
    const shown = (seen.location ?? '').split('#')[0] as string;
    const kind = shown.split('/')[1];
    expect(seen.state).toBe('settled');
    expect(seen.address).toBe(seen.href);
    expect(seen.stamped).toBe(true);
    // Unless the browser gave no position (Firefox, above).
    if (seen.idx[1] !== null) expect(seen.idx[0]).toBe(seen.idx[1]);
    // /no/ is never shown; /r/ always ends on its /p/.
    expect(['no', 'r']).not.toContain(kind);
    const error = kind === 'fail';
    const missing = kind === 'nope';
    expect(seen.h1).toBe(error ? 'error ' + shown : shown);
    if (!error) expect(seen.data).toBe(shown);
    expect(seen.title).toBe(error ? 'error ' + shown : missing ? 'nf ' + shown : shown);
    expect(seen.status).toMatch(error ? /^500$/ : missing ? /^404$/ : /^(200|302)$/);
    expect(errors).toEqual([]);
    expect(off).toEqual([]);
  }

  describe.each(['history', 'hashbang'])('random history sequences in %s mode', (mode) => {
    // A case is a page load and a dozen navigations, a second or two: `npm test` runs the first 8 cases
    // of the seed, `npm run fuzz` (which runs this file too) FUZZ_RUNS / 1000 of them, 20 by default.
    it(
      'end with current, the address bar, the view, the title and the status telling of one state',
      async () => {
        await fc.assert(
          fc.asyncProperty(ops, (list: Op[]) => check(mode, list)),
          fuzz(mode === 'history' ? 4101 : 4102, 8, 1000),
        );
      },
      fuzzing ? 0 : 240_000,
    );

    // Sequences the property once failed on (each a fix in src/client/router.ts).
    it.each([
      [
        'a refused navigation over a typed #!',
        [
          { op: 'hash', to: '/', gap: 0 },
          { op: 'navigate', to: '/no/1', gap: 0 },
        ],
      ],
      [
        'anchors typed over a navigation in flight',
        [
          { op: 'anchor', to: '#a', gap: 0 },
          { op: 'navigate', to: '/', gap: 0 },
          { op: 'anchor', to: '#a', gap: 0 },
          { op: 'anchor', to: '#a', gap: 40 },
          { op: 'navigate', to: '/', gap: 0 },
          { op: 'go', n: 1, gap: 0 },
        ],
      ],
      [
        'the location of a push in flight typed as #!',
        [
          { op: 'navigate', to: '/slow/4', gap: 0 },
          { op: 'hash', to: '/slow/4', gap: 0 },
        ],
      ],
      [
        'the location of a replace in flight typed as #!',
        [
          { op: 'replace', to: '/slow/4', gap: 0 },
          { op: 'hash', to: '/slow/4', gap: 0 },
        ],
      ],
      [
        'a refused #! typed again before the go() back from the first could land',
        [
          { op: 'hash', to: '/fail/3', gap: 40 },
          { op: 'anchor', to: '#a', gap: 0 },
          { op: 'hash', to: '/no/1', gap: 5 },
          { op: 'anchor', to: '#a', gap: 40 },
          { op: 'replace', to: '/slow/1', gap: 0 },
        ],
      ],
    ])('end as one state after %s', (_, list) => check(mode, list as Op[]));
  });
});
