import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeLocation } from '../../../src/url/location.js';
import { createFileClaims } from '../../../src/server/files/collisions.js';
import { resolveInside, snapshotLocation, snapshotPath } from '../../../src/server/files/paths.js';

// A name Windows cannot hold, or that it reads as another: a character it refuses, a control
// character, a trailing `.` or space (stripped), `.`/`..`, or a device name (any case, any extension).
const WINDOWS_BAD = /[<>:"|?*\\\x00-\x1f]|[. ]$|^\.{1,2}$|^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)(?:\.|$)/i;

/** The snapshot file of a location, or null where snapshotPath refuses it. */
function pathOrNull(location: string): string | null {
  try {
    return snapshotPath(location);
  } catch {
    return null;
  }
}

// Canonical locations full of what file names make hard: case, Windows' characters and names,
// escapes of them, `%25` before them, dots, snapshot-like folder names.
const piece = fc.constantFrom(
  'a',
  'A',
  'b',
  'B',
  'con',
  'CON',
  'Nul',
  'com1',
  'LPT9',
  'CONIN$',
  'com¹',
  'x.txt',
  '.',
  '..',
  'index',
  'Index',
  '.html',
  ':',
  '*',
  '?',
  '/',
  '%3A',
  '%3a',
  '%2A',
  '%3F',
  '%2F',
  '%25',
  '%253A',
  '25',
  '3A',
  '%',
  '%C3%A9',
  'é',
  ' ',
  '~1',
  '=',
  '&',
);
const canonicalLocation = fc
  .tuple(fc.array(fc.array(piece, { maxLength: 4 }), { minLength: 0, maxLength: 3 }), fc.option(fc.array(piece, { maxLength: 5 })))
  .map(([segments, query]) => normalizeLocation('/' + segments.map((s) => s.join('')).join('/') + (query ? '?' + query.join('') : '')))
  // A trailing `/` names the same state (the router matches `/a/` as `/a`), so it shares the file.
  .map((location) => {
    const q = location.indexOf('?');
    const path = q < 0 ? location : location.slice(0, q);
    return (path.length > 1 ? path.replace(/\/$/, '') : path) + (q < 0 ? '' : location.slice(q));
  });

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
    ['/C:/x', 'C%3A/x/index.html'],
    // Windows: characters it refuses, names it strips or reserves, written so that it holds them.
    ['/wiki/Special:Search', 'wiki/Special%3ASearch/index.html'],
    ['/a*b', 'a%2Ab/index.html'],
    ['/a%3Ab', 'a%253Ab/index.html'],
    ['/a%253Ab', 'a%25253Ab/index.html'],
    ['/50%25/a%2Ab%3F', '50%25/a%252Ab%253F/index.html'],
    ['/?q=what?&t=10:30*', 'index.q=what%3F&t=10%3A30%2A.html'],
    ['/?a%2Fb', 'index.a%252Fb.html'],
    ['/a.', 'a%2E/index.html'],
    ['/a..', 'a.%2E/index.html'],
    ['/...', '..%2E/index.html'],
    ['/CON', 'CO%4E/index.html'],
    ['/con.txt/nul.tar.gz', 'co%6E.txt/nu%6C.tar.gz/index.html'],
    ['/lpt1.x/Com9/aux', 'lp%741.x/Co%6D9/au%78/index.html'],
    ['/CONIN$/conout$', 'CO%4EIN$/co%6Eout$/index.html'],
    ['/COM¹/CONSOLE/NULL', 'COM%C2%B9/CONSOLE/NULL/index.html'],
    ['/CON./CON:', 'CON%2E/CON%3A/index.html'],
    ['/Index.x.html', 'Index%2Ex.html/index.html'],
    ['/INDEX.HTML', 'INDEX%2EHTML/index.html'],
    // Ordinary names are unchanged, whatever their case.
    ['/Books/Dune?Sort=Title', 'Books/Dune/index.Sort=Title.html'],
  ])('maps %s to %s', (location, file) => {
    expect(snapshotPath(location)).toBe(file);
  });

  it.each([
    ['a location with NUL', '/a\0b', /holds NUL/],
    ['a relative location', 'books/1', /a location starts with "\/"/],
    ['an absolute Windows path', 'C:\\x', /a location starts with "\/"/],
    ['a segment past 255 bytes', '/' + 'a'.repeat(256), /a segment is longer than 255 bytes/],
    ['a 10 kB query', '/?' + 'q'.repeat(10_000), /its query makes a file name longer than 255 bytes/],
    ['a path more than 32 folders deep', '/a'.repeat(33), /it is more than 32 folders deep/],
  ])('refuses %s with UNSAFE_PATH', (_, location, message) => {
    expect(() => snapshotPath(location)).toThrow(message);
    expect(() => snapshotPath(location)).toThrow(expect.objectContaining({ code: 'UNSAFE_PATH' }));
  });

  it('maps a path 32 folders deep, the deepest it writes', () => {
    expect(snapshotPath('/a'.repeat(32))).toBe('a/'.repeat(32) + 'index.html');
    expect(snapshotPath('/a'.repeat(32) + '/')).toBe('a/'.repeat(32) + 'index.html');
  });

  it('gives every canonical location a file of its own that snapshotLocation reads back exactly (round trip)', () => {
    fc.assert(
      fc.property(canonicalLocation, (location) => {
        const file = pathOrNull(location);
        if (file === null) return;
        expect(snapshotLocation(file)).toBe(location);
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('writes only names Windows holds as they are, on every platform', () => {
    fc.assert(
      fc.property(canonicalLocation, (location) => {
        const file = pathOrNull(location);
        if (file === null) return;
        for (const name of file.split('/')) expect(name).not.toMatch(WINDOWS_BAD);
      }),
      { seed: 12, numRuns: 3000 },
    );
  });

  it('gives two states files equal after case folding only when their claims say they collide', () => {
    let collided = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(canonicalLocation, fc.integer()), { maxLength: 8 }), (pairs) => {
        // Each location and one in other cases (its letters flipped as the bits of a number say).
        const flip = (location: string, bits: number) =>
          normalizeLocation(location.replace(/[a-z]/gi, (c, i: number) => ((bits >> (i % 31)) & 1 ? c.toUpperCase() : c.toLowerCase())));
        const locations = new Set(pairs.flatMap(([location, bits]) => [location, flip(location, bits)]));
        const claims = createFileClaims();
        const kept: string[] = [];
        const files = new Map<string, string>();
        for (const location of locations) {
          const file = pathOrNull(location);
          if (file === null) continue;
          files.set(location, file);
          if (claims.claim(location, file) === null) kept.push(file);
          else collided++;
        }
        // Distinct states have distinct files; kept files never share a name but for its case.
        expect(new Set(files.values()).size).toBe(files.size);
        const spellings = new Map<string, string>();
        for (const file of kept) {
          const parts = file.split('/');
          parts.forEach((_, i) => {
            const prefix = parts.slice(0, i + 1).join('/');
            const other = spellings.get(prefix.toLowerCase());
            if (other !== undefined) expect(other).toBe(prefix);
            spellings.set(prefix.toLowerCase(), prefix);
          });
        }
        // And every state left out collides with a kept one.
        for (const [location, file] of files) if (!kept.includes(file)) expect(claims.check(file), location).not.toBeNull();
      }),
      { seed: 13, numRuns: 1000 },
    );
    // The inputs do collide (`/A` and `/a`, `/CON` and `/con`, `/a%3Ab` and `/a%3ab`…).
    expect(collided).toBeGreaterThan(100);
  });

  it('gives every location a path inside the folder, and reads it back (round trip)', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', 'index.html', 'index.a.html', '%2e%2E', '%2F', '%00', 'C:', '\\'),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.option(fc.string({ unit: 'binary', maxLength: 20 })), (segments, query) => {
        const location = '/' + segments.join('/') + (query === null ? '' : '?' + query);
        const file = pathOrNull(location);
        if (file === null) return;
        expect(resolveInside('/srv/out', file).startsWith('/srv/out/')).toBe(true);
        expect(file.split('/')).not.toContain('..');
        const back = snapshotLocation(file);
        expect(back).not.toBeNull();
        // The same state: `/a/` reads back as `/a`.
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
    // Only the spelling snapshotPath writes names a state.
    ['CON/index.html', null],
    ['a./index.html', null],
    ['a:b/index.html', null],
    ['ab%4E/index.html', null],
    ['a%2Eb/index.html', null],
    ['index.q=a?.html', null],
    ['CO%4E/index.html', '/CON'],
    ['a%253Ab/index.html', '/a%3Ab'],
    ['index.q=what%3F.html', '/?q=what?'],
    ['index.a%252Fb.html', '/?a%2Fb'],
  ])('reads %s as %s', (file, location) => {
    expect(snapshotLocation(file)).toBe(location);
  });
});
