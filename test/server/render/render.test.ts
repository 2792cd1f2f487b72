import { describe, expect, it } from 'vitest';
import { notFound, redirect } from '../../../src/routes/outcome.js';
import { createRoutes } from '../../../src/routes/table.js';
import { hooksRenderer, type RenderJob } from '../../../src/server/render/render.js';
import { parseShell } from '../../../src/server/html/shell.js';
import { createSnapshotHandler } from '../../../src/server/index.js';

const settings = { origin: 'https://example.com', base: '/', mode: 'hashbang' as const };
const shell = parseShell('<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app">shell</div></body></html>', {
  outlet: '#app',
  links: { ...settings, page: 'https://example.com/' },
});
const routes = createRoutes(
  [
    { path: '/plain' },
    { path: '/titled', title: 'A "title" <b>', render: () => '<a href="?_escaped_fragment_=/plain">p</a>' },
    {
      path: '/data/:id',
      load: async ({ params, signal }) => ({ id: params.id, aborted: signal.aborted }),
      title: ({ data }) => `Data ${(data as { id: string }).id}`,
      render: ({ data }) => `<pre>${JSON.stringify(data)}</pre>`,
    },
  ],
  { notFound: { title: 'Missing', render: () => '<h1>404</h1>' } },
);

function job(location: string): RenderJob {
  const match = routes.resolve(location);
  return {
    location,
    url: `https://example.com/#!${location}`,
    canonical: `https://example.com/#!${location}`,
    match,
    notFound: !match || match.notFound,
    settings,
    signal: new AbortController().signal,
  };
}

