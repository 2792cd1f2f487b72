import { describe, expect, it } from 'vitest';
import { toUrl } from '../../src/index.js';
import { browserApp, watchedPage, type Watched } from './browser-app.js';
import { BROWSERS } from './browsers.js';

// DOM clobbering, in real Chromium and Firefox (the built ES modules, `npm run build` first). An HTML document's
// named properties override its built-ins: `<img name="querySelector">` in a page makes
// `document.querySelector` that image. Here the shell and the content a route renders hold a named
// element for every Document member the router reads (and those a change of it may come to read),
// each of a kind that shadows it (img, form, iframe, embed, object), and an element with the id of
// every Window member it reads (a window's named properties shadow none of them). The router must
// start, route link clicks and back/forward, and keep the title and head tags right.

/** Named elements of the shell: every Document member the router reads, and more. */
const SHELL_NAMED = [
  '<img name="querySelector">',
  '<img name="querySelectorAll">',
  '<img name="getElementById">',
  '<form name="getElementsByName"></form>',
  '<embed name="createElement">',
  '<form name="addEventListener"></form>',
  '<object name="removeEventListener"></object>',
  '<img name="dispatchEvent">',
  '<form name="head"></form>',
  '<img name="body">',
  '<iframe name="documentElement"></iframe>',
  '<img name="title">',
  '<embed name="baseURI">',
  '<img name="activeElement">',
  '<form name="defaultView"></form>',
].join('');

/** Elements with the id of every Window member the router reads. */
const WINDOW_NAMED = ['history', 'navigation', 'scrollX', 'scrollY', 'scrollTo', 'addEventListener', 'dispatchEvent', 'CustomEvent', 'URL']
  .concat(['reportError', 'AbortController'])
  .map((id) => `<img id="${id}">`)
  .join('');

/** Named elements a book's render writes into the outlet: more of each member, of other kinds. */
const ROUTE_NAMED = [
  '<form name="querySelector"></form>',
  '<img name="getElementById">',
  '<img name="getElementsByName">',
  '<img name="createElement">',
  '<img name="head">',
  '<form name="title"></form>',
  '<img name="documentElement">',
  '<iframe name="baseURI"></iframe>',
  '<img name="addEventListener">',
].join('');

/**
 * Forms whose fields shadow the members the router reads of a form (a form's named properties, as a
 * document's), and an anchor's target whose field shadows `scrollIntoView`. Added by the test that
 * submits them: Playwright's own queries (`getByRole`) call the members these fields shadow.
 */
const FORMS_NAMED = [
  '<form id="post-named" method="post" action="/app/books/5"><input name="formMethod" value="x"></form>',
  '<form id="get-named" action="/app/books/6"><input name="getAttribute"><input name="matches"><input name="localName"></form>',
  '<form id="ignored-named" action="/app/books/7" data-router-ignore><input name="localName"><input name="form"></form>',
  '<a href="#form-anchor">form anchor</a><form id="form-anchor" style="margin-top:3000px"><input name="scrollIntoView"></form>',
].join('');

const APP = `
import { createRoutes } from '/dist/index.js';
import { createRouter } from '/dist/client/index.js';
const routes = createRoutes(
  [
    {
      path: '/',
      title: 'Home',
      head: () => ({ meta: [{ name: 'description', content: 'home' }] }),
      render: () => '<h1>Home</h1><a href="/app/books/1">book 1</a>',
    },
    {
      path: '/books/:id',
      title: ({ params }) => 'Book ' + params.id,
      head: ({ params }) => ({ meta: [{ name: 'description', content: 'book ' + params.id }], link: [{ rel: 'alternate', href: '/x/' + params.id, hreflang: 'fr' }] }),
      render: ({ params }) =>
        '<h1>Book ' + params.id + '</h1>' + ${JSON.stringify(ROUTE_NAMED)} +
        '<a href="/app/books/' + (+params.id + 1) + '">next</a> <a href="#reviews">reviews</a><p id="reviews" style="margin-top:3000px">reviews</p>',
    },
  ],
  { base: '/app/' },
);
window.router = createRouter({ routes, outlet: '#app', mode: window.MODE });
try {
  window.router.start().catch((error) => (window.failed = String(error)));
} catch (error) {
  window.failed = String(error);
}
`;

type Mode = 'history' | 'hashbang';

/** What the page shows, read through the document's prototype (its own members are shadowed). */
interface Seen {
  location: string | undefined;
  address: string;
  title: string;
  description: string[];
  alternate: string[];
  h1: string | undefined;
  state: string | undefined;
  status: string | undefined;
  failed: string | undefined;
}

