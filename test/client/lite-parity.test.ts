import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzz, fuzzing } from '../fuzz/runs.js';
import { browserApp, keptTabs, settled, type Watched } from './browser-app.js';

// crawlable-router/client/lite against crawlable-router/client in real Chromium, where the Navigation
// API tier is on: the same app (a table with no head, so that nothing the lite client leaves out is
// asked for) runs on each entry in a tab of its own, and both tabs take the same random sequence of
// navigations (navigate, replace, link and `<area>` clicks, GET forms, `location.assign`, typed `#!`
// and `#anchor`s, back/forward/go, scrolling), through guards, `beforeLoad` and `load` outcomes,
// redirects, notFound and errors. After each step, once each page is quiet, both must show the same:
// `router.current`, the address bar, the outlet, the title, the settled attributes and events, the
// scroll position, the head tags marked for a state, and the session history.

const APP = `
import { createRoutes, redirect, notFound } from '/dist/index.js';
const { createRouter } = await import(window.LITE ? '/dist/client/lite.js' : '/dist/client/index.js');
window.marker = 'first document';
const events = (window.events = []);
addEventListener('crawlable-router:settled', ({ detail: d }) =>
  events.push([d.location, d.status, d.redirect ?? null, d.error ? String(d.error.message ?? d.error) : null]));
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
  });
const view = { title: ({ location }) => 't ' + location, render: ({ location, data }) => '<h1>' + esc(location) + '</h1><p>' + esc(JSON.stringify(data ?? null)) + '</p>' };
const routes = createRoutes(
  [
    { path: '/', ...view },
    { path: '/p/:n', load: ({ params }) => ({ n: params.n }), ...view },
    { path: '/slow/:n', load: async ({ params, signal }) => (await wait(+params.n * 20, signal), { slow: params.n }), ...view },
    { path: '/fail/:n', load: async () => Promise.reject(new Error('down')), ...view },
    { path: '/r/:n', load: async () => Promise.reject(redirect('/p/7')), ...view },
    { path: '/nf/:n', load: () => Promise.reject(notFound()), ...view },
    { path: '/bl/:n', beforeLoad: ({ params }) => { if (params.n === '1') throw redirect('/p/8', 301); if (params.n === '2') throw notFound(); }, load: () => 'loaded', ...view },
    { path: '/no/:n', ...view },
    { path: '/g/:n', ...view },
    { path: '/old/:n', redirect: '/p/:n' },
    { path: '/untitled', render: () => '<h1>untitled</h1>' },
    { path: '/search', render: ({ query }) => '<h1>search ' + esc(query.q) + '</h1>' },
  ],
  { base: '/app/', queryKeys: ['q'], notFound: { title: ({ location }) => 'nf ' + location, render: ({ location }) => '<h1>nf ' + esc(location) + '</h1>' } },
);
const router = createRouter({
  routes,
  outlet: '#app',
  mode: window.MODE,
  error: { title: ({ location }) => 'error ' + location, render: ({ error }) => '<h1>error ' + esc(error.message) + '</h1>' },
  onError: (error) => events.push(['onError', String(error?.message ?? error)]),
});
router.beforeEach((to) => (to.path.startsWith('/no/') ? false : to.path.startsWith('/g/') ? '/p/9' : true));
window.router = router;
router.start();
`;

/** Tall: every position scrolls; the anchors far down, an image map and a form to take. */
const BODY = `
<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" usemap="#map" width="500" height="20" alt="">
<map name="map"></map>
<main id="app"></main>
<p id="a" style="margin-top:3000px">a</p><p id="b" style="margin-top:1500px;margin-bottom:3000px">b</p>`;
/** A shell whose head carries tags a server rendered for the state `/` (marked), and a shell tag. */
const HEAD =
  '<meta name="description" content="shell"><link rel="canonical" href="http://x/app/" data-router-head="/"><meta name="robots" content="noindex" data-router-head="/p/1">';