describe('hooksRenderer', () => {
  it("gives every hook the configured origin and the state's canonical spelling, beforeLoad first, and the request through the job", async () => {
    const seen: string[] = [];
    const note = (name: string) => (c: { origin: string; location: string; request?: Request | undefined }) =>
      void seen.push(`${name} ${c.origin}${c.location} ${c.request?.url ?? '-'}`);
    const table = createRoutes([
      {
        path: '/:company/:slug',
        beforeLoad: note('beforeLoad'),
        load: note('load'),
        title: (c) => (note('title')(c), 'T'),
        head: (c) => (note('head')(c), { meta: [{ property: 'og:url', content: c.origin + c.location }] }),
        render: (c) => (note('render')(c), ''),
      },
    ]);
    const location = '/acme/c++-&-rust-100%25';
    const match = table.resolve(location);
    const request = new Request('https://example.com' + location);
    const { html } = await hooksRenderer(shell, table).render({ ...job(location), match, notFound: false, request });
    const at = `https://example.com/acme/c%2B%2B-%26-rust-100%25 ${request.url}`;
    expect(seen).toEqual([`beforeLoad ${at}`, `load ${at}`, `title ${at}`, `head ${at}`, `render ${at}`]);
    // What a head hook writes from them is the URL the canonical link names.
    expect(html).toContain('<meta property="og:url" content="https://example.com/acme/c%2B%2B-%26-rust-100%25"');
  });

  it.each([
    [
      '/plain',
      '<!DOCTYPE html><html><head><title>Shell</title><link rel="canonical" href="https://example.com/#!/plain" data-router-head="/plain"></head><body><div id="app">shell</div></body></html>',
    ],
    [
      '/titled',
      '<!DOCTYPE html><html><head><title data-router-title="Shell">A &quot;title&quot; &lt;b&gt;</title><link rel="canonical" href="https://example.com/#!/titled" data-router-head="/titled"></head><body><div id="app"><a href="/#!/plain">p</a></div></body></html>',
    ],
    [
      '/data/7',
      '<!DOCTYPE html><html><head><title data-router-title="Shell">Data 7</title><link rel="canonical" href="https://example.com/#!/data/7" data-router-head="/data/7"></head><body><div id="app"><pre>{"id":"7","aborted":false}</pre></div></body></html>',
    ],
    [
      '/nope',
      '<!DOCTYPE html><html><head><title data-router-title="Shell">Missing</title><meta name="robots" content="noindex" data-router-head="/nope"></head><body><div id="app"><h1>404</h1></div></body></html>',
    ],
  ])('renders %s with its hooks into the shell', async (location, html) => {
    expect((await hooksRenderer(shell, routes).render(job(location))).html).toBe(html);
  });

  it('stops after load when the signal was aborted meanwhile', async () => {
    const controller = new AbortController();
    const slow = createRoutes([{ path: '/x', load: async () => controller.abort(new Error('timed out')), render: () => 'never' }]);
    const match = slow.resolve('/x');
    await expect(hooksRenderer(shell).render({ ...job('/x'), match, notFound: false, signal: controller.signal })).rejects.toThrow(
      'timed out',
    );
  });

  it('rejects a render or title that returns a promise, as the browser does, rather than write "[object Promise]"', async () => {
    const late = () => Promise.resolve('<p>late</p>') as unknown as string;
    const table = createRoutes([
      { path: '/late', render: late },
      { path: '/late-title', title: late },
    ]);
    const run = (location: string) => hooksRenderer(shell).render({ ...job(location), match: table.resolve(location), notFound: false });
    await expect(run('/late')).rejects.toThrow(
      new TypeError('render of "/late" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
    await expect(run('/late-title')).rejects.toThrow(/^title of "\/late-title" returned a promise/);
  });

  it("rejects a head hook (a route's, the notFound view's or the defaults') that returns a promise, rather than answer 200 with no tags", async () => {
    // An `async head` (plain JS, which no type check stops) gave a 200 snapshot with no description,
    // og: or JSON-LD tag and no error anywhere.
    const late = async () => ({ meta: [{ name: 'description', content: 'late' }] });
    const run = (
      table: NonNullable<Parameters<typeof hooksRenderer>[1]> & { resolve(location: string): RenderJob['match'] },
      location: string,
    ) => hooksRenderer(shell, table).render({ ...job(location), match: table.resolve(location), notFound: false });
    const own = createRoutes([{ path: '/late', head: late as never }]);
    await expect(run(own, '/late')).rejects.toThrow(
      new TypeError('head of "/late" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
    const defaults = createRoutes([{ path: '/x' }], { head: late as never });
    await expect(run(defaults, '/x')).rejects.toThrow(/^head of "\/x" returned a promise/);
    const missing = createRoutes([{ path: '/x' }], { notFound: { head: late as never } });
    await expect(run(missing, '/nope')).rejects.toThrow(/^head of "\/nope" returned a promise/);
  });

  it('makes text of what render and title return as the browser does: null renders nothing, a symbol throws', async () => {
    // Before, a render returning null put "null" in the snapshot where the browser's outlet was empty
    // (innerHTML = null), and a symbol was written as "Symbol(x)" where the browser threw.
    const odd = (value: unknown) => () => value as string;
    const table = createRoutes([
      { path: '/null', render: odd(null) },
      { path: '/symbol', render: odd(Symbol('x')) },
      { path: '/symbol-title', title: odd(Symbol('x')) },
      {
        path: '/object',
        title: odd({ toString: () => 'T', valueOf: () => 'V' }),
        render: odd({ toString: () => 'R', valueOf: () => 'V' }),
      },
    ]);
    const run = (location: string) => hooksRenderer(shell).render({ ...job(location), match: table.resolve(location), notFound: false });
    const html = (await run('/null')).html;
    expect(html).toMatch(/<div id="app"><\/div>/);
    await expect(run('/symbol')).rejects.toThrow(TypeError);
    await expect(run('/symbol-title')).rejects.toThrow(TypeError);
    // An object is text by its toString, as the DOM makes it (not by valueOf, as `'' + x` would).
    expect((await run('/object')).html).toMatch(/<title data-router-title="Shell">T<\/title>.*<div id="app">R<\/div>/);
  });

  it('renders the bare shell with no canonical link and a robots noindex when nothing matches and there is no notFound route', async () => {
    const bare = { ...job('/nope'), match: null, notFound: true };
    expect((await hooksRenderer(shell).render(bare)).html).toBe(
      '<!DOCTYPE html><html><head><title>Shell</title><meta name="robots" content="noindex" data-router-head="/nope"></head><body><div id="app">shell</div></body></html>',
    );
  });

  it("writes the head: defaults, the route's tags over them, escaped, JSON-LD that no data can close", async () => {
    const hostile = '"><img src=x onerror=alert(1)></script><!--\u2028\u2029';
    const table = createRoutes(
      [
        {
          path: '/h/:id',
          head: ({ params }) => ({
            meta: [
              { name: 'description', content: hostile },
              { property: 'og:title', content: String(params.id) },
            ],
            link: [{ rel: 'alternate', hreflang: 'de', href: hostile }],
            jsonLd: { name: hostile, '@type': 'Book' },
          }),
        },
      ],
      {
        head: {
          meta: [
            { name: 'description', content: 'default' },
            { name: 'twitter:card', content: 'summary' },
          ],
        },
      },
    );
    const headShell = parseShell(
      '<!DOCTYPE html><html><head><title>Shell</title><meta name="Description" content="shell"><meta name="viewport" content="w"><link rel="alternate" hreflang="DE" href="/de"></head><body><div id="app"></div></body></html>',
      { outlet: '#app', links: { ...settings, page: 'https://example.com/' } },
    );
    const match = table.resolve('/h/1');
    const { html } = await hooksRenderer(headShell, table).render({ ...job('/h/1'), match, notFound: false });
    expect(html).toBe(
      '<!DOCTYPE html><html><head><title>Shell</title><meta name="viewport" content="w">' +
        // Open Graph's URL (the canonical link's, here a hashbang app's that speaks the scheme alone)
        // and type, derived, as a layer under the state's own: its og:title takes its place.
        '<meta property="og:url" content="https://example.com/#!/h/1" data-router-head="/h/1"><meta property="og:title" content="1" data-router-head="/h/1">' +
        '<meta property="og:type" content="website" data-router-head="/h/1"><link rel="canonical" href="https://example.com/#!/h/1" data-router-head="/h/1">' +
        '<meta name="description" content="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;!--\u2028\u2029" data-router-head="/h/1">' +
        '<meta name="twitter:card" content="summary" data-router-head="/h/1">' +
        // A relative alternate is resolved against the state's URL: crawlers read it fully qualified.
        '<link rel="alternate" href="https://example.com/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E%3C/script%3E%3C!--%E2%80%A8%E2%80%A9" hreflang="de" data-router-head="/h/1">' +
        '<script type="application/ld+json" data-router-head="/h/1">{"name":"\\"\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\u003c/script\\u003e\\u003c!--\\u2028\\u2029","@type":"Book"}</script>' +
        '</head><body><div id="app"></div></body></html>',
    );
    const script = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(JSON.parse(script)).toEqual({ name: hostile, '@type': 'Book' });
  });

  it("marks every head tag it writes with the state's location, escaped, and no tag of the shell", async () => {
    const table = createRoutes([
      { path: '/m', queryKeys: ['a', 'b'], head: () => ({ meta: [{ name: 'description', content: 'd' }], jsonLd: {} }) },
    ]);
    const markShell = parseShell(
      '<!DOCTYPE html><html><head><title>Shell</title><meta name="robots" content="all"></head><body><div id="app"></div></body></html>',
      { outlet: '#app', links: { ...settings, page: 'https://example.com/' } },
    );
    // A location is canonical (no raw `"` or `<`), but whatever it holds is written escaped.
    const location = `/m?a=1&b='"<`;
    const { html } = await hooksRenderer(markShell, table).render({ ...job(location), match: table.resolve('/m'), notFound: false });
    const mark = ` data-router-head="/m?a=1&amp;b=&#39;&quot;&lt;"`;
    expect(html).toContain(
      `<meta name="robots" content="all"><link rel="canonical" href="https://example.com/#!/m?a=1&amp;b=&#39;&quot;&lt;"${mark}>` +
        `<meta name="description" content="d"${mark}><script type="application/ld+json"${mark}>{}</script></head>`,
    );
  });

  it('keeps a canonical link a head hook names, the route’s over the table’s, as the client router does', async () => {
    const canonical = (href: string) => ({ link: [{ rel: 'canonical', href }] });
    const table = createRoutes([{ path: '/own', head: () => canonical('https://example.com/#!/elsewhere') }, { path: '/default' }], {
      head: canonical('https://example.com/#!/every'),
    });
    const links = async (location: string) => {
      const { html } = await hooksRenderer(shell, table).render({ ...job(location), match: table.resolve(location), notFound: false });
      return [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1]);
    };
    expect(await links('/own')).toEqual(['https://example.com/#!/elsewhere']);
    expect(await links('/default')).toEqual(['https://example.com/#!/every']);
  });

  it('writes no canonical link on a 404, even one the head defaults or the notFound view name', async () => {
    const canonical = (href: string) => ({ link: [{ rel: 'canonical', href }] });
    const table = createRoutes([{ path: '/gone', load: () => Promise.reject(notFound()) }], {
      head: ({ location }) => canonical('https://example.com/#!' + location),
      notFound: { title: 'Missing', head: () => canonical('https://example.com/#!/missing') },
    });
    for (const location of ['/gone', '/nowhere']) {
      const { status, html } = await hooksRenderer(shell, table).render({ ...job(location), match: table.resolve(location) });
      expect(status).toBe(404);
      expect(html).not.toContain('canonical');
    }
  });

  it('renders the notFound view with 404 and no canonical link when load throws notFound(), and hands back a redirect', async () => {
    const table = createRoutes(
      [
        { path: '/gone', load: () => Promise.reject(notFound()), title: 'never' },
        { path: '/moved', load: () => Promise.reject(redirect('/plain', 308)) },
      ],
      { notFound: { title: 'Missing', render: () => '<h1>404</h1>' } },
    );
    const gone = await hooksRenderer(shell, table).render({ ...job('/gone'), match: table.resolve('/gone') });
    expect(gone).toEqual({
      status: 404,
      html: '<!DOCTYPE html><html><head><title data-router-title="Shell">Missing</title><meta name="robots" content="noindex" data-router-head="/gone"></head><body><div id="app"><h1>404</h1></div></body></html>',
    });
    expect(await hooksRenderer(shell, table).render({ ...job('/moved'), match: table.resolve('/moved') })).toEqual({
      status: 308,
      html: '',
      redirect: '/plain',
    });
  });

  it("gives the notFound view the state as it was asked for, not its route's spelling, when load throws notFound()", async () => {
    // A case-insensitive table spells `/gone/x` as its pattern writes it (`/Gone/x`); a state its
    // route does not have has no such spelling, and the client router's notFound view sees `/gone/x`.
    const table = createRoutes([{ path: '/Gone/:id', load: () => Promise.reject(notFound()) }], {
      sensitive: false,
      notFound: { title: ({ location }) => `Missing ${location}`, render: ({ location }) => `<p>${location}</p>` },
    });
    const found = table.resolve('/gone/x');
    expect(found && table.canonical(found)).toBe('/Gone/x');
    const gone = await hooksRenderer(shell, table).render({ ...job('/gone/x'), match: found });
    expect(gone.status).toBe(404);
    expect(gone.html).toContain('<title data-router-title="Shell">Missing /gone/x</title>');
    expect(gone.html).toContain('<p>/gone/x</p>');
  });
});

describe('RenderJob.hooks', () => {
  // A renderer of its own views (crawlable-router/react/server) keeps the hooks' pipeline and draws the outlet alone.
  const table = createRoutes(
    [
      { path: '/books/:id', load: ({ params }) => ({ id: params.id }), title: 'Book', render: () => 'never', view: 'BookView' },
      { path: '/gone', load: () => Promise.reject(notFound()) },
      { path: '/moved', load: () => Promise.reject(redirect('/books/1', 301)) },
      { path: '/bare' },
    ],
    { notFound: { title: 'Missing', view: 'MissingView' } },
  );
  const SHELL = '<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app">shell</div></body></html>';
  const states: unknown[] = [];
  const handler = createSnapshotHandler({
    routes: table,
    origin: 'https://example.com',
    shell: SHELL,
    cleanUrls: 'all',
    cache: false,
    renderer: {
      render: (job) =>
        (job.hooks as NonNullable<RenderJob['hooks']>)(({ route, context, notFound }) => {
          states.push({ view: route?.view, data: context.data, location: context.location, notFound });
          return route?.path === '/bare' ? undefined : `<p>${String(route?.view)} <a href="/?_escaped_fragment_=/books/2">2</a></p>`;
        }),
    },
    onError: () => {},
  });
  const get = (path: string) => handler.fetch(new Request('https://example.com' + path)) as Promise<Response>;

  it("draws the outlet with the hooks' data, title, status and hydration data, in place of the route's render", async () => {
    const page = await get('/books/1');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title data-router-title="Shell">Book</title>');
    // Links rewritten for crawlers as a render's are; the outlet marked and the data handed on for hydration.
    expect(html).toContain('<div id="app" data-router-rendered="/books/1"><p>BookView <a href="/books/2">2</a></p></div>');
    expect(html).toContain('{"location":"/books/1","status":200,"data":{"id":"1"}}');
    expect(states.at(-1)).toEqual({ view: 'BookView', data: { id: '1' }, location: '/books/1', notFound: false });
  });

  it('draws the notFound view with 404, answers a redirect without drawing, and leaves the outlet when given nothing', async () => {
    states.length = 0;
    const gone = await get('/gone');
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('<p>MissingView');
    expect(states).toEqual([{ view: 'MissingView', data: undefined, location: '/gone', notFound: true }]);
    const moved = await get('/moved');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, 'https://example.com/books/1']);
    expect(states).toHaveLength(1);
    expect(await (await get('/bare')).text()).toContain('<div id="app" data-router-rendered="/bare">shell</div>');
  });
});
