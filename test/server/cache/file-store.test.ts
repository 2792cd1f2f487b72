import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { MANIFEST, writeManifest } from '../../../src/server/files/manifest.js';
import { fileStore } from '../../../src/server/cache/file-store.js';
import { writeInside } from '../../../src/server/files/folder.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { etagOf } from '../../../src/server/http/respond.js';
import { forgetSpellings, spellAlike } from '../files/case-insensitive.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'file-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const snap = (html: string, status = 200) => ({ status, html, etag: etagOf(html), renderedAt: Date.UTC(2024, 0, 1) });

describe('fileStore', () => {
  it('keeps snapshots in the prerender layout and reads them back with their time', async () => {
    const store = fileStore(dir);
    await store.set('/books/42', snap('<p>42</p>'), Infinity);
    await store.set('/?tab=x', snap('<p>tab</p>'), Infinity);
    expect(readFileSync(path.join(dir, 'books/42/index.html'), 'utf8')).toBe('<p>42</p>');
    expect(await store.get('/books/42')).toEqual(snap('<p>42</p>'));
    expect((await store.get('/?tab=x'))?.html).toBe('<p>tab</p>');
    expect(await store.get('/books/43')).toBeUndefined();
    const keys: string[] = [];
    for await (const key of store.keys()) keys.push(key);
    expect(keys.sort()).toEqual(['/?tab=x', '/books/42']);
  });

  it('writes no snapshot that is not a 200, and nothing for a location with no safe path', async () => {
    const store = fileStore(dir);
    await store.set('/nope', snap('<p>404</p>', 404), Infinity);
    await store.set('/' + 'a'.repeat(300), snap('x'), Infinity);
    expect(readdirSync(dir)).toEqual([]);
    expect(await store.get('/' + 'a'.repeat(300))).toBeUndefined();
    expect(await store.get('/a\0b')).toBeUndefined();
  });

  it('never writes a state over the one that differs from it only by a last "/" (one file, a/index.html)', async () => {
    const store = fileStore(dir);
    await store.set('/a/', snap('<p>slash</p>'), Infinity);
    await store.set('/a', snap('<p>bare</p>'), Infinity);
    expect(readFileSync(path.join(dir, 'a/index.html'), 'utf8')).toBe('<p>slash</p>');
  });

  it('deletes, and ignores files that are not snapshots', async () => {
    const store = fileStore(dir);
    await store.set('/a', snap('a'), Infinity);
    writeFileSync(path.join(dir, 'sitemap.xml'), '<urlset/>');
    mkdirSync(path.join(dir, 'junk'));
    writeFileSync(path.join(dir, 'junk', 'notes.txt'), 'x');
    await store.delete('/a');
    await store.delete('/never-there');
    expect(existsSync(path.join(dir, 'a/index.html'))).toBe(false);
    const keys: string[] = [];
    for await (const key of store.keys()) keys.push(key);
    expect(keys).toEqual([]);
  });

  it('lets the handler serve prerendered snapshots first and keep what it renders', async () => {
    await writeInside(dir, 'books/1/index.html', '<!DOCTYPE html><p>prerendered</p>');
    // The folder says which build it holds, as prerender writes it.
    await writeManifest(dir, 'v1');
    const routes = createRoutes([{ path: '/books/:id', render: ({ params }) => `<p>rendered ${params.id}</p>` }]);
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      build: 'v1',
      cache: { store: fileStore(dir), ttlMs: Infinity },
    });
    expect((await handler.render('/books/1')).html).toBe('<!DOCTYPE html><p>prerendered</p>');
    expect((await handler.render('/books/2')).html).toContain('<p>rendered 2</p>');
    expect(readFileSync(path.join(dir, 'books/2/index.html'), 'utf8')).toContain('<p>rendered 2</p>');
    await handler.invalidate((location) => location.startsWith('/books/'));
    expect((await handler.render('/books/1')).html).toContain('<p>rendered 1</p>');
  });

  it("never serves a last-slash state's file at the spelling without it, which no route has (a 404)", async () => {
    // `/about/` and `/about` are one file, about/index.html; the table has the first alone.
    await writeInside(dir, 'about/index.html', '<!DOCTYPE html><p>about</p>');
    await writeManifest(dir, 'v1');
    const routes = createRoutes([{ path: '/about/', render: () => '<p>about</p>' }]);
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      build: 'v1',
      cache: { store: fileStore(dir), ttlMs: Infinity },
    });
    expect(await handler.render('/about/')).toMatchObject({ status: 200, html: '<!DOCTYPE html><p>about</p>' });
    for (let i = 0; i < 2; i++) {
      const bare = await handler.render('/about');
      expect([bare.status, bare.html.includes('<p>about</p>')]).toEqual([404, false]);
    }
    // Left where it is, for its own state.
    expect(readFileSync(path.join(dir, 'about/index.html'), 'utf8')).toBe('<!DOCTYPE html><p>about</p>');
    expect((await handler.render('/about/')).status).toBe(200);
  });

  it("answers a redirect route's move at the spelling without the last slash, never the file of the one with it", async () => {
    // The usual move to the last-slash spelling: `/about` is a route, but no state of it is a 200.
    await writeInside(dir, 'about/index.html', '<!DOCTYPE html><p>about</p>');
    await writeManifest(dir, 'v1');
    const routes = createRoutes([
      { path: '/about/', render: () => '<p>about</p>' },
      { path: '/about', redirect: '/about/' },
    ]);
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      build: 'v1',
      cache: { store: fileStore(dir), ttlMs: Infinity },
    });
    for (let i = 0; i < 2; i++)
      expect(await handler.render('/about')).toMatchObject({ status: 301, redirect: 'https://example.com/about/' });
    expect(await handler.render('/about/')).toMatchObject({ status: 200, html: '<!DOCTYPE html><p>about</p>' });
  });

  it('re-renders a prerendered snapshot older than the TTL', async () => {
    await writeInside(dir, 'index.html', 'old');
    const routes = createRoutes([{ path: '/', render: () => 'new' }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store: fileStore(dir), ttlMs: 60_000 } });
    const old = new Date(Date.now() - 120_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(dir, 'index.html'), old, old);
    expect((await handler.render('/')).html).toContain('new');
    expect(statSync(path.join(dir, 'index.html')).mtimeMs).toBeGreaterThan(old.getTime());
  });
});

