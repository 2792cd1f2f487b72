import type { Express } from 'express';
import express from 'express';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { createClient } from 'redis';
import type { RouteTable } from 'crawlable-router';
import { createRoutes } from 'crawlable-router';
import { createSnapshotHandler, type SnapshotHandler } from 'crawlable-router/server';
import { createRouter } from 'crawlable-router/client';
import { createMemoryHistory } from 'history';
import { listen, request, type Reply, type Running } from '../server/helpers.js';
import { useRedis } from '../server/cache/redis.js';
import { appFolder, blocksOf, headingsOf, readDoc, recipesUnder, sectionOf, type AppFolder } from './recipes.js';

// docs/deploying.md: every recipe run as printed (test/docs/recipes.ts), and the headers its table
// states asked of a real handler.

const DOC = readDoc('docs/deploying.md');
const SECTIONS = {
  builds: 'Deploys and builds',
  redis: 'Behind one Redis, during a rolling deploy',
  prerendered: 'Prerendered snapshots',
  cdn: 'A CDN in front',
  assets: 'Assets: never the shell',
  vite: "Vite's `base` and the route table's",
  noindex: 'Pages kept out of search: `noindex`',
  visitors: 'Logged-in visitors: `request` and `beforeLoad`',
  perUser: 'Per-user pages',
  rules: 'Access rules on the server',
};
const ORIGIN = 'https://example.com';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** The app the recipes assume: its route table and its built shell, naming a hashed script. */
const ROUTES = `import { createRoutes } from 'crawlable-router';
export const rendered = [];
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
export const routes = createRoutes([
  { path: '/', title: 'Books', render: () => '<h1>Books</h1>' },
  {
    path: '/books/:id',
    entries: () => [{ id: '1' }],
    title: ({ params }) => 'Book ' + params.id,
    render: ({ params }) => (rendered.push(params.id), '<h1>Book ' + escape(params.id) + '</h1>'),
  },
  { path: '/book/:id', redirect: '/books/:id' },
  { path: '/feed.xml', title: 'Feed', render: () => '<h1>Feed</h1>' },
  BROKEN
]);
`;
const routesFile = (broken = false) =>
  ROUTES.replace('BROKEN', broken ? "{ path: '/broken', load: () => { throw new Error('the database is down'); } }," : '');
const shellNaming = (script: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Books</title><script type="module" src="/assets/${script}"></script></head>` +
  `<body><main id="app"></main></body></html>\n`;
const OLD = 'index-BOYfyMYL.js';
const NEW = 'index-Cq81xQ2v.js';

let folders: AppFolder[] = [];
let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  for (const folder of folders) folder.remove();
  running = [];
  folders = [];
});

/** A folder holding the app, with the recipes under `heading` written as printed. */
function app(heading: string, files: Record<string, string> = { 'routes.js': routesFile(), 'dist/index.html': shellNaming(OLD) }) {
  const folder = appFolder(files);
  folders.push(folder);
  return { folder, recipes: recipesUnder(DOC, heading) };
}

async function serve(listener: Express | SnapshotHandler['node']): Promise<Running> {
  const server = await listen(listener as Parameters<typeof listen>[0]);
  running.push(server);
  return server;
}

const asBot = (port: number, target: string, headers: Record<string, string> = {}) =>
  request(port, target, { headers: { 'user-agent': BOT, ...headers } });
const asBrowser = (port: number, target: string, headers: Record<string, string> = {}) =>
  request(port, target, { headers: { 'user-agent': BROWSER, ...headers } });
const fetchAs = (handler: SnapshotHandler, userAgent: string, target: string) =>
  handler.fetch(new Request(ORIGIN + target, { headers: { 'user-agent': userAgent } }));
const isShell = (reply: Reply) => reply.body.includes('<meta name="fragment" content="!">');

describe('the page', () => {
  it('has a recipe under every heading the tests know, and no recipe elsewhere', () => {
    const known = new Set(Object.values(SECTIONS));
    for (const heading of headingsOf(DOC)) {
      const blocks = blocksOf(sectionOf(DOC, heading));
      if (!known.has(heading)) expect(blocks, `a code block under "${heading}", which no test runs`).toEqual([]);
    }
    expect(headingsOf(DOC)).toEqual(expect.arrayContaining([...known]));
  });

  it("lists every section in its intro's last line, by a link to its heading", () => {
    const intro = sectionOf(DOC, 'Deploying');
    const anchors = [...intro.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    // GitHub's anchors: lower case, punctuation but `-` dropped, spaces as `-`.
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-');
    const top = headingsOf(DOC).filter((h) => DOC.includes(`\n## ${h}\n`));
    expect(anchors).toEqual(top.map(slug));
  });
});

