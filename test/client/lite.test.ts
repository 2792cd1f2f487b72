import fc from 'fast-check';
import { Window } from 'happy-dom';
import { createMemoryHistory } from 'history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter as createFull } from '../../src/client/index.js';
import { createRouter as createLite } from '../../src/client/lite.js';
import { DATA_SCRIPT_ID } from '../../src/contract/hydration.js';
import { createRoutes, notFound, redirect } from '../../src/index.js';
import { fuzz } from '../fuzz/runs.js';
import { inProduction } from '../production.js';
import { modes, setup, type Setup, type SetupOptions } from './fixture.js';

// crawlable-router/client/lite: the full client's router with the same API, drawing each state's
// render and title, without head tags, hydration, the `history` adapter or ugly URLs. The lite and
// the full router, each on a window of its own, are driven by the same navigations and must show
// the same page but for the head; what the lite one leaves out is said in development builds.

/** A route with head tags, in front of the fixture's routes. */
const HEAD_ROUTE = {
  path: '/about',
  title: 'About',
  head: () => ({ meta: [{ name: 'description', content: 'about us' }] }),
  render: () => '<h1>About</h1>',
};

const windows: Setup[] = [];
/** The fixture with `create`, closed after the test; its shell's title marked as a rendered page marks it. */
function open(mode: (typeof modes)[number], create: SetupOptions['create'], options: SetupOptions = {}) {
  const app = setup(mode, { create, ...options });
  app.document.head.innerHTML = '<title data-router-title="Shell">A state’s title</title>';
  windows.push(app);
  return app;
}
afterEach(async () => {
  vi.restoreAllMocks();
  for (const app of windows.splice(0)) {
    app.router.destroy();
    await app.window.happyDOM.close();
  }
});

/** What the page shows but its head: what the lite router must show as the full one does. */
const shown = (app: Setup) => ({
  location: app.router.current?.location,
  address: app.address(),
  title: app.document.title,
  outlet: app.outlet(),
  status: app.document.documentElement.getAttribute('data-router-status'),
  state: app.document.documentElement.getAttribute('data-router-state'),
});

const LOCATIONS = ['/', '/books/1', '/books/2?x=1', '/books/1#reviews', '/q/a%20b', '/files/a/b', '/boom', '/nowhere', '/about'];
type Step = { op: 'navigate' | 'replace'; to: string } | { op: 'back' | 'forward' };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constantFrom('navigate' as const, 'replace' as const), to: fc.constantFrom(...LOCATIONS) }),
  fc.record({ op: fc.constantFrom('back' as const, 'forward' as const) }),
);

/** Takes `s` on `app` and waits until it is done. */
async function take(app: Setup, s: Step) {
  if ('to' in s) await app.router.navigate(s.to, { replace: s.op === 'replace' }).catch(() => {});
  else if (s.op === 'back') app.router.back();
  else app.router.forward();
  await app.flush();
}

/** Routes of every outcome: a load's redirect and notFound, beforeLoad's, a redirect route, guarded ones. */
const OUTCOMES = [
  { path: '/r/:n', load: () => Promise.reject(redirect('/books/3')), render: () => 'never' },
  { path: '/nf/:n', load: () => Promise.reject(notFound()), render: () => 'never' },
  {
    path: '/bl/:n',
    beforeLoad: ({ params }: { params: { n: string } }) => {
      if (params.n === '1') throw redirect('/books/4', 301);
      if (params.n === '2') throw notFound();
    },
    load: () => 'loaded',
    title: 'bl',
    render: ({ data }: { data: unknown }) => String(data),
  },
  { path: '/no/:n', title: 'no', render: () => 'no' },
  { path: '/g/:n', title: 'g', render: () => 'g' },
  { path: '/old/:n', redirect: '/books/:n' },
] as never[];
const WIDE = [...LOCATIONS, '/r/1', '/nf/1', '/bl/1', '/bl/2', '/bl/3', '/no/1', '/g/1', '/old/5', '/books/1#far'];
type Wide =
  | { op: 'navigate' | 'replace' | 'link' | 'bang-link' | 'hash'; to: string }
  | { op: 'twice'; to: string; then: string }
  | { op: 'anchor' | 'anchor-link'; id: string }
  | { op: 'go'; n: number }
  | { op: 'scroll'; y: number };
