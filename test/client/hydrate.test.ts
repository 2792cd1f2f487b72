import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/client/index.js';
import { readHydration } from '../../src/client/hydrate.js';
import { createRoutes, notFound } from '../../src/index.js';
import { createSnapshotHandler, type CleanUrls } from '../../src/server/index.js';

// The page the server renders in `cleanUrls: 'all'` mode, opened in happy-dom, and the client
// router started on it: its first navigation uses the page's data and keeps the server's outlet.

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Books</title><meta name="description" content="The shell"></head>\n<body><main id="app"></main></body></html>\n';
const TRICKY = { title: '</script><script>alert(1)</script>', line: 'a\u2028b\u2029c', quote: 'say "hi"' };

function app() {
  const loads: string[] = [];
  const routes = createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        // `?utm_source=…` and other keys name the same state.
        queryKeys: [],
        title: ({ params }) => `Book ${params.id}`,
        head: ({ params }) => ({
          meta: [{ name: 'description', content: `About book ${params.id}` }],
          jsonLd: { name: `Book ${params.id}` },
        }),
        load: ({ params }) => {
          loads.push(String(params.id));
          if (params.id === '0') throw notFound();
          return { id: params.id, ...TRICKY };
        },
        render: ({ data }) => `<h1>${esc(JSON.stringify(data))}</h1><input id="q">`,
      },
      { path: '/plain', render: () => '<p>No title of its own</p>' },
      {
        // An access rule that passes: the server ran it; the client's first navigation does not again.
        path: '/members/:name',
        beforeLoad: ({ params }) => void loads.push(`before ${String(params.name)}`),
        load: ({ params }) => void loads.push(`load ${String(params.name)}`),
        title: ({ location }) => `Member at ${location}`,
        render: ({ location }) => `<h1>${esc(location)}</h1>`,
      },
    ],
    { notFound: { title: 'Not found', render: () => '<h1>Nothing here</h1>' } },
  );
  return { routes, loads };
}

let opened: { window: Window; router: Router }[] = [];
afterEach(async () => {
  for (const { window, router } of opened) {
    router.destroy();
    await window.happyDOM.close();
  }
  opened = [];
});

/** Renders `path` with the server in `cleanUrls` mode, opens the page, and starts a router on it. */
async function open(path: string, cleanUrls: CleanUrls = 'all') {
  const server = app();
  const handler = createSnapshotHandler({
    routes: server.routes,
    origin: 'https://example.com',
    shell: SHELL,
    cleanUrls,
    onError: () => {},
  });
  const html = await (await handler.fetch(new Request('https://example.com' + path)))!.text();
  const window = new Window({ url: 'https://example.com' + path });
  window.document.write(html);
  const outlet = window.document.getElementById('app')!;
  // Marked before the client starts: a node the router re-renders loses its children and this mark.
  const child = outlet.firstElementChild;
  (outlet.querySelector('#q') as unknown as { focus?: () => void } | null)?.focus?.();
  const client = app();
  const router = createRouter({ routes: client.routes, outlet: '#app', window });
  opened.push({ window, router });
  await router.start();
  return { window, router, loads: client.loads, outlet, child, html };
}