describe(SECTIONS.builds, () => {
  const redis = useRedis();

  it("serves no process the other build's page behind one Redis; each build renders over the other's, with a TTL", async () => {
    const { folder, recipes } = app(SECTIONS.redis);
    expect(recipes.map((r) => r.file)).toEqual(['server.js']);
    folder.write(recipes[0]!);
    type Recipe = { snapshots: SnapshotHandler; client: ReturnType<typeof createClient> };
    const processes: Recipe[] = [];
    const start = async (build: string | undefined) => {
      const started = await folder.run<Recipe>('server.js', { GIT_SHA: build, REDIS_URL: redis.server.url });
      processes.push(started);
      // A process up for a moment: its client connected (before, its requests render unshared).
      const { client } = started;
      if (!client.isReady) await new Promise((resolve) => client.once('ready', resolve));
      return started;
    };
    const { rendered } = await folder.load<{ rendered: string[] }>('routes.js');
    const page = async (one: Recipe) => await (await fetchAs(one.snapshots, BOT, '/books/1'))!.text();
    try {
      const old = await start('a1');
      expect(old.snapshots.build).toBe('a1');
      expect(await page(old)).toContain(OLD);
      // Another process of the old build: the old render, shared.
      expect(await page(await start('a1'))).toContain(OLD);
      expect(rendered).toHaveLength(1);
      // The deploy: a new shell, a new build.
      folder.write('dist/index.html', shellNaming(NEW));
      const fresh = await start('b2');
      expect(await page(fresh)).toContain(NEW);
      expect(await page(await start('b2'))).toContain(NEW);
      expect(rendered).toHaveLength(2);
      // Both builds asked in turn: each renders the state again, and serves its own page.
      expect(await page(old)).toContain(OLD);
      expect(await page(fresh)).toContain(NEW);
      expect(await page(old)).not.toContain(NEW);
      expect(rendered).toHaveLength(5);
      // What is kept expires with its TTL (ttlMs: 3_600_000).
      const probe = await redis.connect();
      const ttl = await probe.pTTL('example.com:snapshot:/books/1');
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
      // GIT_SHA unset: a hash of the shell, another with another shell.
      const unset = await start(undefined);
      expect(unset.snapshots.build).toMatch(/^[\w-]{16}$/);
      folder.write('dist/index.html', shellNaming(OLD));
      expect((await start(undefined)).snapshots.build).not.toBe(unset.snapshots.build);
    } finally {
      for (const { client } of processes) client.destroy();
    }
  });

  it('prerenders for one build, which its handler serves and a handler of another build refuses at start', async () => {
    const { folder, recipes } = app(SECTIONS.prerendered);
    expect(recipes.map((r) => r.file)).toEqual(['prerender.js', 'server.js']);
    for (const recipe of recipes) folder.write(recipe);
    await folder.run('prerender.js', { GIT_SHA: 'a1' });
    expect(JSON.parse(readFileSync(path.join(folder.dir, 'snapshots/.crawlable-router.json'), 'utf8'))).toEqual({ build: 'a1' });
    // The handler of that build serves the folder's file, as written.
    writeFileSync(path.join(folder.dir, 'snapshots/books/1/index.html'), '<!DOCTYPE html><p>prerendered</p>');
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js', { GIT_SHA: 'a1' });
    expect(await (await fetchAs(snapshots, BOT, '/books/1'))!.text()).toBe('<!DOCTYPE html><p>prerendered</p>');
    // Another build's handler: BUILD_MISMATCH at start, its message as printed.
    const printed = /`(the store holds snapshots of build [^`]+)`/.exec(DOC.replace(/\s+/g, ' '))?.[1];
    expect(printed).toBeDefined();
    await expect(folder.run('server.js', { GIT_SHA: 'b2' })).rejects.toMatchObject({
      name: 'SnapshotError',
      code: 'BUILD_MISMATCH',
      message: printed!.replace('a1b2…', 'a1').replace('c3d4…', 'b2'),
    });
  });
});

describe(SECTIONS.cdn, () => {
  /** The rows of the page's table of headers. */
  function rows() {
    const lines = sectionOf(DOC, SECTIONS.cdn)
      .split('\n')
      .filter((line) => line.startsWith("| `'"));
    const cell = (text: string) => text.trim().replace(/^`|`$/g, '');
    return lines.map((line) => {
      const [mode, who, , cacheControl, vary] = line.split('|').slice(1, -1).map(cell);
      const [, agent, target] = /^(a bot|a browser|anyone) at `([^`]+)$/.exec(who as string) ?? [];
      return { line, mode: (mode as string).replace(/'/g, ''), agent, target: target as string, cacheControl, vary };
    });
  }

  it('sends the headers its table states, 304s and redirects at clean URLs included', async () => {
    const { folder } = app(SECTIONS.cdn);
    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    const shell = shellNaming(OLD);
    const table = rows();
    expect(table).toHaveLength(5);
    for (const { line, mode, agent, target, cacheControl, vary } of table) {
      const handler = createSnapshotHandler({ routes, origin: ORIGIN, shell, cleanUrls: mode as 'bots' });
      const { port } = await serve(handler.node);
      const agents = agent === 'a bot' ? [BOT] : agent === 'a browser' ? [BROWSER] : [BOT, BROWSER];
      expect(agents, line).toHaveLength(agent === 'anyone' ? 2 : 1);
      for (const userAgent of agents) {
        const reply = await request(port, target, { headers: { 'user-agent': userAgent } });
        expect([reply.status, reply.headers['cache-control'], reply.headers['vary']], `${line} (${userAgent})`).toEqual([
          200,
          cacheControl,
          vary,
        ]);
        expect(isShell(reply), line).toBe(/the shell/.test(line));
        // The 304 says it too.
        const again = await request(port, target, { headers: { 'user-agent': userAgent, 'if-none-match': reply.headers.etag as string } });
        expect([again.status, again.headers['vary']], line).toEqual([304, vary]);
      }
      if (mode === 'bots')
        for (const userAgent of [BOT, BROWSER])
          expect((await request(port, '/book/1', { headers: { 'user-agent': userAgent } })).headers['vary']).toBe(
            'User-Agent, Accept-Encoding',
          );
    }
  });

  it('runs the recipe of one page per URL: a bot and a browser get the same bytes and headers, no Vary: User-Agent', async () => {
    const { folder, recipes } = app(SECTIONS.cdn);
    expect(recipes.map((r) => r.file)).toEqual(['server.js', 'server.js']);
    folder.write(recipes[0]!);
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const { port } = await serve(snapshots.node);
    const [bot, browser] = [await asBot(port, '/books/1'), await asBrowser(port, '/books/1')];
    expect(browser.body).toBe(bot.body);
    expect(bot.body).toContain('id="crawlable-router-data"');
    for (const name of ['cache-control', 'vary', 'etag', 'content-type'])
      expect([name, browser.headers[name]]).toEqual([name, bot.headers[name]]);
    expect(bot.headers['cache-control']).toBe('public, max-age=300');
    expect(bot.headers['vary']).toBe('Accept-Encoding');
  });

  it('runs the recipe of snapshots for bots only: private answers, the shell too', async () => {
    const { folder, recipes } = app(SECTIONS.cdn);
    folder.write(recipes[1]!);
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const { port } = await serve(snapshots.node);
    const bot = await asBot(port, '/books/1');
    expect([isShell(bot), bot.headers['cache-control'], bot.headers['vary']]).toEqual([
      false,
      'private, max-age=300',
      'User-Agent, Accept-Encoding',
    ]);
    const browser = await asBrowser(port, '/books/1');
    expect([isShell(browser), browser.headers['cache-control']]).toEqual([true, 'private, no-cache']);
    expect((await asBrowser(port, '/?_escaped_fragment_=/books/1')).headers['cache-control']).toBe('private, max-age=300');
  });

  it('answers a failed render no-store in every mode, the shell at a clean URL under all', async () => {
    const { folder } = app(SECTIONS.cdn, { 'routes.js': routesFile(true), 'dist/index.html': shellNaming(OLD) });
    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    for (const cleanUrls of ['bots', 'all', 'shell'] as const) {
      const handler = createSnapshotHandler({ routes, origin: ORIGIN, shell: shellNaming(OLD), cleanUrls, onError: () => {} });
      const { port } = await serve(handler.node);
      // Under 'shell' a clean URL is the shell's, which runs no load.
      for (const target of cleanUrls === 'shell' ? ['/?_escaped_fragment_=/broken'] : ['/broken', '/?_escaped_fragment_=/broken']) {
        const reply = await asBot(port, target);
        expect([reply.status, reply.headers['cache-control']], `${cleanUrls} ${target}`).toEqual([500, 'no-store']);
      }
      if (cleanUrls === 'all') expect((await asBrowser(port, '/broken')).body).toContain(OLD);
    }
  });
});

