import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MANIFEST } from '../../../src/server/files/manifest.js';
import { createRoutes } from '../../../src/routes/table.js';
import { route } from '../../../src/routes/types.js';
import { prerender, type PrerenderOptions } from '../../../src/server/build/prerender.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { fileStore } from '../../../src/server/cache/file-store.js';
import { shardOf } from '../../../src/server/build/shard.js';
import { forgetSpellings, spellAlike } from '../files/case-insensitive.js';
import { esc } from '../helpers.js';
import { parseXml } from '../xml.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'prerender-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The files under `root` but the build manifest every run writes at its top. */
function files(root: string, prefix = ''): string[] {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(root, `${prefix}${entry.name}/`) : `${prefix}${entry.name}` === MANIFEST ? [] : [`${prefix}${entry.name}`],
  );
}

let running = 0;
let peak = 0;
const routes = (base = '/') =>
  createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id}`,
        entries: () => [{ id: '1' }, { id: '2' }, { id: 'café' }, { id: '..%2F..' }, { id: '"><img onerror=x>' }],
        load: async () => {
          peak = Math.max(peak, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
        },
        render: ({ params }) => `<h1>${esc(params.id)}</h1>`,
      },
      {
        path: '/broken',
        render: (): string => {
          throw new Error('no data');
        },
      },
      {
        path: '/long/:x',
        entries: async function* () {
          yield { x: 'y'.repeat(300) };
        },
      },
      { path: '/users/:id' },
    ],
    { base },
  );

describe('prerender', () => {
  it.each([
    ['hashbang', 'shell', '/', 'https://example.com/#!/books/1'],
    // A hashbang app whose server answers clean URLs (the default 'bots') tells crawlers those.
    ['hashbang', 'bots', '/', 'https://example.com/books/1'],
    ['history', 'bots', '/app/', 'https://example.com/app/books/1'],
  ] as const)(
    'writes every location as a file, the sitemap and a report (%s, cleanUrls %s, base %s)',
    async (mode, cleanUrls, base, canonical) => {
      peak = 0;
      const report = await prerender({ routes: routes(base), outDir: dir, origin: 'https://example.com', mode, cleanUrls, concurrency: 2 });
      expect(report).toMatchObject({ total: 8, written: 6, failed: 2, sitemaps: ['sitemap.xml'] });
      expect(report.failures).toEqual([
        { location: '/broken', error: 'rendering /broken failed: no data' },
        { location: `/long/${'y'.repeat(300)}`, error: expect.stringContaining('a segment is longer than 255 bytes') },
      ]);
      expect(report.files).toEqual([
        'index.html',
        'books/1/index.html',
        'books/2/index.html',
        'books/caf%C3%A9/index.html',
        'books/..%252F.%2E/index.html',
        'books/%22%3E%3Cimg%20onerror%3Dx%3E/index.html',
      ]);
      expect(files(dir).sort()).toEqual([...report.files, 'sitemap.xml', '404.html'].sort());
      expect(report.durationMs).toBeGreaterThanOrEqual(0);
      expect(peak).toBeLessThanOrEqual(2);
      const book = readFileSync(path.join(dir, 'books/1/index.html'), 'utf8');
      expect(book).toContain('<title data-router-title="">Book 1</title>');
      expect(book).toContain(`<link rel="canonical" href="${canonical}" data-router-head="/books/1">`);
      expect(readFileSync(path.join(dir, 'books/caf%C3%A9/index.html'), 'utf8')).toContain('<h1>café</h1>');
      const urls = parseXml(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
      expect(urls).toHaveLength(6);
      expect(urls).toContain(canonical);
      expect(urls).not.toContain(expect.stringContaining('broken'));
    },
  );

  it('never writes outside outDir, whatever locations a table yields', async () => {
    const table = createRoutes([
      { path: '/', render: () => 'x' },
      { path: '/*path', render: () => 'x' },
    ]);
    const hostile = {
      ...table,
      async *locations() {
        yield* [
          '/../../etc/passwd',
          '/a/%2e%2e/%2E%2E/%2e%2e/b',
          '/..%2F..%2Fc',
          '/a\0b',
          '/d\\..\\..\\e',
          '/?../../f',
          '/C:/g',
          '/' + 'n'.repeat(10_000),
        ];
      },
    };
    const report = await prerender({ routes: hostile, outDir: path.join(dir, 'out'), origin: 'https://example.com', sitemap: false });
    expect(report.files).toEqual([
      'etc/passwd/index.html',
      'b/index.html',
      '..%2F..%2Fc/index.html',
      'd%5C..%5C..%5Ce/index.html',
      'index...%2F..%2Ff.html',
      'C%3A/g/index.html',
    ]);
    expect(report.failures.map((f) => f.error)).toEqual([
      expect.stringContaining('holds NUL'),
      expect.stringContaining('longer than 255 bytes'),
    ]);
    expect(readdirSync(dir)).toEqual(['out']);
    expect(files(path.join(dir, 'out')).sort()).toEqual([...report.files].sort());
  });

  it('fails only the bad entries() record (slug ".."), reported in failures, and writes the rest and their sitemap', async () => {
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      { path: '/books/:slug', render: () => 'book', entries: () => [{ slug: 'a' }, { slug: '..' }, { slug: 'b' }] },
      {
        path: '/tags/:tag',
        render: () => 'tag',
        entries: () => {
          throw new Error('tags table is gone');
        },
      },
    ]);
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com' });
    expect(report).toMatchObject({ total: 5, written: 3, failed: 2, files: ['index.html', 'books/a/index.html', 'books/b/index.html'] });
    expect(report.failures).toEqual([
      { location: '/books/:slug {"slug":".."}', error: expect.stringContaining('a ".." segment is not a path segment') },
      { location: '/tags/:tag entries()', error: 'tags table is gone' },
    ]);
    const urls = parseXml(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
    expect(urls).toEqual(['https://example.com/', 'https://example.com/books/a', 'https://example.com/books/b']);
  });

  it('reports an entries() that throws a value with no text, where the whole run threw a TypeError of its own', async () => {
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      {
        path: '/tags/:tag',
        entries: () => {
          throw Object.create(null);
        },
      },
    ]);
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', sitemap: false, notFoundPage: false });
    expect(report).toMatchObject({
      written: 1,
      failed: 1,
      failures: [{ location: '/tags/:tag entries()', error: '(a value that does not print)' }],
    });
  });

  it("writes a bad entries() record's params with no control character on the progress stream, on a terminal or not", async () => {
    // JSON escapes C0 but leaves DEL and C1 (\x9b starts a sequence on some terminals) as they are.
    const table = createRoutes([{ path: '/books/:slug', render: () => 'book', entries: () => [{ sulg: '\x9b2J\x7f' } as never] }]);
    for (const isTTY of [false, true]) {
      const lines: string[] = [];
      const progress = { isTTY, write: (text: string) => (lines.push(text), true) };
      const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', progress });
      expect(report.failures[0]?.location).toBe('/books/:slug {"sulg":"\x9b2J\x7f"}');
      expect(lines.join('')).toContain('/books/:slug {"sulg":"\\x9b2J\\x7f"}');
      expect(lines.join('')).not.toMatch(/[\x7f-\x9f]/);
    }
  });

  it('names the routes with params and no entries(), which name no state, where it said nothing', async () => {
    const lines: string[] = [];
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      { path: '/books/:id', render: () => 'book' },
      { path: '/docs{/:lang}', render: () => 'docs' },
      { path: '/files/*rest', render: () => 'file', entries: () => [] },
      { path: '/book/:id', redirect: '/books/:id' },
    ]);
    const progress = { isTTY: false, write: (text: string) => (lines.push(text), true) };
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', progress });
    // An optional param names its location without it; entries() that list nothing are the app's word.
    expect(report).toMatchObject({ written: 2, files: ['index.html', 'docs/index.html'], unlisted: ['/books/:id'] });
    expect(lines.join('')).toContain('; 1 route with params and no entries() named no state: /books/:id');
  });

  it("says of each state that redirects where it goes, in the report's order of the states", async () => {
    const lines: string[] = [];
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      { path: '/books/:id', render: () => 'book', entries: () => [{ id: '1' }, { id: '2' }] },
      { path: '/book/:id', redirect: '/books/:id', entries: () => [{ id: '2' }, { id: '1' }] },
    ]);
    const progress = { isTTY: false, write: (text: string) => (lines.push(text), true) };
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', progress, concurrency: 2 });
    expect(report.redirects).toEqual([
      { location: '/book/2', status: 301, to: 'https://example.com/books/2' },
      { location: '/book/1', status: 301, to: 'https://example.com/books/1' },
    ]);
    const said = lines.join('');
    expect(said).toContain('SKIPPED /book/2: redirects (301) to https://example.com/books/2');
    expect(said).toContain('SKIPPED /book/1: redirects (301) to https://example.com/books/1');
  });

  it('never writes through a symlinked folder inside outDir that leads out (out/books -> elsewhere)', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'prerender-outside-'));
    try {
      mkdirSync(path.join(dir, 'out'));
      symlinkSync(outside, path.join(dir, 'out', 'books'));
      const table = createRoutes([
        { path: '/', render: () => 'home' },
        { path: '/books/:id', render: () => 'book', entries: () => [{ id: '1' }] },
      ]);
      const report = await prerender({ routes: table, outDir: path.join(dir, 'out'), origin: 'https://example.com' });
      expect(report).toMatchObject({ written: 1, failed: 1, files: ['index.html'] });
      expect(report.failures).toEqual([
        { location: '/books/1', error: expect.stringContaining('leads out of the folder through a symlink') },
      ]);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('fails a state whose file is the one of a state with a trailing "/", and never overwrites it', async () => {
    // `/a/` and `/a` are two states (the pattern `/a/` does not match `/a`), and both would be `a/index.html`.
    const table = createRoutes([
      { path: '/a/', render: () => '<p>slash</p>' },
      { path: '/a', render: () => '<p>bare</p>' },
    ]);
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', concurrency: 1 });
    expect(report).toMatchObject({ total: 2, written: 1, failed: 1 });
    expect(report.failures).toEqual([
      { location: '/a', error: 'its file "a/index.html" is the file of "/a/" too: a path with and without a last "/" names one file' },
    ]);
    expect(readFileSync(path.join(dir, 'a/index.html'), 'utf8')).toContain('<p>slash</p>');
  });

  it("fails a state whose file differs only in case from an earlier state's, on every platform, and never overwrites it", async () => {
    const table = createRoutes([
      {
        path: '/books/:id',
        render: ({ params }) => `<p>${esc(params.id)}</p>`,
        entries: () => [{ id: 'Dune' }, { id: 'dune' }, { id: 'Emma' }],
      },
      { path: '/Books/:id', render: ({ params }) => `<p>B ${esc(params.id)}</p>`, entries: () => [{ id: 'x' }] },
      { path: '/search', render: ({ query }) => `<p>${esc(String(query.q))}</p>`, entries: () => [{}] },
      { path: '/CON', render: () => '<p>con</p>' },
      { path: '/con', render: () => '<p>con</p>' },
    ]);
    const hostile = {
      ...table,
      async *locations() {
        yield* table.locations();
        yield* ['/search?q=Foo', '/search?q=foo', '/search?q=FOO'];
      },
    };
    const lines: string[] = [];
    const report = await prerender({
      routes: hostile,
      outDir: dir,
      origin: 'https://example.com',
      progress: { write: (t: string) => lines.push(t) },
    });
    const one = (file: string, holder: string, held: string) =>
      `its file ${JSON.stringify(file)} collides with ${JSON.stringify(held)} of ${JSON.stringify(holder)}: names that differ only in case are one name on a case-insensitive file system (macOS, Windows)`;
    expect(report).toMatchObject({ total: 10, written: 6, failed: 4 });
    expect(report.failures).toEqual([
      { location: '/books/dune', error: one('books/dune/index.html', '/books/Dune', 'books/Dune') },
      { location: '/Books/x', error: one('Books/x/index.html', '/books/Dune', 'books') },
      { location: '/search?q=foo', error: one('search/index.q=foo.html', '/search?q=Foo', 'search/index.q=Foo.html') },
      { location: '/search?q=FOO', error: one('search/index.q=FOO.html', '/search?q=Foo', 'search/index.q=Foo.html') },
    ]);
    expect(report.files).toEqual([
      'books/Dune/index.html',
      'books/Emma/index.html',
      'search/index.html',
      // Escapes that differ in case are two names: `CON` and `con` are written apart.
      'CO%4E/index.html',
      'co%6E/index.html',
      'search/index.q=Foo.html',
    ]);
    expect(files(dir).sort()).toEqual([...report.files, 'sitemap.xml', '404.html'].sort());
    expect(readFileSync(path.join(dir, 'search/index.q=Foo.html'), 'utf8')).toContain('<p>Foo</p>');
    expect(lines.join('')).toContain('FAILED');
    const urls = parseXml(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
    expect(urls).not.toContain('https://example.com/books/dune');
  });

  it('fails a state whose name a case-insensitive disk holds in another spelling from an earlier run, never writing into it', async () => {
    try {
      mkdirSync(path.join(dir, 'Books', '1'), { recursive: true });
      writeFileSync(path.join(dir, 'Books', '1', 'index.html'), 'earlier run');
      spellAlike(dir, 'Books', 'books');
      const table = createRoutes([{ path: '/books/:id', render: () => 'book', entries: () => [{ id: '1' }, { id: '2' }] }]);
      const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com', sitemap: false });
      const error = `"books/ID/index.html" names "books", which the disk holds as "Books": another state's name on a case-insensitive file system (macOS, Windows)`;
      expect(report.failures).toEqual(['1', '2'].map((id) => ({ location: `/books/${id}`, error: error.replace('ID', id) })));
      expect(readdirSync(path.join(dir, 'Books'))).toEqual(['1']);
      expect(readFileSync(path.join(dir, 'Books', '1', 'index.html'), 'utf8')).toBe('earlier run');
    } finally {
      vi.restoreAllMocks();
      forgetSpellings();
    }
  });

  it('fails a state whose file would stand where the sitemap goes, and writes the sitemap', async () => {
    // Before, the state's folder `sitemap.xml/` was written and the run then threw a raw EISDIR.
    const table = createRoutes([
      { path: '/', render: () => '<p>home</p>' },
      {
        path: '/:page',
        render: ({ params }) => `<p>${esc(params.page)}</p>`,
        entries: () => ['sitemap.xml', 'SiteMap-2.XML', 'sitemap-x.xml', 'a'].map((page) => ({ page })),
      },
    ]);
    const report = await prerender({ routes: table, outDir: dir, origin: 'https://example.com' });
    const taken = (file: string) =>
      `its file ${JSON.stringify(file)} stands where the sitemap goes: rename the route, or prerender with sitemap: false`;
    expect(report.failures).toEqual([
      { location: '/sitemap.xml', error: taken('sitemap.xml/index.html') },
      { location: '/SiteMap-2.XML', error: taken('SiteMap-2.XML/index.html') },
    ]);
    // `/404.html` is a state of `/:page` here (a 200): no 404 page, which would stand for no URL.
    expect(files(dir).sort()).toEqual(['a/index.html', 'index.html', 'sitemap-x.xml/index.html', 'sitemap.xml']);
    expect(report.notFoundPage).toEqual({ file: null, why: '/404.html is answered 200, not 404' });
    const urls = parseXml(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
    expect(urls).toEqual(['https://example.com/', 'https://example.com/sitemap-x.xml', 'https://example.com/a']);
    // With no sitemap, the name is the state's.
    const none = await prerender({ routes: table, outDir: path.join(dir, 'none'), origin: 'https://example.com', sitemap: false });
    expect(none).toMatchObject({ written: 5, failed: 0, sitemaps: [] });
    expect(readFileSync(path.join(dir, 'none', 'sitemap.xml', 'index.html'), 'utf8')).toContain('<p>sitemap.xml</p>');
  });

  it('shows progress as plain lines when the stream is not a terminal', async () => {
    const lines: string[] = [];
    await prerender({
      routes: createRoutes([{ path: '/a' }, { path: '/b' }]),
      outDir: dir,
      origin: 'https://example.com',
      concurrency: 1,
      progress: { write: (t: string) => lines.push(t) },
      sitemap: false,
    });
    expect(lines.join('')).toMatch(/^\[1\/2\] ok \/a\n\[2\/2\] ok \/b\nprerendered 2 of 2 states in \d+ ms\n$/);
    expect(existsSync(path.join(dir, 'sitemap.xml'))).toBe(false);
  });

  it.each([
    [{ outDir: '' }, /outDir must name a folder/],
    [{ concurrency: 0 }, /concurrency must be an integer of at least 1/],
    [{ origin: 'nope' }, /origin must be an http\(s\) origin/],
    [{ shard: { current: 0, total: 2 } }, /shard must be \{ current, total \} with 1 <= current <= total/],
    [{ shard: { current: 3, total: 2 } }, /shard must be/],
    [{ shard: { current: 1.5, total: 2 } }, /shard must be/],
  ])('refuses %o', async (options, message) => {
    await expect(prerender({ routes: routes(), outDir: dir, origin: 'https://example.com', ...options })).rejects.toThrow(message);
  });

  // A misspelt option was read by nobody: `outdir` was refused as a missing outDir, `timeout` left
  // the default standing, silently. Each is named with the option meant, as createSnapshotHandler does.
  it.each([
    [{ outdir: 'out' }, 'prerender: "outdir" is no option; did you mean "outDir"?'],
    [{ outDir: 'out', timeout: 5000 }, 'prerender: "timeout" is no option; did you mean "timeoutMs"?'],
    [{ outDir: 'out', sitemaponly: true }, 'prerender: "sitemaponly" is no option; did you mean "sitemapOnly"?'],
  ])('names a misspelt option with the one meant: %o', async (options, message) => {
    // The folder under the test's own: a run that is not refused writes there, never in the working directory.
    const out = path.join(dir, 'out');
    const named = 'outDir' in options ? { ...options, outDir: out } : { ...options, outdir: out };
    const run = prerender({ routes: routes(), origin: 'https://example.com', ...named } as unknown as PrerenderOptions);
    await expect(run).rejects.toThrow(expect.objectContaining({ name: 'SnapshotError', code: 'BAD_OPTION', message }));
    expect(existsSync(out)).toBe(false);
  });
});