describe("the first navigation on a server-rendered page ('all' mode)", () => {
  it('uses the data from the page instead of load, and keeps the outlet the server rendered', async () => {
    const t = await open('/books/7');
    expect(t.loads).toEqual([]);
    expect(t.router.current?.data).toEqual({ id: '7', ...TRICKY });
    expect(t.outlet.firstElementChild).toBe(t.child);
    expect(t.window.document.activeElement?.id).toBe('q');
    expect(t.window.document.title).toBe('Book 7');
  });

  it('uses the data and keeps the outlet at a URL with query keys the route does not declare, or an anchor', async () => {
    // A tracking tag is no part of the state: current.location leaves it out, the address bar keeps it.
    for (const [url, location] of [
      ['/books/7?ref=news', '/books/7?ref=news'],
      ['/books/7?utm_source=news', '/books/7'],
      ['/books/7#reviews', '/books/7#reviews'],
    ] as const) {
      const t = await open(url);
      expect(t.loads).toEqual([]);
      expect(t.outlet.firstElementChild).toBe(t.child);
      expect(t.router.current?.location).toBe(location);
      expect(t.window.location.href).toBe('https://example.com' + url);
    }
  });

  it("runs neither beforeLoad nor load for the server's state, at a spelling that is not its canonical one, and both after", async () => {
    const t = await open('/members/c++');
    expect(t.loads).toEqual([]);
    expect(t.outlet.firstElementChild).toBe(t.child);
    // Every hook on either side is given the one canonical spelling.
    expect(t.outlet.innerHTML).toBe('<h1>/members/c%2B%2B</h1>');
    expect(t.window.document.title).toBe('Member at /members/c%2B%2B');
    await t.router.navigate('/members/ann');
    expect(t.loads).toEqual(['before ann', 'load ann']);
  });

  it('loads and renders as usual on every later navigation, back to the first location included', async () => {
    const t = await open('/books/7');
    await t.router.navigate('/books/8');
    expect(t.loads).toEqual(['8']);
    expect(t.outlet.innerHTML).toContain('"id":"8"');
    await t.router.navigate('/books/7');
    expect(t.loads).toEqual(['8', '7']);
    expect(t.outlet.innerHTML).toContain('"id":"7"');
  });

  it("takes the server's head tags for the state's own, never putting them back on a later navigation", async () => {
    const t = await open('/books/7');
    const head = () =>
      [...t.window.document.head.querySelectorAll('meta[name=description], script[type="application/ld+json"]')].map(
        (el) => el.getAttribute('content') ?? el.textContent,
      );
    expect(head()).toEqual(['About book 7', '{"name":"Book 7"}']);
    await t.router.navigate('/');
    expect(head()).toEqual([]);
    await t.router.navigate('/books/8');
    expect(head()).toEqual(['About book 8', '{"name":"Book 8"}']);
  });

  it("keeps the server's canonical link on its state only, never on the states navigated to after", async () => {
    const t = await open('/books/7');
    const canonical = () => [...t.window.document.head.querySelectorAll('link[rel=canonical]')].map((el) => el.getAttribute('href'));
    expect(canonical()).toEqual(['https://example.com/books/7']);
    await t.router.navigate('/');
    expect(canonical()).toEqual([]);
    await t.router.navigate('/books/7');
    expect(canonical()).toEqual([]);
  });

  it("shows the shell's title, as the server does, for a route without one, after a state whose title replaced it", async () => {
    const t = await open('/books/7');
    expect(t.window.document.title).toBe('Book 7');
    await t.router.navigate('/plain');
    expect(t.window.document.title).toBe('Books');
    const t2 = await open('/plain');
    expect(t2.html).toContain('<title>Books</title>');
    await t2.router.navigate('/books/8');
    await t2.router.navigate('/plain');
    expect(t2.window.document.title).toBe('Books');
  });

  it("shows the shell's title for a route without one after a snapshot opened at its ugly URL", async () => {
    const t = await open('/?_escaped_fragment_=/books/7', 'bots');
    expect(t.window.document.title).toBe('Book 7');
    await t.router.navigate('/plain');
    expect(t.window.document.title).toBe('Books');
  });

  it('keeps the server-rendered notFound view', async () => {
    const t = await open('/nowhere');
    expect(t.outlet.firstElementChild).toBe(t.child);
    expect(t.router.current?.notFound).toBe(true);
  });

  it('takes a 404 its load gave on the server (notFound()) without calling load, and keeps that view', async () => {
    const t = await open('/books/0');
    expect(t.loads).toEqual([]);
    expect(t.router.current).toMatchObject({ location: '/books/0', notFound: true });
    expect(t.outlet.firstElementChild).toBe(t.child);
    expect(t.window.document.documentElement.dataset['routerStatus']).toBe('404');
  });

  it("loads as usual on a 'bots' page, which carries no data", async () => {
    const t = await open('/books/7', 'bots');
    expect(t.html).not.toContain('crawlable-router-data');
    expect(t.loads).toEqual(['7']);
    expect(t.outlet.firstElementChild).not.toBe(t.child);
  });

  it("takes the head of a snapshot opened at its ugly URL for its state's: its canonical link while the state is shown, no tag of it after", async () => {
    const t = await open('/?_escaped_fragment_=/books/7', 'bots');
    const head = () =>
      [...t.window.document.head.querySelectorAll('meta[name=description], script[type="application/ld+json"], link[rel=canonical]')].map(
        (el) => el.getAttribute('content') ?? el.getAttribute('href') ?? el.textContent,
      );
    // The router has moved the address to the clean URL, loaded and drawn the state anew.
    expect(t.window.location.href).toBe('https://example.com/books/7');
    expect(t.loads).toEqual(['7']);
    // The snapshot's canonical link names the state shown, at the URL the router moved to.
    expect(head()).toEqual(['https://example.com/books/7', 'About book 7', '{"name":"Book 7"}']);
    await t.router.navigate('/');
    expect(head()).toEqual([]);
    await t.router.navigate('/books/8');
    expect(head()).toEqual(['About book 8', '{"name":"Book 8"}']);
  });

  it('ignores data and a mark for another location (a page opened at its #! URL)', async () => {
    const server = app();
    const handler = createSnapshotHandler({ routes: server.routes, origin: 'https://example.com', shell: SHELL, cleanUrls: 'all' });
    const html = await (await handler.fetch(new Request('https://example.com/')))!.text();
    const window = new Window({ url: 'https://example.com/#!/books/3' });
    window.document.write(html);
    const client = app();
    const router = createRouter({ routes: client.routes, outlet: '#app', mode: 'hashbang', window });
    opened.push({ window, router });
    await router.start();
    expect(client.loads).toEqual(['3']);
    expect(window.document.getElementById('app')?.innerHTML).toContain('"id":"3"');
    // The page's canonical link names '/', not the state shown.
    expect(window.document.head.querySelector('link[rel=canonical]')).toBeNull();
  });
});

describe('readHydration', () => {
  it.each([
    [
      '<script type="application/json" id="crawlable-router-data">{"location":"/a","status":200,"data":1}</script>',
      { location: '/a', status: 200, data: 1 },
    ],
    ['<script type="application/json" id="crawlable-router-data">{not json</script>', null],
    ['<script type="application/json" id="crawlable-router-data">{"data":1}</script>', null],
    ['<script type="application/json" id="crawlable-router-data">"/a"</script>', null],
    ['<p id="crawlable-router-data">{"location":"/a","status":200,"data":1}</p>', null],
    ['<textarea id="crawlable-router-data">{"location":"/a","status":200,"data":1}</textarea>', null],
    ['', null],
  ])('reads %s', (markup, expected) => {
    const window = new Window();
    window.document.body.innerHTML = markup;
    expect(readHydration(window.document)).toEqual(expected);
  });
});