describe(SECTIONS.assets, () => {
  const files = () => ({
    'routes.js': routesFile(),
    'dist/index.html': shellNaming(OLD),
    [`dist/assets/${OLD}`]: 'console.log("the app");\n',
    'dist/about.html': '<!DOCTYPE html><p>About</p>\n',
  });

  it('runs the recipe: files first, the handler, then a 404; an asset never gets the shell', async () => {
    const { folder, recipes } = app(SECTIONS.assets, files());
    expect(recipes.map((r) => r.file)).toEqual(['server.js']);
    folder.write(recipes[0]!);
    const { app: server } = await folder.run<{ app: Express }>('server.js');
    const { port } = await serve(server);
    const script = await asBrowser(port, `/assets/${OLD}`, { 'sec-fetch-dest': 'script' });
    expect([script.status, script.headers['content-type'], script.body]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'console.log("the app");\n',
    ]);
    // A chunk gone since the deploy, an image a route matches, a script at a state's URL: the 404.
    for (const [target, headers] of [
      ['/assets/index-old.js', {}],
      ['/assets/index-old.js', { 'sec-fetch-dest': 'script' }],
      ['/books/cover.png', {}],
      ['/books/1', { 'sec-fetch-dest': 'script' }],
      ['/books/1', { 'sec-fetch-dest': 'image' }],
    ] as const)
      for (const ask of [asBot, asBrowser]) {
        const reply = await ask(port, target, headers);
        expect([reply.status, reply.headers['content-type'], reply.body], `${target} ${JSON.stringify(headers)}`).toEqual([
          404,
          'text/plain; charset=utf-8',
          'Not Found',
        ]);
      }
    // The shell's own file is no page of its own: a 301 to the base, for a bot and a browser.
    for (const ask of [asBot, asBrowser]) {
      const reply = await ask(port, '/index.html');
      expect([reply.status, reply.headers.location, reply.body.includes('<script')]).toEqual([301, '/', false]);
    }
    // Pages: the shell for a browser (a document, or fetch), the snapshot for a bot, a route ending in .xml.
    expect(isShell(await asBrowser(port, '/books/1', { 'sec-fetch-dest': 'document' }))).toBe(true);
    expect(isShell(await asBrowser(port, '/books/1', { 'sec-fetch-dest': 'empty' }))).toBe(true);
    expect((await asBot(port, '/books/1')).body).toContain('<h1>Book 1</h1>');
    expect((await asBot(port, '/feed.xml')).body).toContain('<h1>Feed</h1>');
    // An ugly URL is never an asset.
    expect((await asBot(port, '/?_escaped_fragment_=/books/cover.png')).body).toContain('<h1>Book cover.png</h1>');
  });

  it('gives null from fetch for an asset, and in the other order serves asset files but answers other files with the shell', async () => {
    const { folder } = app(SECTIONS.assets, files());
    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    const snapshots = createSnapshotHandler({ routes, origin: ORIGIN, shell: shellNaming(OLD) });
    expect(await fetchAs(snapshots, BROWSER, '/assets/index-old.js')).toBeNull();
    const reversed = express()
      .use(snapshots.node)
      .use(express.static(path.join(folder.dir, 'dist'), { index: false }));
    const { port } = await serve(reversed);
    expect((await asBrowser(port, `/assets/${OLD}`)).body).toBe('console.log("the app");\n');
    const about = await asBrowser(port, '/about.html');
    expect([about.status, isShell(about)]).toEqual([404, true]);
  });
});