describe('writeInside', () => {
  it('creates folders and leaves no temporary file', async () => {
    await writeInside(dir, 'a/b/c.html', 'x');
    await writeInside(dir, 'a/b/c.html', 'y');
    expect(readFileSync(path.join(dir, 'a/b/c.html'), 'utf8')).toBe('y');
    expect(readdirSync(path.join(dir, 'a/b'))).toEqual(['c.html']);
  });

  it('writes when a folder it found there is taken back meanwhile (an empty folder a failed write or an eviction removes)', async () => {
    mkdirSync(path.join(dir, 't'));
    const mkdir = fsp.mkdir;
    // The folder is there at this write's mkdir, and gone before it makes the next one in it.
    const spy = vi.spyOn(fsp, 'mkdir').mockImplementation(async (folder, options) => {
      if (folder !== path.join(dir, 't')) return mkdir(folder, options);
      try {
        return await mkdir(folder, options);
      } finally {
        spy.mockRestore();
        rmdirSync(folder);
      }
    });
    await writeInside(dir, 't/ok/index.html', 'ok');
    expect(readFileSync(path.join(dir, 't/ok/index.html'), 'utf8')).toBe('ok');
  });

  it('follows a symlink that stays inside the folder', async () => {
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    await writeInside(dir, 'alias/x.html', 'x');
    expect(readFileSync(path.join(dir, 'real/x.html'), 'utf8')).toBe('x');
  });
});

describe('fileStore against a symlink planted in its folder (security, second round)', () => {
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(path.join(tmpdir(), 'file-store-outside-'));
    mkdirSync(path.join(dir, 'store'));
    symlinkSync(outside, path.join(dir, 'store', 'books'));
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it('never writes, reads or deletes through a symlinked folder that leads out', async () => {
    const store = fileStore(path.join(dir, 'store'));
    await expect(store.set('/books/1', snap('<p>1</p>'), Infinity)).rejects.toMatchObject({ code: 'UNSAFE_PATH' });
    expect(readdirSync(outside)).toEqual([]);
    mkdirSync(path.join(outside, '2'));
    writeFileSync(path.join(outside, '2', 'index.html'), 'secret');
    expect(await store.get('/books/2')).toBeUndefined();
    await store.delete('/books/2');
    expect(readFileSync(path.join(outside, '2', 'index.html'), 'utf8')).toBe('secret');
  });

  it('never writes through a symlinked snapshot file that leads out', async () => {
    writeFileSync(path.join(outside, 'target.txt'), 'keep');
    mkdirSync(path.join(dir, 'store', 'x'));
    symlinkSync(path.join(outside, 'target.txt'), path.join(dir, 'store', 'x', 'index.html'));
    const store = fileStore(path.join(dir, 'store'));
    expect(await store.get('/x')).toBeUndefined();
    await store.set('/x', snap('<p>x</p>'), Infinity);
    expect(readFileSync(path.join(outside, 'target.txt'), 'utf8')).toBe('keep');
    expect(readFileSync(path.join(dir, 'store', 'x', 'index.html'), 'utf8')).toBe('<p>x</p>');
  });
});

