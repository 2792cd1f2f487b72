import { describe, expect, it } from 'vitest';
import { createFileClaims, describeCollision, findCollisions } from '../../../src/server/files/collisions.js';

describe('createFileClaims', () => {
  it.each([
    ['the same file in another case', 'Books/1/index.html', 'books/1/index.html', 'Books'],
    ['a query file in another case', 'search/index.q=Foo.html', 'search/index.q=foo.html', 'search/index.q=Foo.html'],
    ['a folder another state made in another case', 'Books/1/index.html', 'books/2/index.html', 'Books'],
    ['a deeper folder', 'a/B/c/index.html', 'a/b/index.html', 'a/B'],
  ])('finds %s', (_, first, second, held) => {
    const claims = createFileClaims();
    expect(claims.claim('/first', first)).toBeNull();
    expect(claims.claim('/second', second)).toEqual({ holder: '/first', held });
    expect(claims.check(second)).toEqual({ holder: '/first', held });
  });

  it.each([
    ['distinct names', 'books/1/index.html', 'books/2/index.html'],
    ['one folder in one spelling', 'Books/1/index.html', 'Books/2/index.html'],
    ['names that differ in more than case', 'a/index.html', 'b/index.html'],
    ['escapes of the same letter in two cases (CON, con)', 'CO%4E/index.html', 'co%6E/index.html'],
  ])('lets two states hold %s', (_, first, second) => {
    const claims = createFileClaims();
    expect(claims.claim('/first', first)).toBeNull();
    expect(claims.claim('/second', second)).toBeNull();
  });

  it('finds a state with a trailing "/" whose file is the one of the state without it', () => {
    const claims = createFileClaims();
    expect(claims.claim('/about/', 'about/index.html')).toBeNull();
    expect(claims.claim('/about', 'about/index.html')).toEqual({ holder: '/about/', held: 'about/index.html' });
    expect(claims.claim('/about/', 'about/index.html')).toBeNull();
  });

  it('gives a name back once every file holding it is released, and ignores a file never claimed', () => {
    const claims = createFileClaims();
    claims.claim('/Books/1', 'Books/1/index.html');
    claims.claim('/Books/2', 'Books/2/index.html');
    claims.release('books/9/index.html');
    claims.release('Books/1/index.html');
    expect(claims.check('books/3/index.html')).toEqual({ holder: '/Books/1', held: 'Books' });
    claims.release('Books/2/index.html');
    expect(claims.claim('/books/3', 'books/3/index.html')).toBeNull();
    // Claiming a file again is not a collision with itself.
    expect(claims.claim('/books/3', 'books/3/index.html')).toBeNull();
  });

  it('says which state holds the name', () => {
    expect(describeCollision('books/1/index.html', { holder: '/Books/1', held: 'Books' })).toBe(
      'its file "books/1/index.html" collides with "Books" of "/Books/1": names that differ only in case are one name on a case-insensitive file system (macOS, Windows)',
    );
  });

  it('says when a state names the very file of another', () => {
    expect(describeCollision('a/index.html', { holder: '/a/', held: 'a/index.html' })).toBe(
      'its file "a/index.html" is the file of "/a/" too: a path with and without a last "/" names one file',
    );
  });

  it('lists the later state of each colliding pair, in the order given, leaving out states with no safe path', () => {
    const found = findCollisions(['/Books/1', '/books/1', '/a\0b', '/search?q=Foo', '/books/2', '/search?q=foo', '/search?q=bar']);
    expect([...found.keys()]).toEqual(['/books/1', '/books/2', '/search?q=foo']);
    expect(found.get('/search?q=foo')).toContain('collides with "search/index.q=Foo.html" of "/search?q=Foo"');
  });
});