describe(SECTIONS.vite, () => {
  it("runs the recipe: Vite's build and the table share /jobs/, and the page's files pass the handler to the static server", async () => {
    const { folder, recipes } = app(SECTIONS.vite, {
      'index.html':
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Jobs</title><script type="module" src="/src/main.js"></script></head>' +
        '<body><main id="app"></main></body></html>\n',
      'src/main.js':
        "import { createRouter } from 'crawlable-router/client';\nimport { routes } from './routes.js';\ncreateRouter({ routes, outlet: '#app' }).start();\n",
    });
    expect(recipes.map((r) => r.file)).toEqual(['src/base.js', 'vite.config.js', 'src/routes.js', 'server.js']);
    for (const recipe of recipes) folder.write(recipe);
    const { build } = await import('vite');
    await build({ root: folder.dir, configFile: path.join(folder.dir, 'vite.config.js'), logLevel: 'silent' });
    const shell = readFileSync(path.join(folder.dir, 'dist/index.html'), 'utf8');
    const [, script] = /src="(\/jobs\/assets\/index-[\w-]+\.js)"/.exec(shell) ?? [];
    expect(script).toBeDefined();
    expect(readdirSync(path.join(folder.dir, 'dist/assets'))).toContain(path.basename(script!));

    const { app: server } = await folder.run<{ app: Express }>('server.js');
    const { port } = await serve(server);
    const file = await asBrowser(port, script!, { 'sec-fetch-dest': 'script' });
    expect([file.status, file.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(file.body).toBe(readFileSync(path.join(folder.dir, 'dist', script!.slice('/jobs/'.length)), 'utf8'));
    expect((await asBrowser(port, '/jobs/assets/index-gone.js')).status).toBe(404);
    // Outside the app's path the static server has no file: what a page built with Vite's base '/' asks for.
    expect((await asBrowser(port, script!.slice('/jobs'.length))).status).toBe(404);
    const bot = await asBot(port, '/jobs/acme/engineer');
    expect(bot.status).toBe(200);
    expect(bot.body).toContain('<link rel="canonical" href="https://example.com/jobs/acme/engineer"');
    expect(bot.body).toContain(script);
    expect(isShell(await asBrowser(port, '/jobs/acme/engineer'))).toBe(true);

    const { routes } = await folder.load<{ routes: RouteTable }>('src/routes.js');
    const printed = /`(base "\/" is not the route table's base "\/jobs\/")`/.exec(DOC)?.[1];
    expect(() => createSnapshotHandler({ routes, origin: ORIGIN, base: '/' })).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION', message: printed }),
    );
    // Mounted under the path, the handler reads the URL the client asked for.
    const mounted = await serve(express().use('/jobs', createSnapshotHandler({ routes, origin: ORIGIN, shell }).node));
    expect((await asBot(mounted.port, '/jobs/acme/engineer')).body).toBe(bot.body);
    // A table of base '/' reads the app's URLs as states it has none of.
    const atRoot = createRoutes(routes.routes.map((route) => ({ path: route.path as string })));
    expect((await fetchAs(createSnapshotHandler({ routes: atRoot, origin: ORIGIN, shell }), BOT, '/jobs/acme/engineer'))?.status).toBe(404);
  });
});

describe(SECTIONS.noindex, () => {
  it('runs the recipe: the search page says noindex in its meta and header, and is left out of the sitemap', async () => {
    const { folder, recipes } = app(SECTIONS.noindex, { 'dist/index.html': shellNaming(OLD) });
    expect(recipes.map((r) => r.file)).toEqual(['routes.js', 'sitemap.js']);
    for (const recipe of recipes) folder.write(recipe);
    await folder.run('sitemap.js');
    const xml = readFileSync(path.join(folder.dir, 'dist/sitemap.xml'), 'utf8');
    expect([...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual(['https://example.com/']);
    expect(existsSync(path.join(folder.dir, 'dist/sitemap-1.xml'))).toBe(false);

    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    const { port } = await serve(createSnapshotHandler({ routes, origin: ORIGIN, shell: shellNaming(OLD) }).node);
    for (const target of ['/search?q=dune', '/?_escaped_fragment_=/search%3Fq=dune']) {
      const search = await asBot(port, target);
      expect([search.status, search.headers['x-robots-tag']], target).toEqual([200, 'noindex']);
      expect(search.body).toContain('<meta name="robots" content="noindex"');
    }
    const home = await asBot(port, '/');
    expect([home.headers['x-robots-tag'], home.body.includes('name="robots"')]).toEqual([undefined, false]);
    const shell = await asBrowser(port, '/search?q=dune');
    expect([isShell(shell), shell.headers['x-robots-tag']]).toEqual([true, 'noindex']);
  });
});

describe(SECTIONS.visitors, () => {
  it("runs the recipes: each visitor's own page, private and kept nowhere; a guarded page a 302 for a bot, on both sides", async () => {
    const { folder, recipes } = app(SECTIONS.perUser, {});
    expect(recipes.map((r) => r.file)).toEqual(['routes.js', 'server.js']);
    for (const recipe of recipes) folder.write(recipe);
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const { port } = await serve(snapshots.node);
    const ann = await asBrowser(port, '/account', { cookie: 'theme=dark; user=ann' });
    expect([ann.status, ann.headers['cache-control']]).toEqual([200, 'private, no-store']);
    expect(ann.body).toContain('<h1>Signed in as ann</h1>');
    expect((await asBrowser(port, '/account', { cookie: 'user=bob' })).body).toContain('<h1>Signed in as bob</h1>');
    expect((await asBrowser(port, '/account')).body).toContain('<h1>Sign in</h1>');
    const home = await asBrowser(port, '/', { cookie: 'user=ann' });
    expect(home.headers['cache-control']).toBe('public, max-age=300');

    // The access rule: a bot (and anyone signed out) is sent to the login page, never shown the form.
    for (const target of ['/post', '/?_escaped_fragment_=/post']) {
      const bot = await asBot(port, target);
      expect([bot.status, bot.headers['cache-control'], bot.body.includes('Post a job')], target).toEqual([
        302,
        'private, no-store',
        false,
      ]);
    }
    expect((await asBot(port, '/post')).headers.location).toBe('https://example.com/login?next=/post');
    const member = await asBrowser(port, '/post', { cookie: 'user=ann' });
    expect([member.status, member.body.includes('<h1>Post a job</h1>')]).toEqual([200, true]);

    // The same rule in the client router (no document.cookie in Node: signed out).
    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    const router = createRouter({ routes, history: createMemoryHistory({ initialEntries: ['/post'] }) });
    await router.start();
    expect(router.current?.location).toBe('/login?next=/post');
    router.destroy();
  });

  it('runs the recipe of a rule for some states: the others stay public, and out of the sitemap go the guarded', async () => {
    const { folder, recipes } = app(SECTIONS.perUser, {});
    for (const recipe of recipes) folder.write(recipe);
    const { snapshots } = await folder.run<{ snapshots: SnapshotHandler }>('server.js');
    const { port } = await serve(snapshots.node);
    const open = await asBot(port, '/jobs/1', { cookie: 'user=ann' });
    expect([open.status, open.headers['cache-control'], open.body.includes('<h1>A job</h1>')]).toEqual([200, 'public, max-age=300', true]);
    const guarded = await asBot(port, '/jobs/2');
    expect([guarded.status, guarded.headers['cache-control'], guarded.headers.location]).toEqual([
      302,
      'private, no-store',
      'https://example.com/login?next=/jobs/2',
    ]);
    const member = await asBot(port, '/jobs/2', { cookie: 'user=ann' });
    expect([member.status, member.headers['cache-control'], member.body.includes('<h1>A job</h1>')]).toEqual([
      200,
      'private, no-store',
      true,
    ]);
    const { routes } = await folder.load<{ routes: RouteTable }>('routes.js');
    const listed: string[] = [];
    for await (const location of routes.locations()) listed.push(location);
    expect(listed).toEqual(['/', '/login', '/jobs/1']);
  });
});