describe('prerender: the 404 page of a static host', () => {
  const notFound = { title: 'Not found', render: ({ location }: { location: string }) => `<h1>Nothing at ${esc(location)}</h1>` };
  const table = (paths: string[] = []) =>
    createRoutes(
      [
        { path: '/', render: () => '<h1>Home</h1>' },
        { path: '/books/:id', entries: () => [{ id: '1' }] },
        ...paths.map((path) => ({ path })),
      ],
      { base: '/app/', notFound },
    );
  it('writes 404.html, the notFound view in the shell at its own URL, with no canonical link', async () => {
    const report = await prerender({ routes: table(), outDir: dir, origin: 'https://example.com' });
    expect(report.notFoundPage).toEqual({ file: '404.html' });
    expect(report.files).not.toContain('404.html');
    const page = readFileSync(path.join(dir, '404.html'), 'utf8');
    expect(page).toContain('<title data-router-title="">Not found</title>');
    expect(page).toContain('<h1>Nothing at /404.html</h1>');
    expect(page).not.toContain('rel="canonical"');
    // Not in the sitemap: it is no state.
    expect(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).not.toContain('404');
  });

  it('writes none when a state stands at that name, or when asked not to, or in a shard past the first, and says why', async () => {
    const taken = await prerender({ routes: table(['/404.HTML']), outDir: path.join(dir, 'taken'), origin: 'https://example.com' });
    expect(taken.notFoundPage).toEqual({ file: null, why: "/404.HTML is a state, whose snapshot's folder takes the name 404.html" });
    expect(readFileSync(path.join(dir, 'taken', '404.HTML', 'index.html'), 'utf8')).toContain('<div id="app"></div>');
    const off = await prerender({ routes: table(), outDir: path.join(dir, 'off'), origin: 'https://example.com', notFoundPage: false });
    expect([off.notFoundPage, existsSync(path.join(dir, 'off', '404.html'))]).toEqual([null, false]);
    const second = await prerender({
      routes: table(),
      outDir: path.join(dir, 's2'),
      origin: 'https://example.com',
      shard: { current: 2, total: 2 },
    });
    expect([second.notFoundPage, existsSync(path.join(dir, 's2', '404.html'))]).toEqual([null, false]);
  });

  it('writes none when /404.html is a redirect route, and claims no snapshot stands there', async () => {
    const report = await prerender({ routes: table(['/404.html']), outDir: dir, origin: 'https://example.com' });
    const moved = await prerender({
      routes: createRoutes([{ path: '/' }, { path: '/404.html', redirect: '/' }], { notFound }),
      outDir: path.join(dir, 'moved'),
      origin: 'https://example.com',
    });
    expect(report.notFoundPage).toEqual({ file: null, why: "/404.html is a state, whose snapshot's folder takes the name 404.html" });
    expect([moved.redirects.length, moved.files, moved.notFoundPage]).toEqual([
      1,
      ['index.html'],
      { file: null, why: "/404.html is a state, whose snapshot's folder takes the name 404.html" },
    ]);
  });

  it('writes none, and still reports the run, when a folder stands at 404.html', async () => {
    mkdirSync(path.join(dir, '404.html'));
    writeFileSync(path.join(dir, '404.html', 'index.html'), 'left by hand');
    const report = await prerender({ routes: table(), outDir: dir, origin: 'https://example.com' });
    expect(report.written).toBe(2);
    expect(report.notFoundPage).toMatchObject({ file: null, why: expect.stringMatching(/^writing 404\.html failed: EISDIR/) });
    expect(readFileSync(path.join(dir, '404.html', 'index.html'), 'utf8')).toBe('left by hand');
  });

  it('replaces a symlink at 404.html, never writing through it to where it leads', async () => {
    const outside = path.join(dir, 'outside.html');
    writeFileSync(outside, 'not ours');
    mkdirSync(path.join(dir, 'out'));
    symlinkSync(outside, path.join(dir, 'out', '404.html'));
    const report = await prerender({ routes: table(), outDir: path.join(dir, 'out'), origin: 'https://example.com' });
    expect(report.notFoundPage).toEqual({ file: '404.html' });
    expect(readFileSync(outside, 'utf8')).toBe('not ours');
    expect(readFileSync(path.join(dir, 'out', '404.html'), 'utf8')).toContain('<h1>Nothing at /404.html</h1>');
  });

  it('writes none when the notFound view fails to render, and says so on the progress stream', async () => {
    const lines: string[] = [];
    const broken = createRoutes([{ path: '/' }], {
      notFound: {
        render: (): string => {
          throw new Error('no view');
        },
      },
    });
    const report = await prerender({
      routes: broken,
      outDir: dir,
      origin: 'https://example.com',
      progress: { isTTY: false, write: (text: string) => void lines.push(text) },
    });
    expect(report.notFoundPage).toEqual({ file: null, why: 'rendering /404.html failed: no view' });
    expect(existsSync(path.join(dir, '404.html'))).toBe(false);
    expect(lines.join('')).toContain('no 404.html: rendering /404.html failed: no view');
  });
});

