import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/routes/table.js';
import { createSnapshotHandler, type CleanUrls } from '../../src/server/handler.js';
import { listen, request, type Running } from './helpers.js';

// What a crawler is told by the handler: crawlers of today drop the fragment (`/#!/books/1` is `/`
// to them), so wherever the server answers clean URLs every URL written for them is clean, a
// hashbang app's too; tracking tags make no state; Open Graph's required properties are derived.

const ORIGIN = 'https://example.com';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Shop</title><link rel="canonical" href="/#!/"></head>\n' +
  '<body><nav><a href="#!/books/2">second</a> <a href="/app/#!/books/3">third</a></nav><main id="app"></main></body></html>\n';

function table(renders: string[]) {
  return createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1><a href="#!/books/1">first</a>' },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id}`,
        head: ({ params }) => ({
          meta: [{ property: 'og:image', content: `${ORIGIN}/covers/${params.id}.png` }],
          link: [
            { rel: 'alternate', hreflang: 'fr', href: `${ORIGIN}/app/#!/fr/books/${params.id}` },
            { rel: 'alternate', hreflang: 'x-default', href: `#!/books/${params.id}` },
          ],
        }),
        render: ({ params }) => (renders.push(String(params.id)), `<h1>Book ${params.id}</h1><a href="/app/#!/books/9?tab=x">next</a>`),
      },
      { path: '/plain', title: 'Plain', render: () => '<p>no Open Graph here</p>' },
      {
        path: '/typed',
        title: 'Typed',
        head: () => ({
          meta: [
            { property: 'og:type', content: 'book' },
            { property: 'og:url', content: `${ORIGIN}/app/#!/typed` },
          ],
        }),
        render: () => '<p>typed</p>',
      },
    ],
    { base: '/app/', notFound: { title: 'Not found', head: () => ({ meta: [{ property: 'og:title', content: 'Gone' }] }) } },
  );
}

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function serve(cleanUrls: CleanUrls) {
  const renders: string[] = [];
  const handler = createSnapshotHandler({ routes: table(renders), origin: ORIGIN, mode: 'hashbang', shell: SHELL, cleanUrls });
  const server = await listen((req, res) => void handler.node(req, res));
  running.push(server);
  const get = (target: string) => request(server.port, target, { headers: { 'User-Agent': BOT } });
  return { get, renders };
}

