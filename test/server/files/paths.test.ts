import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeLocation } from '../../../src/location.js';
import { resolveInside, snapshotLocation, snapshotPath } from '../../../src/server/files/paths.js';

describe('snapshotPath', () => {
  it.each([
    ['/', 'index.html'],
    ['/books/42', 'books/42/index.html'],
    ['/books/42/', 'books/42/index.html'],
    ['/books/42#reviews', 'books/42/index.html'],
    ['/q/café', 'q/caf%C3%A9/index.html'],
    ['/q/C++', 'q/C++/index.html'],
    ['/?CwRadioButton', 'index.CwRadioButton.html'],
    ['/list?page=2&sort=a/b', 'list/index.page=2&sort=a%2Fb.html'],
    ['/index.html', 'index%2Ehtml/index.html'],
    ['/a/index.x.html/b', 'a/index%2Ex.html/b/index.html'],
    ['/../../etc/passwd', 'etc/passwd/index.html'],
    ['/a/%2e%2e/%2E%2E/b', 'b/index.html'],
    ['/a%2F..%2Fb', 'a%2F..%2Fb/index.html'],
    ['/a%00b', 'a%00b/index.html'],
    ['/a\\..\\b', 'a%5C..%5Cb/index.html'],
    ['/C:/x', 'C:/x/index.html'],
  ])('maps %s to %s', (location, file) => {
    expect(snapshotPath(location)).toBe(file);
  });

  it.each([
    ['a location with NUL', '/a\0b', /holds NUL/],
    ['a relative location', 'books/1', /a location starts with "\/"/],
    ['an absolute Windows path', 'C:\\x', /a location starts with "\/"/],
    ['a segment past 255 bytes', '/' + 'a'.repeat(256), /a segment is longer than 255 bytes/],
    ['a 10 kB query', '/?' + 'q'.repeat(10_000), /its query makes a file name longer than 255 bytes/],
  ])('refuses %s with UNSAFE_PATH', (_, location, message) => {
    expect(() => snapshotPath(location)).toThrow(message);
    expect(() => snapshotPath(location)).toThrow(expect.objectContaining({ code: 'UNSAFE_PATH' }));
  });

  it('gives every location a path inside the folder, and reads it back (round trip)', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', 'index.html', 'index.a.html', '%2e%2E', '%2F', '%00', 'C:', '\\'),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.option(fc.string({ unit: 'binary', maxLength: 20 })), (segments, query) => {
        const location = '/' + segments.join('/') + (query === null ? '' : '?' + query);
        let file: string;
        try {
          file = snapshotPath(location);
        } catch {
          return;
        }
        expect(resolveInside('/srv/out', file).startsWith('/srv/out/')).toBe(true);
        expect(file.split('/')).not.toContain('..');
        const back = snapshotLocation(file);
        expect(back).not.toBeNull();
        // The same state: the query's `/` and `%2F` decode alike.
        expect(snapshotPath(back as string)).toBe(file);
        expect(back).toBe(normalizeLocation(back as string));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});

describe('snapshotLocation', () => {
  it.each([
    ['index.html', '/'],
    ['books/42/index.html', '/books/42'],
    ['index%2Ehtml/index.html', '/index.html'],
    ['list/index.page=2&sort=a%2Fb.html', '/list?page=2&sort=a/b'],
    ['sitemap.xml', null],
    ['books/index.htm', null],
    ['books/42/other.html', null],
    ['a b/index.html', null],
    ['../index.html', null],
  ])('reads %s as %s', (file, location) => {
    expect(snapshotLocation(file)).toBe(location);
  });
});
