import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentType, filePath, openAppFolder } from '../../../src/server/headless/app-files.js';
import { MAX_FRAME } from '../../../src/server/headless/protocol.js';

const ROOT = path.resolve('/srv/app');

describe('filePath', () => {
  it.each([
    ['/app.js', '/', 'app.js'],
    ['/assets/a%20b.css', '/', 'assets/a b.css'],
    ['/caf%C3%A9.js', '/', 'café.js'],
    ['/shop/app.js', '/shop/', 'app.js'],
    ['/shop/', '/shop/', ''],
    ['/a//b', '/', 'a/b'],
  ])('maps %s (base %s) to %s under the root', (pathname, base, relative) => {
    expect(filePath(ROOT, base, pathname)).toBe(path.join(ROOT, relative));
  });

  it.each([
    ['/../etc/passwd', 'a dot-dot segment'],
    ['/a/%2e%2e/%2e%2e/etc/passwd', 'an escaped dot-dot segment'],
    ['/..%2Fetc%2Fpasswd', 'an escaped slash'],
    ['/..%5Cetc', 'an escaped backslash'],
    ['/a%00.js', 'an escaped NUL'],
    ['/%zz', 'a malformed escape'],
    ['/%C3', 'truncated UTF-8'],
    ['/C:%5Cwindows', 'a drive letter'],
    ['/other/app.js', 'a path outside the base'],
    ['/.env', 'a hidden file, which static servers do not serve either'],
    ['/.git/config', 'a file in a hidden folder'],
    ['/%2Eenv', 'an escaped hidden file'],
    ['/assets/.htpasswd', 'a hidden file deeper down'],
  ])('refuses %s (%s)', (pathname) => {
    expect(filePath(ROOT, pathname.startsWith('/other') ? '/shop/' : '/', pathname)).toBeNull();
  });

  it('gives types by extension', () => {
    expect(contentType('/a/b.MJS')).toBe('text/javascript; charset=utf-8');
    expect(contentType('/a/b')).toBe('application/octet-stream');
  });
});

describe('openAppFolder', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'app-files-'));
    mkdirSync(path.join(dir, 'app', 'sub'), { recursive: true });
    mkdirSync(path.join(dir, 'outside'));
    writeFileSync(path.join(dir, 'app', 'sub', 'x.js'), 'x');
    writeFileSync(path.join(dir, 'app', '.crawlable-router.shell.html'), 'shell');
    writeFileSync(path.join(dir, 'outside', 'secret.txt'), 'secret');
    symlinkSync(path.join(dir, 'outside'), path.join(dir, 'app', 'link'));
    symlinkSync(path.join(dir, 'app', 'sub', 'x.js'), path.join(dir, 'app', 'alias.js'));
    // Sparse files: one answer's worth, and one byte more (a video a page may ask for a thousand times).
    for (const [name, size] of [
      ['edge.bin', MAX_FRAME],
      ['big.mp4', MAX_FRAME + 1],
    ] as const) {
      writeFileSync(path.join(dir, 'app', name), '');
      truncateSync(path.join(dir, 'app', name), size);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['/sub/x.js', 'sub/x.js'],
    ['/alias.js', 'sub/x.js'],
    ['/sub', null],
    ['/link/secret.txt', null],
    ['/nope.js', null],
    ['/edge.bin', 'edge.bin'],
    ['/big.mp4', null],
  ])('finds %s as %s, asynchronously and synchronously', async (pathname, expected) => {
    const folder = openAppFolder(path.join(dir, 'app'));
    const want = expected === null ? null : path.join(folder.root, expected);
    expect(await folder.find('/', pathname)).toBe(want);
    expect(folder.findSync('/', pathname)).toBe(want);
  });

  it('finds a hidden file the server names (the shell vite build keeps), never one a page asks for', async () => {
    const folder = openAppFolder(path.join(dir, 'app'));
    const shell = path.join(folder.root, '.crawlable-router.shell.html');
    expect([await folder.find('/', '/.crawlable-router.shell.html'), folder.findSync('/', '/.crawlable-router.shell.html')]).toEqual([
      null,
      null,
    ]);
    expect([
      await folder.find('/', '/.crawlable-router.shell.html', true),
      folder.findSync('/', '/.crawlable-router.shell.html', true),
    ]).toEqual([shell, shell]);
    for (const pathname of ['/../outside/secret.txt', '/%2e%2e/outside/secret.txt', '/link/secret.txt', '/.'])
      expect([await folder.find('/', pathname, true), folder.findSync('/', pathname, true)]).toEqual([null, null]);
  });

  it('refuses a folder that is not a directory', () => {
    expect(() => openAppFolder(path.join(dir, 'outside', 'secret.txt'))).toThrow(/is not a directory/);
  });
});