/** Every URL a crawler reads in a page: canonical and alternate links, og:url, and the `<a href>`s. */
function urls(html: string) {
  type Node = { tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[] };
  const found = { canonical: [] as string[], alternates: [] as string[], og: {} as Record<string, string>, links: [] as string[] };
  const walk = (n: Node) => {
    const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value ?? '';
    if (n.tagName === 'link' && attr('rel') === 'canonical') found.canonical.push(attr('href'));
    if (n.tagName === 'link' && attr('rel') === 'alternate') found.alternates.push(attr('href'));
    if (n.tagName === 'meta' && attr('property').startsWith('og:')) found.og[attr('property')] = attr('content');
    if (n.tagName === 'a') found.links.push(attr('href'));
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

describe('a hashbang app whose server answers clean URLs', () => {
  it.each(['bots', 'all'] as const)(
    'tells crawlers clean URLs only, with cleanUrls %s, at the ugly and the clean URL',
    async (cleanUrls) => {
      const { get } = await serve(cleanUrls);
      for (const target of ['/app/?_escaped_fragment_=/books/1', '/app/books/1']) {
        const reply = await get(target);
        expect(reply.status).toBe(200);
        expect(urls(reply.body)).toEqual({
          canonical: [`${ORIGIN}/app/books/1`],
          alternates: [`${ORIGIN}/app/fr/books/1`, `${ORIGIN}/app/books/1`],
          og: { 'og:image': `${ORIGIN}/covers/1.png`, 'og:url': `${ORIGIN}/app/books/1`, 'og:title': 'Book 1', 'og:type': 'website' },
          links: ['/app/books/2', '/app/books/3', '/app/books/9?tab=x'],
        });
        expect(reply.body).not.toContain('#!');
      }
    },
  );

  it('keeps the #! URLs where it speaks the scheme alone (cleanUrls shell)', async () => {
    const { get } = await serve('shell');
    const reply = await get('/app/?_escaped_fragment_=/books/1');
    expect(urls(reply.body)).toEqual({
      canonical: [`${ORIGIN}/app/#!/books/1`],
      alternates: [`${ORIGIN}/app/#!/fr/books/1`, `${ORIGIN}/app/#!/books/1`],
      og: { 'og:image': `${ORIGIN}/covers/1.png`, 'og:url': `${ORIGIN}/app/#!/books/1`, 'og:title': 'Book 1', 'og:type': 'website' },
      links: ['/app/#!/books/2', '/app/#!/books/3', '/app/#!/books/9?tab=x'],
    });
  });

  it("keeps a state's own og:type and writes its own og:url clean; a state with no og: tag gets none", async () => {
    const { get } = await serve('bots');
    expect(urls((await get('/app/typed')).body).og).toEqual({ 'og:type': 'book', 'og:url': `${ORIGIN}/app/typed`, 'og:title': 'Typed' });
    expect(urls((await get('/app/plain')).body).og).toEqual({});
  });

  it('gives a 404 with og: tags its title and type, and no og:url: it has no canonical URL', async () => {
    const { get } = await serve('bots');
    const reply = await get('/app/nowhere');
    expect(reply.status).toBe(404);
    expect(urls(reply.body)).toMatchObject({ canonical: [], og: { 'og:title': 'Gone', 'og:type': 'website' } });
  });
});

describe('tracking tags', () => {
  it('make no state: one canonical URL, one og:url, one cache entry and one render for every campaign link', async () => {
    const { get, renders } = await serve('bots');
    const bodies = new Set<string>();
    for (const target of [
      '/app/books/1',
      '/app/books/1?utm_source=x&fbclid=y',
      '/app/books/1?gclid=1&utm_medium=email&utm_campaign=spring',
      '/app/?_escaped_fragment_=/books/1?msclkid=2',
      '/app/books/1?_ga=3&_gl=4&mc_cid=5&mc_eid=6&yclid=7&igshid=8&dclid=9',
    ]) {
      const reply = await get(target);
      expect(reply.status).toBe(200);
      bodies.add(reply.body);
    }
    expect(renders).toEqual(['1']);
    expect(bodies.size).toBe(1);
    const [body] = bodies;
    expect(urls(body as string)).toMatchObject({ canonical: [`${ORIGIN}/app/books/1`], og: { 'og:url': `${ORIGIN}/app/books/1` } });
  });
});

describe('the URLs of a state’s head', () => {
  // Google reads an hreflang alternate only fully qualified, Open Graph's og:url is an absolute
  // URL, and a canonical link is best so: a head hook's relative href (and the one its `#!` link
  // is made) is written on the origin, resolved against the state's URL as a browser resolves it.
  it.each(['bots', 'all', 'shell'] as const)('are absolute, on the origin (cleanUrls %s)', async (cleanUrls) => {
    const routes = createRoutes(
      [
        {
          path: '/books/:id',
          title: 'Book',
          head: ({ params }) => ({
            meta: [
              { property: 'og:site_name', content: 'Shop' },
              { property: 'og:image', content: `/app/covers/${params.id}.png` },
              { name: 'twitter:image', content: 'covers/big.png' },
              { property: 'og:image:secure_url', content: 'https://cdn.example.com/1.png' },
              // Root-relative text kept as written (the URL parser would write `'` as %27), and
              // `/\host` (another host to the URL parser) stays a path on the origin.
              { property: 'og:video', content: "/app/v/1?t='0'" },
              { property: 'og:audio', content: '/\\evil.example/a.mp3' },
            ],
            link: [
              { rel: 'canonical', href: `/app/books/${params.id}/` },
              { rel: 'alternate', hreflang: 'fr', href: `/app/fr/books/${params.id}` },
              { rel: 'alternate', hreflang: 'de', href: `de/${params.id}` },
              { rel: 'alternate', hreflang: 'x-default', href: `#!/books/${params.id}` },
              { rel: 'alternate', hreflang: 'es', href: `https://es.example.com/libros/${params.id}` },
              { rel: 'preload', href: '/app/cover.png' },
              { rel: 'Alternate StyleSheet', href: '/app/dark.css' },
              { rel: 'alternate icon', href: '/app/icon.svg' },
            ],
          }),
        },
      ],
      { base: '/app/' },
    );
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, shell: SHELL, cleanUrls });
    const server = await listen((req, res) => void handler.node(req, res));
    running.push(server);
    const reply = await request(server.port, '/app/?_escaped_fragment_=/books/1', { headers: { 'User-Agent': BOT } });
    expect(urls(reply.body)).toMatchObject({
      canonical: [`${ORIGIN}/app/books/1/`],
      alternates: [`${ORIGIN}/app/fr/books/1`, `${ORIGIN}/app/books/de/1`, `${ORIGIN}/app/books/1`, 'https://es.example.com/libros/1'],
      og: { 'og:url': `${ORIGIN}/app/books/1/` },
    });
    // Media URLs preview bots read only absolute; an absolute one byte for byte.
    expect(reply.body).toContain(`<meta property="og:image" content="${ORIGIN}/app/covers/1.png"`);
    expect(reply.body).toContain(`<meta name="twitter:image" content="${ORIGIN}/app/books/covers/big.png"`);
    expect(reply.body).toContain('<meta property="og:image:secure_url" content="https://cdn.example.com/1.png"');
    expect(reply.body).toContain(`<meta property="og:video" content="${ORIGIN}/app/v/1?t=&#39;0&#39;"`);
    expect(reply.body).toContain(`<meta property="og:audio" content="${ORIGIN}/\\evil.example/a.mp3"`);
    // A link the browser fetches stays as written: an absolute one would name production on a staging host.
    expect(reply.body).toContain('<link rel="preload" href="/app/cover.png"');
    expect(reply.body).toContain('<link rel="Alternate StyleSheet" href="/app/dark.css"');
    expect(reply.body).toContain('<link rel="alternate icon" href="/app/icon.svg"');
  });
});