describe('prerender across machines (shard)', () => {
  /** Every file under `root`, with its bytes. */
  const tree = (root: string) =>
    Object.fromEntries(
      files(root)
        .sort()
        .map((file) => [file, readFileSync(path.join(root, file)).toString('base64')]),
    );
  const many = () =>
    createRoutes([
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/items/:id',
        title: ({ params }) => `Item ${params.id}`,
        entries: () => Array.from({ length: 60 }, (_, i) => ({ id: i % 7 ? String(i) : `é ${i}"` })),
        render: ({ params }) => `<p>${esc(params.id)}</p>`,
      },
      {
        path: '/broken/:id',
        entries: () => [{ id: '1' }, { id: '2' }],
        render: (): string => {
          throw new Error('no');
        },
      },
    ]);

  it.each(['history', 'hashbang'] as const)(
    'writes, across 3 shards and the sitemap step, the very files of one unsharded run (%s)',
    async (mode) => {
      const base = { origin: 'https://example.com', mode, concurrency: 3 };
      await prerender({ ...base, routes: many(), outDir: path.join(dir, 'whole') });
      const reports = [];
      for (let current = 1; current <= 3; current++) {
        reports.push(await prerender({ ...base, routes: many(), outDir: path.join(dir, `part-${current}`), shard: { current, total: 3 } }));
        expect(existsSync(path.join(dir, `part-${current}`, 'sitemap.xml'))).toBe(false);
      }
      // Disjoint slices that cover every state, none of them empty.
      expect(reports.map((r) => r.total).reduce((a, b) => a + b)).toBe(63);
      expect(reports.every((r) => r.written > 10)).toBe(true);
      const written = reports.flatMap((r) => r.files);
      expect(new Set(written).size).toBe(written.length);
      // CI gathers the shards' folders into one, then writes the sitemap.
      mkdirSync(path.join(dir, 'merged'));
      for (let current = 1; current <= 3; current++)
        cpSync(path.join(dir, `part-${current}`), path.join(dir, 'merged'), { recursive: true });
      const step = await prerender({ ...base, routes: many(), outDir: path.join(dir, 'merged'), sitemapOnly: true });
      expect(step).toMatchObject({ total: 63, written: 0, sitemaps: ['sitemap.xml'] });
      expect(tree(path.join(dir, 'merged'))).toEqual(tree(path.join(dir, 'whole')));
    },
  );

  it('decides a collision alike in every shard and in the sitemap step, whatever files the folder holds', async () => {
    // Two spellings of one file, in different slices.
    const pair = Array.from({ length: 40 }, (_, i) => [`/T${i}`, `/t${i}`]).find(
      ([a, b]) => shardOf(a as string, 3) !== shardOf(b as string, 3),
    ) as string[];
    const table = createRoutes([{ path: '/:x', render: ({ params }) => `<p>${esc(params.x)}</p>` }]);
    const both = {
      ...table,
      locations: async function* () {
        yield* pair;
      },
    };
    const base = { origin: 'https://example.com', routes: both };
    const reports = await Promise.all(
      [1, 2, 3].map((current) => prerender({ ...base, outDir: path.join(dir, `part-${current}`), shard: { current, total: 3 } })),
    );
    expect(reports[shardOf(pair[1] as string, 3) - 1]?.failures.map((f) => f.location)).toEqual([pair[1]]);
    expect(reports.flatMap((r) => r.files)).toEqual([`${pair[0]?.slice(1)}/index.html`]);
    // A file for the loser in the gathered folder (on Linux) is not listed either.
    mkdirSync(path.join(dir, 'merged'));
    for (const current of [1, 2, 3]) cpSync(path.join(dir, `part-${current}`), path.join(dir, 'merged'), { recursive: true });
    mkdirSync(path.join(dir, 'merged', pair[1]?.slice(1) as string));
    writeFileSync(path.join(dir, 'merged', pair[1]?.slice(1) as string, 'index.html'), 'stray');
    await prerender({ ...base, outDir: path.join(dir, 'merged'), sitemapOnly: true });
    const urls = parseXml(readFileSync(path.join(dir, 'merged', 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
    expect(urls).toEqual([`https://example.com${pair[0]}`]);
  });

  it("refuses the sitemap step where a folder holds the sitemap's name, rather than fail on a raw file system error", async () => {
    const table = createRoutes([{ path: '/:page', render: ({ params }) => `<p>${esc(params.page)}</p>`, entries: () => [{ page: 'a' }] }]);
    const gathered = path.join(dir, 'gathered');
    await prerender({ origin: 'https://example.com', routes: table, outDir: gathered, sitemap: false });
    mkdirSync(path.join(gathered, 'sitemap.xml'));
    await expect(prerender({ origin: 'https://example.com', routes: table, outDir: gathered, sitemapOnly: true })).rejects.toMatchObject({
      code: 'PATH_COLLISION',
      message: `sitemap.xml is a folder in ${gathered}, where the sitemap goes: remove it, or use sitemap: false`,
    });
  });

  it('refuses the sitemap step for a folder that is not there, rather than write an empty sitemap', async () => {
    const missing = path.join(dir, 'gathered');
    await expect(prerender({ origin: 'https://example.com', routes: many(), outDir: missing, sitemapOnly: true })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: `outDir ${missing} is not a folder: sitemapOnly (the sitemap command) lists the snapshots prerender wrote there; sitemap() writes one from locations alone`,
    });
    expect(existsSync(missing)).toBe(false);
  });
});

describe('prerender of noindex routes', () => {
  const table = () =>
    createRoutes([
      { path: '/', title: 'Home' },
      { path: '/drafts/:id', noindex: true, entries: () => [{ id: '1' }], title: 'Draft' },
      { path: '/search', noindex: true, title: 'Search' },
    ]);
  const listedIn = (folder: string) =>
    parseXml(readFileSync(path.join(folder, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);

  it('writes their states, which a visitor reaches, with noindex in them, and leaves them out of the sitemap', async () => {
    const report = await prerender({ routes: table(), origin: 'https://example.com', outDir: dir });
    expect(report).toMatchObject({ total: 3, written: 3, failed: 0 });
    expect(report.files).toEqual(['index.html', 'drafts/1/index.html', 'search/index.html']);
    expect(readFileSync(path.join(dir, 'drafts/1/index.html'), 'utf8')).toContain('<meta name="robots" content="noindex"');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).not.toContain('noindex');
    expect(listedIn(dir)).toEqual(['https://example.com/']);
  });

  it('leaves them out of the sitemap step after sharded runs too, their files there', async () => {
    await prerender({ routes: table(), origin: 'https://example.com', outDir: dir, sitemap: false });
    const step = await prerender({ routes: table(), origin: 'https://example.com', outDir: dir, sitemapOnly: true });
    expect(step).toMatchObject({ total: 3, sitemaps: ['sitemap.xml'] });
    expect(listedIn(dir)).toEqual(['https://example.com/']);
  });
});

describe('prerender of per-visitor pages', () => {
  // The routes of docs/deploying.md's "Logged-in visitors": /account reads the visitor from its request.
  const userOf = (request: Request | undefined) => /(?:^|;\s*)user=(\w+)/.exec(request?.headers.get('cookie') ?? '')?.[1] ?? null;
  const table = () =>
    createRoutes([
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      route({
        path: '/account',
        load: ({ request }) => ({ user: userOf(request) }),
        title: ({ data }) => (data.user ? 'Your account' : 'Sign in'),
        render: ({ data }) => (data.user ? `<h1>Signed in as ${data.user}</h1>` : '<h1>Sign in</h1>'),
      }),
    ]);

  it('writes no file for a state whose hooks read request, which a server over the folder would serve to every visitor as public', async () => {
    const lines: string[] = [];
    const report = await prerender({
      routes: table(),
      origin: 'https://example.com',
      outDir: dir,
      progress: { write: (t) => lines.push(t) },
    });
    expect(report).toMatchObject({ total: 2, written: 1, failed: 0, files: ['index.html'] });
    expect(existsSync(path.join(dir, 'account/index.html'))).toBe(false);
    expect(lines.join('')).toMatch(/SKIPPED \/account: its hooks read request/);
    expect(readFileSync(path.join(dir, 'sitemap.xml'), 'utf8')).not.toContain('/account');
    // The folder as a handler's store: the visitor's own page, private, never the page rendered for nobody.
    const handler = createSnapshotHandler({
      routes: table(),
      origin: 'https://example.com',
      cleanUrls: 'all',
      cache: { store: fileStore(dir), ttlMs: Infinity },
    });
    const page = await handler.fetch(new Request('https://example.com/account', { headers: { cookie: 'user=alice' } }));
    expect(page?.headers.get('cache-control')).toBe('private, no-store');
    expect(await page?.text()).toContain('<h1>Signed in as alice</h1>');
  });
});