describe('fileStore under a flood of distinct states with ttlMs: Infinity (security, second round)', () => {
  const count = () => {
    let files = 0;
    let folders = 0;
    const visit = (at: string) => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        if (entry.isDirectory()) {
          folders++;
          visit(path.join(at, entry.name));
        } else if (entry.name !== MANIFEST) files++;
      }
    };
    visit(dir);
    return { files, folders };
  };

  it('keeps at most maxEntries snapshots, the oldest removed first with the folders they leave empty', async () => {
    const routes = createRoutes([{ path: '/*path', render: ({ params }) => `<p>${(params.path as string[]).length}</p>` }]);
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      cache: { store: fileStore(dir, { maxEntries: 10 }), ttlMs: Infinity },
    });
    for (let i = 0; i < 120; i++) await handler.render(`/a${i}/b/c/d`);
    expect(count()).toEqual({ files: 10, folders: 40 });
    expect(existsSync(path.join(dir, 'a119/b/c/d/index.html'))).toBe(true);
    expect(existsSync(path.join(dir, 'a0'))).toBe(false);
  });

  it('keeps at most maxBytes, counting what was on disk before it started, oldest first', async () => {
    for (let i = 0; i < 5; i++) {
      await writeInside(dir, `old${i}/index.html`, 'o'.repeat(100));
      const time = new Date(Date.UTC(2020, 0, 1 + i));
      utimesSync(path.join(dir, `old${i}/index.html`), time, time);
    }
    const store = fileStore(dir, { maxBytes: 350 });
    await store.set('/new', snap('n'.repeat(100)), Infinity);
    expect(readdirSync(dir).sort()).toEqual(['new', 'old3', 'old4']);
    await store.set('/huge', snap('h'.repeat(351)), Infinity);
    expect(existsSync(path.join(dir, 'huge'))).toBe(false);
  });

  it('writes only the states keep accepts (the states the route table lists, say)', async () => {
    const routes = createRoutes([{ path: '/books/:id', render: () => 'b', entries: () => [{ id: '1' }, { id: '2' }] }]);
    const listed = new Set<string>();
    for await (const location of routes.locations()) listed.add(location);
    const handler = createSnapshotHandler({
      routes,
      origin: 'https://example.com',
      cache: { store: fileStore(dir, { keep: (l) => listed.has(l) }), ttlMs: Infinity },
    });
    for (const id of ['1', '2', '3', 'invented']) await handler.render(`/books/${id}`);
    expect(readdirSync(path.join(dir, 'books')).sort()).toEqual(['1', '2']);
  });

  it('keeps a state whose query makes a file name of 240 to 255 bytes (its temporary file is no longer)', async () => {
    const store = fileStore(dir);
    const location = `/books/1?q=${'b'.repeat(240)}`;
    await store.set(location, snap('<p>long</p>'), Infinity);
    expect((await store.get(location))?.html).toBe('<p>long</p>');
    expect(readdirSync(path.join(dir, 'books/1'))).toEqual([`index.q=${'b'.repeat(240)}.html`]);
  });

  /** A handler of any path under `/docs/`, its snapshots in a fileStore on `dir`, asked by ugly URL. */
  /** Counts, until `stop()`, the folders in every path given to a node:fs promises function. */
  const countFolderWalks = () => {
    let folders = 0;
    const functions = fsp as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals = Object.entries(functions).filter(([, value]) => typeof value === 'function');
    for (const [name, original] of originals)
      functions[name] = function (this: unknown, ...args: unknown[]) {
        for (const arg of args) if (typeof arg === 'string') folders += arg.split(path.sep).length - 1;
        return original.apply(this, args);
      };
    return { walked: () => folders, stop: () => originals.forEach(([name, original]) => (functions[name] = original)) };
  };

  const docsOnDisk = () => {
    const onError = vi.fn();
    const handler = createSnapshotHandler({
      routes: createRoutes([{ path: '/docs/*path', render: () => '<p>doc</p>' }]),
      origin: 'https://example.com',
      cache: { store: fileStore(dir), ttlMs: Infinity },
      onError,
    });
    const get = (location: string) => handler.fetch(new Request(`https://example.com/?_escaped_fragment_=${location}`));
    return { get, onError };
  };

  it('leaves no folder behind, and tells onError nothing, for states whose path the disk cannot hold (security, seventh round)', async () => {
    // 17 segments of 250 bytes pass every name check but not the file system's 4,096-byte path.
    const deep = (i: number) => `/docs/${i}/` + Array.from({ length: 17 }, () => 'a'.repeat(250)).join('/');
    const { get, onError } = docsOnDisk();
    for (let i = 0; i < 10; i++) {
      // A good state between two bad ones: each bad one would otherwise start a new store outage.
      expect((await get(`/docs/ok${i}`))?.status).toBe(200);
      expect((await get(deep(i)))?.status).toBe(200);
    }
    expect(count()).toEqual({ files: 10, folders: 11 });
    expect(onError).not.toHaveBeenCalled();
  });

  it('never walks hundreds of folders for a state a crawler made deep: it is rendered and served, never written (security, tenth round)', async () => {
    // Each folder's real path was asked of the disk, and realpath(3) walks the whole path each time:
    // a state 500 folders deep cost 2.3 s to write and then 3 s of a request for each state beside it.
    const { get, onError } = docsOnDisk();
    const deep = '/docs' + '/a'.repeat(500);
    // The work counted: the folders named in each path the store hands the file system (realpath,
    // mkdir, stat... walk each of them), 500 and more a call for a state this deep.
    const { walked, stop } = countFolderWalks();
    try {
      for (const leaf of ['x', 'y', 'z']) expect((await get(`${deep}/${leaf}`))?.status).toBe(200);
    } finally {
      stop();
    }
    // Measured: none, the state refused before the disk; 1,030,224 with the depth limit lifted.
    expect(walked()).toBeLessThan(3 * 50);
    expect((await get('/docs/a'))?.status).toBe(200);
    expect(count()).toEqual({ files: 1, folders: 2 });
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers a kept snapshot again without reading its file whole at each request (security, eleventh round)', async () => {
    // Each HEAD (or 304) of a kept snapshot read the whole file and hashed it: 5.7 ms of CPU a
    // request for 1 MB, 22 ms for 5 MB, where memoryStore answers in 0.7 ms.
    const store = fileStore(dir);
    const get = vi.spyOn(store, 'get');
    const html = `<p>${'x'.repeat(2 ** 20)}</p>`;
    const routes = createRoutes([{ path: '/big', render: () => html }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store, ttlMs: Infinity } });
    const head = async () => (await handler.fetch(new Request('https://example.com/?_escaped_fragment_=/big', { method: 'HEAD' })))?.status;
    expect(await head()).toBe(200);
    expect(await head()).toBe(200);
    const reads = get.mock.calls.length;
    for (let i = 0; i < 20; i++) expect(await head()).toBe(200);
    expect(get.mock.calls.length).toBe(reads);
    // Another process's write (a new render, a prerender run) is still seen at once, and so is a removal.
    await fileStore(dir).set('/big', { ...snap('<p>new</p>'), build: handler.build }, Infinity);
    expect((await handler.render('/big')).html).toBe('<p>new</p>');
    rmSync(path.join(dir, 'big'), { recursive: true });
    expect((await handler.render('/big')).html).toContain(html);
  });

  it('tells whether a snapshot it gave back is still the one on disk, without reading the file', async () => {
    const store = fileStore(dir);
    await store.set('/a', snap('one'), Infinity);
    const read = (await store.get('/a'))!;
    expect(await store.holds?.('/a', { ...read })).toBe(true);
    expect(await store.holds?.('/a', { ...read, html: 'other', etag: '"other"' })).toBe(false);
    expect(await store.holds?.('/b', { ...read })).toBe(false);
    // Written again with the very same content and time: another file, so not the one read.
    await fileStore(dir).set('/a', snap('one'), Infinity);
    expect(await store.holds?.('/a', read)).toBe(false);
    const again = (await store.get('/a'))!;
    expect(await store.holds?.('/a', again)).toBe(true);
    await store.delete('/a');
    expect(await store.holds?.('/a', again)).toBe(false);
  });

  it('refuses bounds that are not above 0', () => {
    expect(() => fileStore(dir, { maxEntries: 0 })).toThrow(/maxEntries must be a number above 0/);
  });
});