describe.each(BROWSERS)('in %s', (browser) => {
  const app = browserApp(browser, APP, {
    head: '<meta name="description" content="shell">',
    body: `${SHELL_NAMED}${WINDOW_NAMED}<nav><a href="/app/">home</a></nav><main id="app"></main>`,
  });

  /** Reads what the page shows. */
  const seen = (t: Watched) =>
    t.page.evaluate((): Seen => {
      const D = Document.prototype;
      const all = (selector: string) => [...D.querySelectorAll.call(document, selector)];
      const root = Reflect.get(D, 'documentElement', document) as HTMLElement;
      const w = window as unknown as { router: { current: { location: string } | null }; failed?: string };
      return {
        location: w.router.current?.location,
        address: location.pathname + location.search + location.hash,
        title: Reflect.get(D, 'title', document) as string,
        description: all('meta[name=description]').map((m) => m.getAttribute('content') ?? ''),
        alternate: all('link[rel=alternate]').map((m) => m.getAttribute('href') ?? ''),
        h1: all('#app h1')[0]?.textContent ?? undefined,
        state: root.dataset['routerState'],
        status: root.dataset['routerStatus'],
        failed: w.failed,
      };
    });

  /** Waits until the router settles, or its start failed. */
  const settled = (t: Watched) =>
    t.page.waitForFunction(
      () =>
        (Reflect.get(Document.prototype, 'documentElement', document) as HTMLElement).dataset['routerState'] === 'settled' ||
        (window as { failed?: string }).failed !== undefined,
    );

  /** Clicks the link named `name` and waits for the router. */
  async function follow(t: Watched, name: string) {
    await t.page.clickLink(name);
    await settled(t);
  }

  describe.each(['history', 'hashbang'] as Mode[])('a page whose named elements shadow the document’s members, in %s mode', (mode) => {
    const url = (location: string) => toUrl(location, { base: '/app/', mode });

    it('starts, routes link clicks and back/forward, and keeps the title and head tags right', async () => {
      const t = await watchedPage(app.browser, app.origin);
      try {
        await t.page.addInitScript((m) => ((window as unknown as { MODE: string }).MODE = m), mode);
        await t.page.goto(app.origin + url('/'));
        await settled(t);
        const home = { location: '/', address: url('/'), title: 'Home', description: ['home'], alternate: [], h1: 'Home' };
        expect(await seen(t)).toEqual({ ...home, state: 'settled', status: '200', failed: undefined });
        await follow(t, 'book 1');
        const book = (id: number) => ({
          location: `/books/${id}`,
          address: url(`/books/${id}`),
          title: `Book ${id}`,
          description: [`book ${id}`],
          alternate: [`/x/${id}`],
          h1: `Book ${id}`,
        });
        expect(await seen(t)).toMatchObject(book(1));
        // A link in content the route rendered, beside its own named elements.
        await follow(t, 'next');
        expect(await seen(t)).toMatchObject(book(2));
        // An in-page anchor: found by id and scrolled to, the state and the address bar left as they are.
        await t.page.clickLink('reviews');
        await t.page.waitForFunction(() => scrollY > 1000);
        expect(await seen(t)).toMatchObject(book(2));
        await t.page.goBack();
        await settled(t);
        expect(await seen(t)).toMatchObject(book(1));
        await t.page.goBack();
        await settled(t);
        expect(await seen(t)).toMatchObject(home);
        await t.page.goForward();
        await settled(t);
        expect(await seen(t)).toMatchObject(book(1));
        await follow(t, 'home');
        expect(await seen(t)).toMatchObject(home);
        expect([t.errors, t.off]).toEqual([[], []]);
      } finally {
        await t.page.close();
      }
    });

    it('reads a form by its own members whatever its fields are named, and scrolls to a form whose field is named scrollIntoView', async () => {
      const t = await watchedPage(app.browser, app.origin);
      try {
        await t.page.addInitScript((m) => ((window as unknown as { MODE: string }).MODE = m), mode);
        /** A fresh document at /books/1, marked, with the forms. */
        const open = async () => {
          await t.page.goto(app.origin + url('/books/1'));
          await settled(t);
          await t.page.evaluate((html) => {
            (window as { marker?: number }).marker = 1;
            Element.prototype.insertAdjacentHTML.call(Document.prototype.querySelector.call(document, 'body')!, 'beforeend', html);
          }, FORMS_NAMED);
        };
        /** Submits the form `id` by itself (requestSubmit) from a fresh document: what it shows after, and whether it is that document. */
        const submit = async (id: string) => {
          await open();
          await t.page.evaluate((id) => {
            const form = Document.prototype.querySelector.call(document, '#' + id) as HTMLFormElement;
            HTMLFormElement.prototype.requestSubmit.call(form);
          }, id);
          await t.page.waitForFunction(() => !/\/books\/1$/.test(location.pathname + location.hash));
          await settled(t);
          const shown = (await seen(t)).location;
          return { location: shown, same: await t.page.evaluate(() => (window as { marker?: number }).marker === 1) };
        };
        // A POST form stays the browser's: another document loads, its fields posted.
        expect(await submit('post-named')).toEqual({ location: '/books/5', same: false });
        // A GET form is routed in this document, no error thrown.
        expect(await submit('get-named')).toEqual({ location: '/books/6?getAttribute=&matches=&localName=', same: true });
        // An opted-out form stays the browser's.
        expect(await submit('ignored-named')).toEqual({ location: '/books/7?localName=&form=', same: false });
        // An anchor whose element is such a form: scrolled to, no error thrown.
        await open();
        await t.page.evaluate(() =>
          HTMLElement.prototype.click.call(Document.prototype.querySelector.call(document, '[href="#form-anchor"]')!),
        );
        expect(await t.page.evaluate(() => scrollY > 1000)).toBe(true);
        expect([t.errors, t.off]).toEqual([[], []]);
      } finally {
        await t.page.close();
      }
    });
  });
});