describe('the media URLs a link preview reads', () => {
  const page = async (shell: string, head: () => { meta: { name?: string; property?: string; content: string }[] }, target: string) => {
    const routes = createRoutes([{ path: '/books/:id', title: 'Book', head }], { base: '/app/' });
    const handler = createSnapshotHandler({ routes, origin: ORIGIN, shell });
    const reply = await handler.fetch(new Request(`http://127.0.0.1${target}`, { headers: { 'User-Agent': BOT } }));
    return (await reply?.text()) ?? '';
  };

  // A site-wide og:image or twitter:image is most often written once, in the shell's head, and
  // relative: a preview bot reads them only absolute, so the snapshot writes the shell's as it
  // writes a hook's, resolved against the state's URL; browsers get the shell as it is.
  it.each(['/app/books/1', '/app/?_escaped_fragment_=/books/1'])("writes the shell's own absolute (%s)", async (target) => {
    const shell =
      '<!DOCTYPE html>\n<html><head><title>Shop</title><meta property="og:image" content="/app/og.png">' +
      '<meta name="twitter:image" content="img/tw.png"><meta property="og:image:secure_url" content="https://cdn.example.com/x.png">' +
      '<meta name="description" content="/not-a-url"></head>\n<body><main id="app"></main></body></html>\n';
    const body = await page(shell, () => ({ meta: [{ property: 'og:site_name', content: 'Shop' }] }), target);
    expect(body).toContain(`<meta property="og:image" content="${ORIGIN}/app/og.png">`);
    expect(body).toContain(`<meta name="twitter:image" content="${ORIGIN}/app/books/img/tw.png">`);
    expect(body).toContain('<meta property="og:image:secure_url" content="https://cdn.example.com/x.png">');
    expect(body).toContain('<meta name="description" content="/not-a-url">');
  });

  // Open Graph's `:url` and `:secure_url` name the same media as `og:video` and `og:audio`;
  // Twitter's player card needs its player and stream as full URLs, and `twitter:image:src` is the
  // image's older name, still read. A relative one is resolved as `og:image` is.
  it('writes the media aliases and the player card absolute', async () => {
    const names = ['og:video:url', 'og:video:secure_url', 'og:audio:url', 'og:audio:secure_url'];
    const twitter = ['twitter:image:src', 'twitter:player', 'twitter:player:stream'];
    const meta = [
      ...names.map((property) => ({ property, content: `/app/media/${property}` })),
      ...twitter.map((name) => ({ name, content: `/app/media/${name}` })),
    ];
    const body = await page(SHELL, () => ({ meta }), '/app/books/1');
    for (const property of names) expect(body).toContain(`<meta property="${property}" content="${ORIGIN}/app/media/${property}"`);
    for (const name of twitter) expect(body).toContain(`<meta name="${name}" content="${ORIGIN}/app/media/${name}"`);
  });
});