const wideTo = fc.constantFrom(...WIDE);
const wide: fc.Arbitrary<Wide> = fc.oneof(
  fc.record({ op: fc.constantFrom('navigate', 'replace', 'link', 'bang-link', 'hash' as const), to: wideTo }),
  fc.record({ op: fc.constant('twice' as const), to: wideTo, then: wideTo }),
  fc.record({ op: fc.constantFrom('anchor' as const, 'anchor-link' as const), id: fc.constantFrom('reviews', 'far') }),
  fc.record({ op: fc.constant('go' as const), n: fc.constantFrom(-1, 1, -2, 2) }),
  fc.record({ op: fc.constant('scroll' as const), y: fc.constantFrom(0, 900) }),
);

/** Takes `s` on `app` as a visitor or the app would, and waits until it is done. */
async function takeWide(app: Setup, s: Wide) {
  const { window, document, router } = app;
  const click = (href: string) => {
    const a = document.createElement('a');
    a.setAttribute('href', href);
    document.body.append(a);
    a.dispatchEvent(new window.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }));
    a.remove();
  };
  if (s.op === 'navigate' || s.op === 'replace') await router.navigate(s.to, { replace: s.op === 'replace' }).catch(() => {});
  else if (s.op === 'twice') await Promise.all([router.navigate(s.to), router.navigate(s.then)].map((p) => p.catch(() => {})));
  else if (s.op === 'link') click(router.href(s.to));
  else if (s.op === 'bang-link') click(app.base + '#!' + s.to);
  else if (s.op === 'hash') window.location.hash = '#!' + s.to;
  else if (s.op === 'anchor') window.location.hash = '#' + s.id;
  else if (s.op === 'anchor-link') click('#' + s.id);
  else if (s.op === 'go') router.go(s.n);
  else if (s.op === 'scroll') window.scrollTo(0, s.y);
  await app.flush();
}