describe('fileStore on case-insensitive and Windows file systems', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    forgetSpellings();
  });

  const keysOf = async (store: ReturnType<typeof fileStore>) => {
    const keys: string[] = [];
    for await (const key of store.keys()) keys.push(key);
    return keys.sort();
  };

  it('never writes a state whose file a kept state holds in another case, on every platform', async () => {
    const store = fileStore(dir);
    await store.set('/search?q=Foo', snap('<p>Foo</p>'), Infinity);
    await store.set('/search?q=foo', snap('<p>foo</p>'), Infinity);
    await store.set('/Books/1', snap('<p>B1</p>'), Infinity);
    // One folder on macOS and Windows: `books/2` would land in `Books/`.
    await store.set('/books/2', snap('<p>b2</p>'), Infinity);
    expect(readdirSync(dir).sort()).toEqual(['Books', 'search']);
    expect(readdirSync(path.join(dir, 'search'))).toEqual(['index.q=Foo.html']);
    expect(await store.get('/search?q=foo')).toBeUndefined();
    expect(await keysOf(store)).toEqual(['/Books/1', '/search?q=Foo']);
    // Once the holder is gone, the other spelling may be written.
    await store.delete('/Books/1');
    await store.set('/books/2', snap('<p>b2</p>'), Infinity);
    expect(readFileSync(path.join(dir, 'books/2/index.html'), 'utf8')).toBe('<p>b2</p>');
  });

  it("serves each state its own snapshot through the handler, never the other spelling's", async () => {
    const routes = createRoutes([{ path: '/search', render: ({ query }) => `<p>results for ${String(query.q)}</p>` }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store: fileStore(dir), ttlMs: Infinity } });
    for (const q of ['Foo', 'foo', 'Foo', 'foo']) {
      const { html } = await handler.render(`/search?q=${q}`);
      expect(html).toContain(`<p>results for ${q}</p>`);
      expect(html).toContain(`<link rel="canonical" href="https://example.com/search?q=${q}" data-router-head="/search?q=${q}">`);
    }
    expect(readdirSync(path.join(dir, 'search'))).toEqual(['index.q=Foo.html']);
  });

  it('keeps what another process wrote in another spelling: never serves it for this state, never writes over it (a fleet)', async () => {
    const other = fileStore(dir);
    const store = fileStore(dir);
    // This process has read the folder (empty) before the other wrote.
    await store.set('/x', snap('x'), Infinity);
    await other.set('/search?q=Foo', snap('<p>Foo</p>'), Infinity);
    await other.set('/Books/1', snap('<p>B1</p>'), Infinity);
    spellAlike(dir, 'search/index.q=Foo.html', 'search/index.q=foo.html');
    spellAlike(dir, 'Books', 'books');
    spellAlike(dir, 'Books/1/index.html', 'Books/1/INDEX.html');
    expect(await store.get('/search?q=foo')).toBeUndefined();
    expect(await store.get('/books/1')).toBeUndefined();
    await store.set('/search?q=foo', snap('<p>foo</p>'), Infinity);
    await store.set('/books/1', snap('<p>b1</p>'), Infinity);
    await store.set('/books/2', snap('<p>b2</p>'), Infinity);
    expect(readFileSync(path.join(dir, 'search/index.q=Foo.html'), 'utf8')).toBe('<p>Foo</p>');
    expect(statSync(path.join(dir, 'search/index.q=foo.html')).ino).toBe(statSync(path.join(dir, 'search/index.q=Foo.html')).ino);
    expect(readdirSync(path.join(dir, 'Books')).sort()).toEqual(['1']);
    expect((await store.get('/search?q=Foo'))?.html).toBe('<p>Foo</p>');
    expect((await store.get('/Books/1'))?.html).toBe('<p>B1</p>');
    expect(await keysOf(store)).toEqual(['/Books/1', '/search?q=Foo', '/x']);
  });

  it('still follows a symlink inside the folder whose own name is as asked', async () => {
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    const store = fileStore(dir);
    await store.set('/alias/1', snap('<p>1</p>'), Infinity);
    expect((await store.get('/alias/1'))?.html).toBe('<p>1</p>');
    expect(readFileSync(path.join(dir, 'real/1/index.html'), 'utf8')).toBe('<p>1</p>');
  });

  it('keeps states with Windows names in names Windows holds, and reads them back as the same keys', async () => {
    const store = fileStore(dir);
    const states = ['/CON', '/con/aux.txt', '/a.', '/wiki/Special:Search', '/a%3Ab', '/?q=why?&t=10:30*', '/?p=a/b', '/?p=a%2Fb'];
    for (const state of states) await store.set(state, snap(`<p>${state}</p>`), Infinity);
    expect(readdirSync(dir).sort()).toEqual([
      'CO%4E',
      'a%253Ab',
      'a%2E',
      'co%6E',
      'index.p=a%252Fb.html',
      'index.p=a%2Fb.html',
      'index.q=why%3F&t=10%3A30%2A.html',
      'wiki',
    ]);
    expect(await keysOf(store)).toEqual([...states].sort());
    for (const state of states) expect((await store.get(state))?.html).toBe(`<p>${state}</p>`);
  });
});
