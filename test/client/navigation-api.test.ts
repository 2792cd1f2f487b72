import { describe, expect, it } from 'vitest';
import { toUrl } from '../../src/index.js';
import { browserApp, keptTabs, settled, type Watched } from './browser-app.js';
import { BROWSERS, type Modifier } from './browsers.js';

// The Navigation API tier, in real Chromium and Firefox (the built ES modules, `npm run build`
// first): every same-origin, in-base navigation the `navigate` event reports (an `<area>` click, a
// GET form, another script's `location` write or `navigation.navigate()`) is routed through the
// router's pipeline, and back/forward too, in both modes. Each page proves that no document was
// loaded: a marker the test sets on the first document's `window` is still there, and the count of
// documents the tab started since the test began (kept in sessionStorage by the app, emptied
// before each test) is still one. With `window.navigation` removed before the router starts, the
// page behaves as before the tier: links and back/forward route, an `<area>` loads. The lite
// client (crawlable-router/client/lite) has the tier too.

const APP = `
import { createRoutes } from '/dist/index.js';
const { createRouter } = await import(window.LITE ? '/dist/client/lite.js' : '/dist/client/index.js');
if (window.NO_API) delete window.navigation;
sessionStorage.setItem('documents', String(Number(sessionStorage.getItem('documents') ?? 0) + 1));
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const routes = createRoutes(
  [
    { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
    { path: '/books/:id', title: ({ params }) => 'Book ' + params.id, render: ({ params }) => '<h1>Book ' + esc(params.id) + '</h1>' },
    { path: '/search', title: 'Search', render: ({ query }) => '<h1>Search ' + esc(query.q) + '</h1>' },
  ],
  { base: '/app/', queryKeys: ['q'] },
);
window.router = createRouter({ routes, outlet: '#app', mode: window.MODE });
window.router.start();
`;

/** An image map (an area per target), forms, a link: every kind of element that starts a navigation. */
const BODY = `
<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" usemap="#map" width="500" height="20" alt="">
<map name="map">
  <area shape="rect" coords="0,0,50,20" href="/app/books/2" alt="book 2">
  <area shape="rect" coords="100,0,150,20" href="/app/books/3" alt="ignored" data-router-ignore>
  <area shape="rect" coords="200,0,250,20" href="/app/books/4" alt="external" rel="external">
  <area shape="rect" coords="300,0,350,20" href="/elsewhere" alt="out of base">
</map>
<form id="get" action="/app/search"><input name="q" value="a b+c"><button>search</button></form>
<form id="post" method="post" action="/app/search"><input name="q" value="posted"><button>post</button></form>
<form id="by-button" action="/app/search"><input name="q" value="by button"><button id="posts" formmethod="post">post</button></form>
<form id="post-by-get" method="post" action="/app/search"><input name="q" value="a b+c"><button id="gets" formmethod="get">get</button></form>
<form id="named" action="/app/search"><input name="q" value="a b+c"><input type="hidden" name="form" value="named"></form>
<form id="named-ignored" action="/app/search" data-router-ignore><input name="q" value="x"><input type="hidden" name="form" value="named"></form>
<nav><a href="/app/books/1">book 1</a></nav>
<main id="app"></main>`;

/** Where each area of the map is clicked (its rectangle's left part). */
const AREA = { 'book 2': 10, ignored: 110, external: 210, 'out of base': 310 } as const;

type Mode = 'history' | 'hashbang';

