import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/routes.js';
import { fileStore, writeFileAtomic } from '../../src/server/file-store.js';
import { createSnapshotHandler } from '../../src/server/handler.js';
import { etagOf } from '../../src/server/http.js';

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
    await writeFileAtomic(path.join(dir, 'books/1/index.html'), '<!DOCTYPE html><p>prerendered</p>');
    const routes = createRoutes([{ path: '/books/:id', render: ({ params }) => `<p>rendered ${params.id}</p>` }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store: fileStore(dir), ttlMs: Infinity } });
    expect((await handler.render('/books/1')).html).toBe('<!DOCTYPE html><p>prerendered</p>');
    expect((await handler.render('/books/2')).html).toContain('<p>rendered 2</p>');
    expect(readFileSync(path.join(dir, 'books/2/index.html'), 'utf8')).toContain('<p>rendered 2</p>');
    await handler.invalidate((location) => location.startsWith('/books/'));
    expect((await handler.render('/books/1')).html).toContain('<p>rendered 1</p>');
  });

  it('re-renders a prerendered snapshot older than the TTL', async () => {
    await writeFileAtomic(path.join(dir, 'index.html'), 'old');
    const routes = createRoutes([{ path: '/', render: () => 'new' }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cache: { store: fileStore(dir), ttlMs: 60_000 } });
    const old = new Date(Date.now() - 120_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(dir, 'index.html'), old, old);
    expect((await handler.render('/')).html).toContain('new');
    expect(statSync(path.join(dir, 'index.html')).mtimeMs).toBeGreaterThan(old.getTime());
  });
});

describe('writeFileAtomic', () => {
  it('creates folders and leaves no temporary file', async () => {
    await writeFileAtomic(path.join(dir, 'a/b/c.html'), 'x');
    await writeFileAtomic(path.join(dir, 'a/b/c.html'), 'y');
    expect(readFileSync(path.join(dir, 'a/b/c.html'), 'utf8')).toBe('y');
    expect(readdirSync(path.join(dir, 'a/b'))).toEqual(['c.html']);
  });
});
