import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes, notFound, redirect, toUrl, type Head } from '../../src/index.js';
import { createRouter, type Router } from '../../src/client/index.js';
import { caseRoutes, cases as allCases } from '../routes/outcome-cases.mjs';
import { modes } from './fixture.js';

// The shared outcome cases (test/routes/outcome-cases.mjs) on the client router, and the head it keeps in
// document.head: the same table the hooks and headless renderer tests run.
const SHELL_HEAD =
  '<meta charset="utf-8"><title>Shell</title><meta name="description" content="Shell description"><meta property="og:site_name" content="Shop"><link rel="stylesheet" href="/s.css">';

function open(mode: 'history' | 'hashbang', url = '/', extra: { head?: Head } = {}) {
  const window = new Window({ url: 'https://example.com' + url });
  const document = window.document;
  document.head.innerHTML = SHELL_HEAD;
  document.body.innerHTML = '<main id="outlet"></main>';
  const { routes, notFound: notFoundView, error, head } = caseRoutes({ notFound, redirect });
  const table = createRoutes(routes, { notFound: notFoundView, head: extra.head ?? head });
  const router: Router = createRouter({ routes: table, mode, outlet: '#outlet', error, window });
  const metas = (key: string) =>
    [...document.head.querySelectorAll('meta')]
      .filter((m) => m.getAttribute('name') === key || m.getAttribute('property') === key)
      .map((m) => m.getAttribute('content'));
  const address = () => window.location.pathname + window.location.search + window.location.hash;
  return { window, document, router, metas, address, urlOf: (location: string) => toUrl(location, { mode }) };
}

// A loop commits nothing on the client: the navigation is refused (tested below).
const cases = allCases.filter((c) => !c.loop);

describe.each(modes)('outcomes on the client router in %s mode', (mode) => {
  let t: ReturnType<typeof open>;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  it.each(cases)('navigating to $name commits its view, head, current and one entry', async (c) => {
    t = open(mode);
    await t.router.start();
    expect(await t.router.navigate(c.location)).toBe(true);
    const shown = c.redirect ?? c.location;
    const current = t.router.current;
    expect(current?.location).toBe(shown);
    expect(current?.notFound).toBe(c.notFound === true);
    expect(current?.error !== undefined).toBe(c.error === true);
    expect(t.document.title).toBe(c.title);
    expect(t.document.querySelector('#outlet h1')?.textContent).toBe(c.heading);
    expect(t.metas('description')).toEqual([c.description]);
    expect(t.address()).toBe(t.urlOf(shown));
    expect(t.window.history.length).toBe(2);
    expect(t.document.documentElement.dataset['routerStatus']).toBe(String(c.status));
    expect(t.document.documentElement.dataset['routerRedirect']).toBe(c.redirect);
  });

  it.each(cases)('landing on $name publishes its status with the settled signal and adds no entry', async (c) => {
    t = open(mode, toUrl(c.location, { mode }));
    const settled: unknown[] = [];
    t.window.addEventListener('crawlable-router:settled', (event) => settled.push((event as unknown as CustomEvent).detail));
    await t.router.start();
    expect(t.window.history.length).toBe(1);
    expect(t.router.current?.location).toBe(c.redirect ?? c.location);
    // A failed load's error goes with the signal (a headless renderer says it), the very one of `current`.
    const error = c.error ? t.router.current?.error : undefined;
    expect(error === undefined).toBe(!c.error);
    expect(settled).toEqual([{ location: c.redirect ?? c.location, status: c.status, redirect: c.redirect, error }]);
  });

  it('keeps the URL of a missing item and shows the notFound route as current.route', async () => {
    t = open(mode);
    await t.router.start();
    await t.router.navigate('/items/missing?x=1');
    expect(t.address()).toBe(t.urlOf('/items/missing?x=1'));
    expect(t.router.current).toMatchObject({ notFound: true, params: { id: 'missing' }, query: { x: '1' }, data: undefined });
    expect(t.router.current?.route.title).toBe('Not found');
  });

  it('publishes a 500 when it lands on a state that redirects to itself, as every server renderer answers it', async () => {
    t = open(mode, toUrl('/items/loop', { mode }));
    const settled: unknown[] = [];
    t.window.addEventListener('crawlable-router:settled', (event) => settled.push((event as unknown as CustomEvent).detail));
    await expect(t.router.start()).rejects.toThrow(/redirected more than 10 times/);
    expect(t.document.documentElement.dataset['routerStatus']).toBe('500');
    // Nothing shown: no location, the headless renderer's 500, and the loop as its cause.
    expect(settled).toEqual([
      {
        location: null,
        status: 500,
        redirect: undefined,
        error: expect.objectContaining({ message: expect.stringMatching(/redirected more than 10 times/) }),
      },
    ]);
    expect(t.address()).toBe(t.urlOf('/items/loop'));
  });

  it('counts load redirects with guard redirects and gives up on a loop', async () => {
    t = open(mode);
    await t.router.start();
    t.router.beforeEach((to) => (to.path === '/items/1' ? '/items/moved' : undefined));
    await expect(t.router.navigate('/items/moved')).rejects.toThrow(/redirected more than 10 times/);
    expect(await t.router.navigate('/items/3')).toBe(true);
    expect(t.document.title).toBe('Item 3');
  });

  it('keeps the outcome of a redirected state through a change of anchor alone', async () => {
    t = open(mode);
    await t.router.start();
    await t.router.navigate('/items/moved');
    await t.router.navigate('/items/1#reviews');
    expect(t.router.current?.location).toBe('/items/1#reviews');
    expect(t.document.documentElement.dataset['routerStatus']).toBe('301');
    expect(t.document.documentElement.dataset['routerRedirect']).toBe('/items/1');
  });

  it('keeps a state not found through a change of anchor alone: its route, notFound and status', async () => {
    t = open(mode);
    await t.router.start();
    await t.router.navigate('/items/missing');
    const route = t.router.current?.route;
    expect(t.router.current?.notFound).toBe(true);
    await t.router.navigate('/items/missing#reviews');
    expect(t.router.current?.location).toBe('/items/missing#reviews');
    expect(t.router.current?.notFound).toBe(true);
    expect(t.router.current?.route).toBe(route);
    expect(t.document.documentElement.dataset['routerStatus']).toBe('404');
  });

  it('reports a guard redirect as a 302 to where it led', async () => {
    t = open(mode);
    await t.router.start();
    t.router.beforeEach((to) => (to.path === '/items/2' ? '/items/3' : undefined));
    await t.router.navigate('/items/2');
    expect(t.document.documentElement.dataset['routerStatus']).toBe('302');
    expect(t.document.documentElement.dataset['routerRedirect']).toBe('/items/3');
    await t.router.navigate('/items/4');
    expect(t.document.documentElement.dataset['routerStatus']).toBe('200');
    expect(t.document.documentElement.dataset['routerRedirect']).toBeUndefined();
  });
});