const LOCATIONS = [
  '/',
  '/p/1',
  '/p/2',
  '/p/1#a',
  '/p/2#b',
  '/slow/1',
  '/slow/4',
  '/fail/1',
  '/r/1',
  '/nf/1',
  '/bl/1',
  '/bl/2',
  '/bl/3',
  '/no/1',
  '/g/1',
  '/old/3',
  '/untitled',
  '/nope',
  '/search?q=x',
];
const where = fc.constantFrom(...LOCATIONS);
type Op =
  | { op: 'navigate' | 'replace' | 'link' | 'bang-link' | 'area' | 'assign' | 'hash'; to: string }
  | { op: 'twice'; to: string; then: string }
  | { op: 'form'; q: string }
  | { op: 'anchor' | 'anchor-link'; id: string }
  | { op: 'go'; n: number }
  | { op: 'scroll'; y: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('navigate', 'replace', 'link', 'bang-link', 'area', 'assign', 'hash' as const), to: where }),
  fc.record({ op: fc.constant('twice' as const), to: where, then: where }),
  fc.record({ op: fc.constant('form' as const), q: fc.constantFrom('a b', 'x+y', '') }),
  fc.record({ op: fc.constantFrom('anchor' as const, 'anchor-link' as const), id: fc.constantFrom('a', 'b') }),
  fc.record({ op: fc.constant('go' as const), n: fc.constantFrom(-1, -1, 1, 1, -2, 2) }),
  fc.record({ op: fc.constant('scroll' as const), y: fc.constantFrom(0, 700, 2500) }),
);
/** At most three entries back in all: a case opens with three entries behind its start, so no step leaves its document. */
const ops = fc.array(op, { minLength: 1, maxLength: 10 }).map((list) => {
  let back = 0;
  return list.filter((o) => o.op !== 'go' || (back += Math.max(0, -o.n)) <= 3);
});

/** Where a case's page opens: clean and `#!` URLs, an anchor, outcomes, refused and redirected states. */
const starts = fc.constantFrom(
  '/app/',
  '/app/p/2',
  '/app/#!/p/2',
  '/app/p/1#a',
  '/app/nope',
  '/app/old/3',
  '/app/g/1',
  '/app/no/1',
  '/app/fail/1',
  '/app/bl/1',
  '/app/bl/2',
  '/app/r/1',
);

/** Starts `o` in the page (in a task of its own, so that the evaluation returns before any unload). */
function act(o: Op) {
  type R = { navigate(to: string, options?: object): Promise<boolean>; href(to: string): string; go(n: number): void };
  const router = (window as unknown as { router: R }).router;
  const click = (el: HTMLElement) => (document.body.append(el), el.click(), el.remove());
  const link = (href: string) => Object.assign(document.createElement('a'), { href });
  const bang = (to: string) => '/app/#!' + to;
  setTimeout(() => {
    if (o.op === 'navigate') void router.navigate(o.to).catch(() => {});
    else if (o.op === 'replace') void router.navigate(o.to, { replace: true }).catch(() => {});
    else if (o.op === 'twice') {
      void router.navigate(o.to).catch(() => {});
      void router.navigate(o.then).catch(() => {});
    } else if (o.op === 'link') click(link(router.href(o.to)));
    else if (o.op === 'bang-link') click(link(bang(o.to)));
    else if (o.op === 'area') {
      const map = document.querySelector('map') as HTMLMapElement;
      const area = Object.assign(document.createElement('area'), { href: router.href(o.to), shape: 'default' });
      map.append(area);
      area.click();
      area.remove();
    } else if (o.op === 'assign') location.assign(router.href(o.to));
    else if (o.op === 'hash') location.hash = '#!' + o.to;
    else if (o.op === 'form') {
      const form = Object.assign(document.createElement('form'), { action: '/app/search' });
      form.append(Object.assign(document.createElement('input'), { name: 'q', value: o.q }));
      document.body.append(form);
      form.requestSubmit();
      form.remove();
    } else if (o.op === 'anchor') location.hash = '#' + o.id;
    else if (o.op === 'anchor-link') click(link('#' + o.id));
    else if (o.op === 'go') router.go(o.n);
    else if (o.op === 'scroll') scrollTo(0, o.y);
  });
}

