import { toUrl } from '../../src/index.js';
import { needDist, serveApp, settled, watchedPage, type AppServer, type Watched } from './browser-app.js';
import { launch, type BrowserName, type Session } from './browsers.js';

// The app the hostile review of the browser side attacks (test/client/attacks.test.ts), and its
// visits in a real browser (Chromium or Firefox): one tab per mode shared by the tests, each visit on
// a document of its own.

/** The app under attack: a table of the routes a hostile URL reaches, on base `/app/`, in `window.MODE`. */
export const APP = `
import { createRoutes, redirect } from '/dist/index.js';
import { createRouter } from '/dist/client/index.js';
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
  });
const routes = createRoutes(
  [
    { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
    {
      path: '/books/:id',
      title: ({ params }) => 'Book ' + params.id,
      head: ({ params, query }) => ({
        meta: [{ name: 'description', content: params.id }, { property: 'og:title', content: String(query.q) }],
        link: [{ rel: 'alternate', href: '/x/' + params.id, hreflang: String(query.q) }],
        jsonLd: { name: params.id, q: query.q },
      }),
      render: ({ params }) => '<h1>Book ' + esc(params.id) + '</h1>',
    },
    // The app's own API gives trusted HTML (sanitized where it was stored), which render writes as it is.
    { path: '/posts/:id', load: ({ params }) => ({ html: '<b>post ' + esc(params.id) + '</b>' }), render: ({ data }) => '<h1>Post</h1>' + data.html },
    { path: '/go/:to', load: ({ params }) => Promise.reject(redirect(params.to)) },
    { path: '/old/:id', redirect: '/books/:id' },
    { path: '/slow/:n', load: async ({ params, signal }) => (await wait(+params.n, signal), params.n), render: ({ location }) => '<h1>' + esc(location) + '</h1>' },
    // Hooks that throw for some params (an app's bug a visitor's URL reaches), and a redirect chain as long as a URL makes it.
    { path: '/json/:x', title: ({ params }) => JSON.parse(params.x).name, render: ({ params }) => '<h1>' + esc(JSON.parse(params.x).name) + '</h1>' },
    { path: '/hop/:n', load: ({ params }) => Promise.reject(redirect('/hop/' + (+params.n + 1))) },
  ],
  { base: '/app/', notFound: { title: 'Not found', render: () => '<h1>Not found</h1>' } },
);
const router = createRouter({ routes, outlet: '#app', mode: window.MODE });
router.beforeEach((to) => (to.path.startsWith('/guard/') ? decodeURIComponent(to.path.slice(7)) : to.path !== '/refused'));
// A guard with a bug a visitor can reach once the app sets window.throwing.
router.beforeEach((to) => {
  if (window.throwing && to.path === '/throws') throw new Error('guard threw');
});
// An "unsaved changes?" guard: while window.locked, every navigation away from a state is refused.
router.beforeEach((to, from) => !(window.locked && from));
window.router = router;
window.marker = 42; // gone if the document is ever replaced
router.start().catch((error) => (window.failed = String(error)));
`;

export type Mode = 'history' | 'hashbang';
/** What a page shows after a visit. */
export interface Seen {
  location: string | undefined;
  address: string;
  status: string | undefined;
  h1: string | undefined;
  marker: number | undefined;
  pwned: unknown;
}

/**
 * `name` on the app under attack, served with `body`: `open()` before the tests, `close()` after;
 * `visit()` lands a tab at a URL and checks what it shows.
 */
export function hostileBrowser(name: BrowserName, body: string) {
  // A new tab costs Chromium a renderer process, half a second and more; a new document in a tab kept
  // open, a third of that. So the tests share one tab per mode, each on a document of its own: the tab
  // goes to about:blank first (a #! URL after another on the same path would only be a hash change),
  // then its records of errors and off-origin requests are emptied. A tab a test failed in is closed,
  // never reused. A test that walks history back (a back could reach the test before) or loads 1 MB
  // visits alone, in a tab of its own.
  const tabs = new Map<Mode, Watched>();
  let server: AppServer;
  // One browser session for every test, each in a tab: the modules load once.
  let browser: Session;

  /** The tab `mode`'s tests share, on about:blank with empty records, or a new one when `own`. */
  async function tab(mode: Mode, own: boolean): Promise<Watched> {
    const kept = own ? undefined : tabs.get(mode);
    // In front, as the tab a visitor lands in is (Firefox runs a tab behind others hidden, its timers slowed).
    if (kept) {
      await kept.page.bringToFront();
      await kept.page.goto('about:blank');
      kept.errors.length = 0;
      kept.off.length = 0;
      return kept;
    }
    const t = await watchedPage(browser, server.origin);
    await t.page.addInitScript((m) => ((window as unknown as { MODE: string }).MODE = m), mode);
    if (!own) tabs.set(mode, t);
    return t;
  }

  /** `t` with `seen()`, which reads the page. */
  function reader(t: Watched) {
    const seen = () =>
      t.page.evaluate((): Seen => {
        const w = window as unknown as { router: { current: { location: string } | null }; marker?: number; pwned?: unknown };
        return {
          location: w.router.current?.location,
          address: location.pathname + location.search + location.hash,
          status: document.documentElement.dataset['routerStatus'],
          h1: document.querySelector('#app h1')?.textContent ?? undefined,
          marker: w.marker,
          pwned: w.pwned,
        };
      });
    return { ...t, seen };
  }

  type Check = (t: ReturnType<typeof reader>) => Promise<void>;

  /**
   * Opens `url` in `mode` (in the mode's shared tab, or a tab of its own when `own`), waits for the
   * router to settle and runs `check`; closes the tab after, unless it is shared and `check` passed.
   */
  async function visit(mode: Mode, url: string, check: Check, own = false) {
    const t = await tab(mode, own);
    let passed = false;
    try {
      await t.page.goto(server.origin + url);
      await settled(t.page);
      await check(reader(t));
      passed = true;
    } finally {
      if (own || !passed) {
        if (tabs.get(mode) === t) tabs.delete(mode);
        await t.page.close();
      }
    }
  }

  /** visit() in a new tab, closed after. */
  const visitAlone = (mode: Mode, url: string, check: Check) => visit(mode, url, check, true);

  return {
    async open() {
      needDist();
      server = await serveApp(APP, { body });
      browser = await launch(name);
    },
    async close() {
      try {
        await browser?.close();
      } finally {
        await server?.close();
      }
    },
    /** The app's origin. */
    get origin() {
      return server.origin;
    },
    /** The browser every tab is opened in. */
    get browser() {
      return browser;
    },
    visit,
    visitAlone,
  };
}

/** The URL of `location` in `mode`, on the app's base. */
export const urlOf = (mode: Mode, location: string) => toUrl(location, { base: '/app/', mode });