describe('crawlable-router/client/lite', () => {
  it.each(modes)('shows what the full client shows, but the head, after any navigations (%s mode)', async (mode) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
        const full = open(mode, createFull, { routes: [HEAD_ROUTE] });
        const lite = open(mode, createLite, { routes: [HEAD_ROUTE] });
        await Promise.all([full.router.start(), lite.router.start()]);
        expect(shown(lite)).toEqual(shown(full));
        for (const s of steps) {
          await Promise.all([take(full, s), take(lite, s)]);
          expect(shown(lite)).toEqual(shown(full));
        }
      }),
      fuzz(mode === 'history' ? 4601 : 4602, 25),
    );
  });

  it.each(modes)('shows what the full client shows after clicks, typed URLs, traversals, guards and outcomes (%s mode)', async (mode) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await fc.assert(
      fc.asyncProperty(fc.array(wide, { minLength: 1, maxLength: 10 }), async (steps) => {
        const [full, lite] = [createFull, createLite].map((create) => {
          const app = open(mode, create, { routes: OUTCOMES, scroll: true });
          app.document.body.insertAdjacentHTML('beforeend', '<p id="far" style="margin-top:3000px">far</p>');
          app.router.beforeEach((to) => (to.path.startsWith('/no/') ? false : to.path.startsWith('/g/') ? '/books/9' : true));
          const events: unknown[] = [];
          app.window.addEventListener('crawlable-router:settled', (event) => {
            const { location, status, redirect } = (event as unknown as { detail: Record<string, unknown> }).detail;
            events.push([location, status, redirect]);
          });
          return Object.assign(app, { events });
        }) as [Setup & { events: unknown[] }, Setup & { events: unknown[] }];
        const seen = (app: typeof full) => ({
          ...shown(app),
          data: app.router.current?.data,
          redirect: app.document.documentElement.getAttribute('data-router-redirect'),
          events: app.events.splice(0),
          scroll: app.window.scrollY,
          length: app.window.history.length,
        });
        await Promise.all([full.router.start(), lite.router.start()]);
        expect(seen(lite)).toEqual(seen(full));
        for (const s of steps) {
          await Promise.all([takeWide(full, s), takeWide(lite, s)]);
          expect({ s, ...seen(lite) }).toEqual({ s, ...seen(full) });
        }
      }),
      fuzz(mode === 'history' ? 4603 : 4604, 25),
    );
  });

  it('writes no head tags but the title, and says so for a table with head tags', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const lite = open('history', createLite, { routes: [HEAD_ROUTE], url: '/app/about' });
    await lite.router.start();
    expect([lite.document.title, lite.document.head.querySelectorAll('meta').length]).toEqual(['About', 0]);
    expect(warn.mock.calls.map(([text]) => String(text))).toEqual([
      'crawlable-router/client/lite writes no head tags but the title: the head of the table, a route or the error view is left out; crawlable-router/client, with the same API, does',
    ]);
    // The full client writes them: the route's head is the difference.
    const full = open('history', createFull, { routes: [HEAD_ROUTE], url: '/app/about' });
    await full.router.start();
    expect(full.document.head.querySelector('meta[name=description]')?.getAttribute('content')).toBe('about us');
  });

  it.each([
    ['the table', { head: { meta: [{ name: 'description', content: 'shop' }] } }, {}],
    ['the notFound route', { notFound: { head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }) } }, {}],
    ['the error view', {}, { error: { head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }) } }],
  ])('says once that it writes no head tags when %s has some', (_, table, options) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const window = new Window({ url: 'https://example.com/' });
    try {
      createLite({ routes: createRoutes([{ path: '/' }], table), window: window as never, ...options });
      expect(warn.mock.calls.map(([text]) => String(text).slice(0, 60))).toEqual([
        'crawlable-router/client/lite writes no head tags but the tit',
      ]);
    } finally {
      void window.happyDOM.close();
    }
  });

  it('takes away the head tags a rendered page added for its first state once another is shown, keeping the shell’s', async () => {
    const lite = open('history', createLite, { url: '/app/books/1' });
    lite.document.head.insertAdjacentHTML(
      'beforeend',
      '<meta name="description" content="shell">' +
        '<link rel="canonical" href="https://example.com/app/books/1" data-router-head="/books/1">' +
        '<meta name="robots" content="noindex" data-router-head="/books/1">',
    );
    const tags = () =>
      [...lite.document.head.querySelectorAll('meta,link')].map((tag) => tag.outerHTML.replace(/ data-router-head="[^"]*"/, ''));
    await lite.router.start();
    // Its own state's, while it is shown.
    expect(tags()).toHaveLength(3);
    await lite.router.navigate('/books/2');
    expect(tags()).toEqual(['<meta name="description" content="shell">']);
  });

  it('drives the window’s own history, never a `history` instance, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const listen = vi.fn();
    const lite = open('history', createLite, { history: { listen } as never });
    await lite.router.start();
    await lite.router.navigate('/books/1');
    expect([lite.address(), listen.mock.calls.length]).toEqual(['/app/books/1', 0]);
    expect(String(warn.mock.calls[0]?.[0])).toContain('drives the window’s own history, never a `history` package instance');
  });

  it('reads no ugly URL: it names no state (status 400, as a malformed one), and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const lite = open('history', createLite, { url: '/app/?_escaped_fragment_=/books/1' });
    expect(await lite.router.start()).toBe(false);
    expect([lite.router.current, lite.loads, lite.document.documentElement.getAttribute('data-router-status')]).toEqual([null, [], '400']);
    // Once, though the page's URL is read twice.
    expect(warn.mock.calls.map(([text]) => String(text))).toEqual([
      'crawlable-router/client/lite reads no ugly URL (/app/?_escaped_fragment_=/books/1): it names no state here; crawlable-router/client, with the same API, does',
    ]);
    // The full client reads it as the state it names.
    const full = open('history', createFull, { url: '/app/?_escaped_fragment_=/books/1' });
    await full.router.start();
    expect(full.router.current?.location).toBe('/books/1');
  });

  it.each([
    ['a malformed one', '/app/?_escaped_fragment_=%zz'],
    ['one outside base', '/other/?_escaped_fragment_=/books/1'],
  ])('says nothing of ugly URLs at %s, which the full client reads no state of either', async (_, url) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const full = open('history', createFull, { url });
    const lite = open('history', createLite, { url });
    expect(await Promise.all([full.router.start(), lite.router.start()])).toEqual([false, false]);
    expect([full.router.current, lite.router.current, full.address(), lite.address()]).toEqual([null, null, url, url]);
    expect(warn.mock.calls).toEqual([]);
  });

  it('runs the first state’s load again on a page with the server’s data, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const lite = open('history', createLite, { url: '/app/books/7' });
    const data = lite.document.createElement('script');
    data.id = DATA_SCRIPT_ID;
    data.setAttribute('type', 'application/json');
    data.textContent = JSON.stringify({ location: '/books/7', status: 200, data: { id: 'from the server' } });
    lite.document.body.append(data);
    await lite.router.start();
    expect([lite.loads, lite.router.current?.data]).toEqual([['7'], { id: '7' }]);
    expect(String(warn.mock.calls[0]?.[0])).toContain('does not read the data a server-rendered page carries for its first state');
  });

  it('says nothing of the server’s data for an element with its id that is no data script, which the full client does not read', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [full, lite] = [createFull, createLite].map((create) => {
      const app = open('history', create, { url: '/app/books/7' });
      // A visitor's comment a sanitizer let through with its id.
      app.document.body.insertAdjacentHTML(
        'beforeend',
        `<p id="${DATA_SCRIPT_ID}">{"location":"/books/7","status":200,"data":{"id":"from a visitor"}}</p>`,
      );
      return app;
    }) as [Setup, Setup];
    await Promise.all([full.router.start(), lite.router.start()]);
    expect([full.loads, lite.loads, full.router.current?.data]).toEqual([['7'], ['7'], { id: '7' }]);
    expect(warn.mock.calls).toEqual([]);
  });

  it('says, in Node, that it needs a window: a memory history needs the full client', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const routes = createRoutes([{ path: '/' }]);
    expect(() => createLite({ routes, history: createMemoryHistory() })).toThrow(
      'crawlable-router/client/lite: no window; pass { window } (a memory history in Node needs crawlable-router/client)',
    );
    expect(String(warn.mock.calls[0]?.[0])).toContain('drives the window’s own history');
    // The full client runs there.
    expect(createFull({ routes, history: createMemoryHistory() }).mode).toBe('history');
  });

  it('says nothing in a production build, where it leaves the same out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { createRouter } = await inProduction(() => import('../../src/client/lite.js'));
    const lite = open('history', createRouter, {
      routes: [HEAD_ROUTE],
      url: '/app/?_escaped_fragment_=/about',
      history: { listen() {} } as never,
    });
    lite.document.body.insertAdjacentHTML(
      'beforeend',
      `<script id="${DATA_SCRIPT_ID}" type="application/json">{"location":"/about","status":200}</script>`,
    );
    expect(await lite.router.start()).toBe(false);
    expect([lite.document.head.querySelectorAll('meta').length, warn.mock.calls]).toEqual([0, []]);
  });
});