/** Once the page is quiet (settled, the address bar still for a while), what it shows. */
async function seen() {
  type R = {
    current: { location: string; state: unknown; data: unknown; error?: unknown; notFound?: boolean } | null;
    href(to: string): string;
  };
  const router = (window as unknown as { router: R }).router;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let last = '';
  for (let still = 0, i = 0; i < 200; i++) {
    await pause(30);
    const now = location.href + document.documentElement.dataset['routerState'] + scrollY;
    still = now === last && now.endsWith('settled' + scrollY) ? still + 1 : 0;
    last = now;
    const shown = router.current && router.href(router.current.location);
    if (still >= (location.pathname + location.search + location.hash === shown ? 6 : 40)) break;
  }
  const current = router.current;
  const root = document.documentElement.dataset;
  const entry = history.state as { idx?: number } | null;
  return {
    marker: (window as { marker?: string }).marker,
    location: current?.location ?? null,
    data: JSON.stringify(current?.data ?? null),
    error: current?.error === undefined ? null : String((current.error as Error).message),
    address: location.pathname + location.search + location.hash,
    outlet: document.getElementById('app')?.innerHTML,
    title: document.title,
    settled: [root['routerState'], root['routerStatus'], root['routerRedirect'] ?? null],
    events: (window as unknown as { events: unknown[] }).events.splice(0),
    scroll: [scrollX, scrollY],
    // But the robots noindex the full client writes at a state not found or failed, which the lite
    // one leaves out with the head tags (docs/api/client.md): the one robots meta marked at such a state.
    head: [...document.head.querySelectorAll('meta,link')]
      .filter((el) => !(current && (current.notFound || current.error !== undefined) && el.matches('meta[name=robots][data-router-head]')))
      .map((el) => el.outerHTML),
    length: history.length,
    idx: entry?.idx ?? null,
  };
}

describe('the lite client against the full one in Chromium (Navigation API tier)', () => {
  const app = browserApp('chromium', APP, { head: HEAD, body: BODY });
  // A tab per mode and client, kept while its history has room for a case: its document, three
  // navigations and up to ten steps of at most two entries each.
  const tabs = keptTabs(app, 24, (page, key) => {
    const [mode, client] = key.split(' ');
    return page.addInitScript(([m, lite]) => Object.assign(window, { MODE: m, LITE: lite }), [mode, client === 'lite'] as const);
  });

  /** Opens the app in `mode` on both clients, takes each step on both and compares what they show after each. */
  async function check(mode: string, start: string, list: Op[]) {
    const pair: Watched[] = [];
    try {
      for (const client of ['full', 'lite']) pair.push(await tabs.take(`${mode} ${client}`));
      const each = <R>(f: (t: Watched) => Promise<R>) => Promise.all(pair.map(f)) as Promise<[R, R]>;
      await each(async ({ page }) => {
        await page.goto(app.origin + '/app/');
        await settled(page);
        // The case's first state, as a typed or followed URL (a new entry).
        await page.evaluate((url) => (location.href = url), app.origin + start);
        await settled(page);
        await page.evaluate(async () => {
          const router = (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router;
          for (const to of ['/p/5', '/p/6', '/p/1']) await router.navigate(to);
        });
      });
      let [full, lite] = await each(({ page }) => page.evaluate(seen));
      expect(lite).toEqual(full);
      for (const o of list) {
        await each(({ page }) => page.evaluate(act, { ...o }));
        [full, lite] = await each(({ page }) => page.evaluate(seen));
        expect({ step: o, ...lite }).toEqual({ step: o, ...full });
        // Every step stays in the document: the router took each navigation over.
        expect(full.marker).toBe('first document');
      }
      for (const t of pair) expect([t.errors, t.off]).toEqual([[], []]);
    } catch (error) {
      for (const t of pair) await tabs.drop(t);
      throw error;
    }
  }

  describe.each(['history', 'hashbang'])('in %s mode', (mode) => {
    it(
      'show the same page after every step of random sequences',
      async () => {
        await fc.assert(
          fc.asyncProperty(starts, ops, (start, list) => check(mode, start, list)),
          fuzz(mode === 'history' ? 4701 : 4702, 6, 1000),
        );
      },
      fuzzing ? 0 : 240_000,
    );
  });
});