describe.each(BROWSERS)('in %s', (browser) => {
  const app = browserApp(browser, APP, { body: BODY });
  // A tab per mode, with the API and without, kept between the tests: each test opens a document of
  // its own in it, and adds at most 8 entries to its history.
  const tabs = keptTabs(app, 8, async (page, key) => {
    const [mode, api, client] = key.split(' ');
    await page.addInitScript(([m, off, lite]) => Object.assign(window, { MODE: m, NO_API: off, LITE: lite }), [
      mode,
      api === 'without',
      client === 'lite',
    ] as const);
  });

  interface Seen {
    location: string | undefined;
    address: string;
    h1: string | undefined;
    /** Set on the first document by the test: undefined once another document was loaded. */
    marker: string | undefined;
    /** Documents this tab has started. */
    documents: string | null;
    /** Entries of the tab's session history. */
    length: number;
  }

  const seen = (t: Watched) =>
    t.page.evaluate(
      (): Seen => ({
        location: (window as unknown as { router: { current: { location: string } | null } }).router.current?.location,
        address: location.pathname + location.search + location.hash,
        h1: document.querySelector('#app h1')?.textContent ?? undefined,
        marker: (window as { marker?: string }).marker,
        documents: sessionStorage.getItem('documents'),
        length: history.length,
      }),
    );

  /** A document of its own, at `location` in `mode`, with or without the Navigation API. */
  async function open(mode: Mode, location = '/', { api = true, lite = false } = {}) {
    const t = await tabs.take(`${mode} ${api ? 'with' : 'without'} ${lite ? 'lite' : 'full'}`);
    await t.page.goto(app.origin + toUrl(location, { base: '/app/', mode }));
    await settled(t.page);
    await t.page.evaluate(() => ((window as { marker?: string }).marker = 'first document'));
    return t;
  }

  /** Runs `action`, then waits until the address bar has moved and the router has settled. */
  async function moved(t: Watched, action: () => Promise<unknown>) {
    const before = await t.page.evaluate(() => location.href);
    await action();
    await t.page.waitForFunction((from) => location.href !== from, before);
    await settled(t.page);
  }

  /** Clicks the area named `name` of the image map. */
  const area = (t: Watched, name: keyof typeof AREA, modifiers: Modifier[] = []) =>
    t.page.click('img', { position: { x: AREA[name], y: 10 }, modifiers });

  /** The page's `navigation`, typed loosely (the DOM lib may not name it). */
  type WithNavigation = { navigation?: { navigate(url: string): { committed: Promise<unknown>; finished: Promise<unknown> } } };

  describe.each(['history', 'hashbang'] as Mode[])('the Navigation API tier, in %s mode', (mode) => {
    const url = (location: string) => toUrl(location, { base: '/app/', mode });
    const same = { marker: 'first document', documents: '1' };

    it('routes the first state of a page that has the API', async () => {
      const t = await open(mode, '/books/7');
      expect(await t.page.evaluate(() => typeof (window as WithNavigation).navigation)).toBe('object');
      expect(await seen(t)).toMatchObject({ location: '/books/7', address: url('/books/7'), h1: 'Book 7', ...same });
    });

    it('routes an <area> click in this document, as one new entry', async () => {
      const t = await open(mode);
      const { length } = await seen(t);
      await moved(t, () => area(t, 'book 2'));
      expect(await seen(t)).toEqual({ location: '/books/2', address: url('/books/2'), h1: 'Book 2', length: length + 1, ...same });
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it('routes a GET form in this document, its fields as the query: a space a space, a plus a plus', async () => {
      const t = await open(mode);
      await moved(t, () => t.page.click('#get button'));
      expect(await seen(t)).toMatchObject({
        location: '/search?q=a%20b%2Bc',
        address: url('/search?q=a%20b%2Bc'),
        h1: 'Search a b+c',
        ...same,
      });
      expect(await t.page.title()).toBe('Search');
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it('routes another script’s location.assign, location.href write, location.replace and navigation.navigate()', async () => {
      const t = await open(mode);
      const { length } = await seen(t);
      await moved(t, () => t.page.evaluate(() => location.assign('/app/books/6')));
      expect(await seen(t)).toEqual({ location: '/books/6', address: url('/books/6'), h1: 'Book 6', length: length + 1, ...same });
      await moved(t, () => t.page.evaluate(() => void (location.href = '/app/books/8')));
      expect(await seen(t)).toMatchObject({ location: '/books/8', h1: 'Book 8', length: length + 2, ...same });
      // A replace stays a replace: no new entry.
      await moved(t, () => t.page.evaluate(() => location.replace('/app/books/9')));
      expect(await seen(t)).toMatchObject({ location: '/books/9', h1: 'Book 9', length: length + 2, ...same });
      // The router makes the navigation its own: the one navigation.navigate() started is aborted.
      const outcome = await t.page.evaluate(async () => {
        const { committed, finished } = (window as WithNavigation).navigation!.navigate('/app/books/10');
        const aborted = (promise: Promise<unknown>) =>
          promise.then(
            () => 'done',
            (error: Error) => error.name,
          );
        return [await aborted(committed), await aborted(finished)];
      });
      await settled(t.page);
      expect(outcome).toEqual(['AbortError', 'AbortError']);
      expect(await seen(t)).toMatchObject({ location: '/books/10', address: url('/books/10'), h1: 'Book 10', length: length + 3, ...same });
      expect(t.off).toEqual([]);
    });

    it('routes an <area>, a GET form and another script’s location.assign in the lite client too, and back over them', async () => {
      const t = await open(mode, '/', { lite: true });
      const { length } = await seen(t);
      await moved(t, () => area(t, 'book 2'));
      await moved(t, () => t.page.click('#get button'));
      await moved(t, () => t.page.evaluate(() => location.assign('/app/books/6')));
      expect(await seen(t)).toEqual({ location: '/books/6', address: url('/books/6'), h1: 'Book 6', length: length + 3, ...same });
      for (const location of ['/search?q=a%20b%2Bc', '/books/2', '/']) {
        await moved(t, () => t.page.goBack());
        expect(await seen(t)).toMatchObject({ location, address: url(location), ...same });
      }
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it('writes one entry for router.navigate() and a link click, and routes back and forward over every kind', async () => {
      const t = await open(mode);
      const { length } = await seen(t);
      await t.page.evaluate(() =>
        (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/5'),
      );
      await moved(t, () => t.page.clickLink('book 1'));
      await moved(t, () => area(t, 'book 2'));
      await moved(t, () => t.page.click('#get button'));
      await moved(t, () => t.page.evaluate(() => location.assign('/app/books/6')));
      expect(await seen(t)).toMatchObject({ location: '/books/6', length: length + 5, ...same });
      for (const location of ['/search?q=a%20b%2Bc', '/books/2', '/books/1', '/books/5', '/']) {
        await moved(t, () => t.page.goBack());
        expect(await seen(t)).toMatchObject({ location, address: url(location), ...same });
      }
      await moved(t, () => t.page.goForward());
      await moved(t, () => t.page.goForward());
      expect(await seen(t)).toMatchObject({ location: '/books/1', address: url('/books/1'), h1: 'Book 1', length: length + 5, ...same });
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it('never shows a state a guard refuses: an <area>, a form, a location write, a back', async () => {
      const t = await open(mode);
      await t.page.evaluate(() =>
        (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/1'),
      );
      const before = await seen(t);
      // The guard records every URL the address bar showed while it was asked, then refuses.
      await t.page.evaluate(() => {
        const w = window as unknown as { asked: string[]; router: { beforeEach(g: (to: { location: string }) => boolean): void } };
        w.asked = [];
        w.router.beforeEach((to) => (w.asked.push(to.location + ' at ' + location.pathname + location.hash), to.location === '/books/1'));
      });
      // Clicked by the page's script: a driver's click would wait for the navigation the guard
      // refused. The form's navigation is queued (a task), location.assign starts in the call, and
      // the <area>'s starts in the call in Chromium, in a task in Firefox: the order is the engine's.
      await t.page.evaluate(() => {
        (document.querySelector('area') as HTMLElement).click();
        (document.querySelector('#get button') as HTMLElement).click();
        location.assign('/app/books/6');
      });
      await t.page.waitForFunction(() => (window as unknown as { asked: string[] }).asked.length === 3);
      await settled(t.page);
      expect(await seen(t)).toEqual(before);
      const at = ' at ' + url('/books/1');
      expect((await t.page.evaluate(() => (window as unknown as { asked: string[] }).asked)).sort()).toEqual([
        '/books/2' + at,
        '/books/6' + at,
        '/search?q=a%20b%2Bc' + at,
      ]);
      // A back the guard refuses: the address bar goes back where it was, the state stays.
      await t.page.goBack();
      await t.page.waitForFunction(() => (window as unknown as { asked: string[] }).asked.length === 4);
      await t.page.waitForFunction((href) => location.pathname + location.hash === href, url('/books/1'));
      await settled(t.page);
      expect(await seen(t)).toEqual(before);
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it.each([
      ['ignored', '/books/3'],
      ['external', '/books/4'],
      ['out of base', undefined],
    ] as const)('leaves an <area> %s to the browser: another document loads', async (name, location) => {
      const t = await open(mode);
      await area(t, name);
      await t.page.waitForFunction(() => sessionStorage.getItem('documents') === '2');
      await settled(t.page);
      expect(await seen(t)).toMatchObject({ location, marker: undefined, documents: '2' });
    });

    it('leaves an <area> or a link clicked with Ctrl or Shift to the browser: another window opens, this page stays', async () => {
      const t = await open(mode, '/books/1');
      const before = await seen(t);
      for (const modifiers of [['Control'], ['Shift']] as Modifier[][]) {
        const clicks = [() => area(t, 'book 2', modifiers), () => t.page.clickLink('book 1', modifiers)];
        for (const click of clicks) await app.browser.opensWindow(click);
        expect(await seen(t)).toEqual(before);
      }
    });

    it.each([
      ['a POST form', '#post button'],
      ['a GET form whose submit button says formmethod="post"', '#posts'],
    ])('leaves %s to the browser: another document loads', async (_, button) => {
      const t = await open(mode, '/books/1');
      await t.page.click(button);
      await t.page.waitForFunction(() => sessionStorage.getItem('documents') === '2');
      await settled(t.page);
      expect(await seen(t)).toMatchObject({ location: '/search', address: url('/search'), marker: undefined, documents: '2' });
    });

    it('routes a POST form whose submit button says formmethod="get", its fields as the query', async () => {
      const t = await open(mode, '/books/1');
      await moved(t, () => t.page.click('#gets'));
      expect(await seen(t)).toMatchObject({ location: '/search?q=a%20b%2Bc', h1: 'Search a b+c', ...same });
    });

    it('reads a form submitted by itself (requestSubmit, Enter) by its own attributes, beside a field named "form"', async () => {
      const t = await open(mode, '/books/1');
      await moved(t, () => t.page.evaluate(() => (document.getElementById('named') as HTMLFormElement).requestSubmit()));
      expect(await seen(t)).toMatchObject({ location: '/search?q=a%20b%2Bc&form=named', h1: 'Search a b+c', ...same });
      await t.page.evaluate(() => (document.getElementById('named-ignored') as HTMLFormElement).requestSubmit());
      await t.page.waitForFunction(() => sessionStorage.getItem('documents') === '2');
      await settled(t.page);
      expect(await seen(t)).toMatchObject({ location: '/search?q=x&form=named', marker: undefined, documents: '2' });
    });

    it('leaves location.reload() to the browser: the document loads again', async () => {
      const t = await open(mode, '/books/1');
      await t.page.evaluate(() => location.reload());
      await t.page.waitForFunction(() => sessionStorage.getItem('documents') === '2');
      await settled(t.page);
      expect(await seen(t)).toMatchObject({ location: '/books/1', marker: undefined, documents: '2' });
    });
  });

  describe.each(['history', 'hashbang'] as Mode[])('without the Navigation API (window.navigation removed), in %s mode', (mode) => {
    const url = (location: string) => toUrl(location, { base: '/app/', mode });
    const same = { marker: 'first document', documents: '1' };

    it('routes links, navigate() and back/forward as before, in this document', async () => {
      const t = await open(mode, '/', { api: false });
      expect(await t.page.evaluate(() => typeof (window as WithNavigation).navigation)).toBe('undefined');
      await moved(t, () => t.page.clickLink('book 1'));
      await t.page.evaluate(() =>
        (window as unknown as { router: { navigate(to: string): Promise<boolean> } }).router.navigate('/books/5'),
      );
      expect(await seen(t)).toMatchObject({ location: '/books/5', address: url('/books/5'), h1: 'Book 5', ...same });
      await moved(t, () => t.page.goBack());
      expect(await seen(t)).toMatchObject({ location: '/books/1', address: url('/books/1'), ...same });
      await moved(t, () => t.page.goForward());
      expect(await seen(t)).toMatchObject({ location: '/books/5', ...same });
      expect([t.errors, t.off]).toEqual([[], []]);
    });

    it('leaves an <area> to the browser, as before the tier: another document loads', async () => {
      const t = await open(mode, '/', { api: false });
      await area(t, 'book 2');
      await t.page.waitForFunction(() => sessionStorage.getItem('documents') === '2');
      await settled(t.page);
      expect(await seen(t)).toMatchObject({ location: '/books/2', marker: undefined, documents: '2' });
    });
  });
});