describe.each(modes)('Open Graph on the client router in %s mode', (mode) => {
  let t: ReturnType<typeof open>;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  it('derives og:url (the clean canonical URL, without tracking tags), og:title and og:type where a state has og: tags', async () => {
    t = open(mode, toUrl('/items/7?utm_source=news&fbclid=x', { mode }));
    await t.router.start();
    expect(t.router.current?.location).toBe('/items/7');
    // The address bar keeps the tags for analytics: only the state leaves them out.
    expect(t.address()).toContain('utm_source=news&fbclid=x');
    expect(t.metas('og:url')).toEqual(['https://example.com/items/7']);
    expect(t.metas('og:title')).toEqual(['Item 7']);
    expect(t.metas('og:type')).toEqual(['website']);
    await t.router.navigate('/items/missing');
    expect(t.metas('og:url')).toEqual([]);
    await t.router.navigate('/');
    expect(t.metas('og:title')).toEqual([]);
    expect(t.metas('og:url')).toEqual([]);
    expect(t.metas('og:type')).toEqual([]);
  });
});

describe('the head the client router keeps', () => {
  let t: ReturnType<typeof open>;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  const headHtml = () => t.document.head.innerHTML;

  it('replaces the shell and default tags with one key, and puts them back on the next state', async () => {
    t = open('history', '/', {
      head: {
        meta: [
          { name: 'description', content: 'Every item' },
          { property: 'og:site_name', content: 'Items' },
        ],
      },
    });
    await t.router.start();
    expect(t.metas('description')).toEqual(['Every item']);
    expect(t.metas('og:site_name')).toEqual(['Items']);
    await t.router.navigate('/items/7');
    expect(t.metas('description')).toEqual(['About Item 7']);
    expect(t.metas('og:title')).toEqual(['Item 7']);
    expect(t.metas('og:site_name')).toEqual(['Items']);
    await t.router.navigate('/items/8');
    expect(t.metas('og:title')).toEqual(['Item 8']);
    expect(t.document.querySelectorAll('script[type="application/ld+json"]').length).toBe(1);
    await t.router.navigate('/');
    // The default og:site_name makes the home an Open Graph page too: its title is derived.
    expect(t.metas('og:title')).toEqual(['Home']);
    expect(t.document.querySelectorAll('script[type="application/ld+json"]').length).toBe(0);
    expect(t.metas('description')).toEqual(['Every item']);
    t.router.back();
    await t.window.happyDOM.waitUntilComplete();
    await t.router.settled();
    expect(t.metas('og:title')).toEqual(['Item 8']);
  });

  it('gives the shell its own tags back, in place, when no layer sets their key', async () => {
    t = open('history', '/', { head: {} });
    await t.router.start();
    const before = headHtml();
    await t.router.navigate('/items/7');
    expect(t.metas('description')).toEqual(['About Item 7']);
    expect(t.metas('og:site_name')).toEqual(['Shop']);
    await t.router.navigate('/');
    expect(headHtml()).toBe(before);
  });

  it('shows no canonical link at a state not found or failed, even where the head defaults name one', async () => {
    const canonical = ({ location }: { location: string }) => ({ link: [{ rel: 'canonical', href: 'https://example.com' + location }] });
    t = open('history', '/', { head: canonical as unknown as Head });
    const links = () => [...t.document.head.querySelectorAll('link[rel=canonical]')].map((el) => el.getAttribute('href'));
    await t.router.start();
    expect(links()).toEqual(['https://example.com/']);
    for (const location of ['/items/missing', '/nowhere', '/items/boom']) {
      await t.router.navigate(location);
      expect(links()).toEqual([]);
    }
    await t.router.navigate('/items/7');
    expect(links()).toEqual(['https://example.com/items/7']);
  });

  it('says robots noindex at a state not found or failed, where a shell answered 200, and gives the shell its own back', async () => {
    const window = new Window({ url: 'https://example.com/' });
    const document = window.document;
    document.head.innerHTML = '<title>Shell</title><meta name="robots" content="max-image-preview:large">';
    document.body.innerHTML = '<main id="outlet"></main>';
    // Views whose own head says nothing of robots, or the opposite.
    const table = createRoutes(
      [
        { path: '/', render: () => 'home' },
        {
          path: '/items/:id',
          load: ({ params }) => {
            if (params.id === 'missing') throw notFound();
            if (params.id === 'boom') throw new Error('down');
            return params.id;
          },
          render: ({ data }) => `item ${String(data)}`,
        },
      ],
      { notFound: { render: () => 'not found', head: () => ({ meta: [{ name: 'robots', content: 'index, follow' }] }) } },
    );
    const router = createRouter({ routes: table, outlet: '#outlet', error: { render: () => 'failed' }, window });
    const robots = () => [...document.head.querySelectorAll('meta[name=robots]')].map((m) => m.getAttribute('content'));
    try {
      await router.start();
      expect(robots()).toEqual(['max-image-preview:large']);
      // A missing item (load's notFound()), no route, a load that throws.
      for (const location of ['/items/missing', '/nowhere', '/items/boom']) {
        await router.navigate(location);
        expect(robots()).toEqual(['noindex']);
      }
      await router.navigate('/items/7');
      expect(document.querySelector('#outlet')?.textContent).toBe('item 7');
      expect(robots()).toEqual(['max-image-preview:large']);
    } finally {
      router.destroy();
      await window.happyDOM.close();
    }
  });

  it('writes hostile data as attribute values and JSON-LD that parses back to it', async () => {
    const hostile = '"><img src=x onerror=alert(1)></script><script>alert(2)</script>\u2028\u2029&amp;';
    const window = new Window({ url: 'https://example.com/x' });
    window.document.head.innerHTML = SHELL_HEAD;
    const table = createRoutes([
      {
        path: '/x',
        head: () => ({
          meta: [{ name: 'description', content: hostile }],
          link: [{ rel: 'alternate', hreflang: 'de', href: hostile }],
          jsonLd: { name: hostile },
        }),
      },
    ]);
    const router = createRouter({ routes: table, mode: 'history', window });
    await router.start();
    const doc = window.document;
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(hostile);
    expect(doc.querySelector('link[rel="alternate"]')?.getAttribute('href')).toBe(hostile);
    expect(doc.querySelectorAll('img').length).toBe(0);
    const script = doc.querySelector('script[type="application/ld+json"]');
    expect(script?.textContent).not.toContain('<');
    expect(JSON.parse(script?.textContent ?? '')).toEqual({ name: hostile });
    router.destroy();
    await window.happyDOM.close();
    t = open('history');
  });
});
