import { describe, expect, it } from 'vitest';
import { SnapshotError } from '../../src/server/errors.js';
import { checkBase, checkMode, checkOrigin, publicUrl } from '../../src/server/urls.js';

describe('checkOrigin', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['https://example.com/', 'https://example.com'],
    ['HTTPS://Example.COM:443', 'https://example.com'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('accepts %s as %s', (origin, expected) => {
    expect(checkOrigin(origin)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    'example.com',
    'ftp://example.com',
    'https://example.com/app',
    'https://u:p@example.com',
    'https://example.com/?x',
    'https://example.com/#x',
    'https://exa\r\nmple.com',
    42,
  ])('refuses %j with BAD_OPTION', (origin) => {
    expect(() => checkOrigin(origin)).toThrow(SnapshotError);
    expect(() => checkOrigin(origin)).toThrow(/origin must be an http\(s\) origin/);
  });

  it("says that an app's path is the route table's base, where an origin with a path was given", () => {
    expect(() => checkOrigin('https://example.com/shop/')).toThrow(
      'got "https://example.com/shop/": an app under a path gives the origin alone and the path as the route table\'s base: createRoutes(routes, { base: "/shop/" })',
    );
    expect(() => checkOrigin('https://example.com/?x')).not.toThrow(/base/);
  });
});

describe('checkMode and checkBase', () => {
  it('defaults the mode to history and refuses others', () => {
    expect(checkMode(undefined)).toBe('history');
    expect(checkMode('hashbang')).toBe('hashbang');
    expect(() => checkMode('auto')).toThrow(/mode must be "history" or "hashbang", got "auto"/);
    expect(() => checkMode('auto', '--mode')).toThrow('--mode must be "history" or "hashbang", got "auto"');
  });

  it("takes the route table's base and refuses another", () => {
    expect(checkBase(undefined, '/app/')).toBe('/app/');
    expect(checkBase('/app', '/app/')).toBe('/app/');
    expect(() => checkBase('/other/', '/app/')).toThrow(/base "\/other\/" is not the route table's base "\/app\/"/);
  });
});

describe('publicUrl', () => {
  const settings = (mode: 'history' | 'hashbang', base = '/') => ({ origin: 'https://example.com', base, mode });

  it.each([
    ['/', '/', 'https://example.com/', 'https://example.com/'],
    ['/books/1', '/', 'https://example.com/#!/books/1', 'https://example.com/books/1'],
    ['/books/1#reviews', '/', 'https://example.com/#!/books/1', 'https://example.com/books/1'],
    ['/?key=value', '/', 'https://example.com/#!key=value', 'https://example.com/?key=value'],
    ['/', '/app/', 'https://example.com/app/', 'https://example.com/app/'],
    ['/q/caf%C3%A9', '/app/', 'https://example.com/app/#!/q/caf%C3%A9', 'https://example.com/app/q/caf%C3%A9'],
  ])('writes %s (base %s) as %s / %s', (location, base, hashbang, history) => {
    expect(publicUrl(location, settings('hashbang', base))).toBe(hashbang);
    expect(publicUrl(location, settings('history', base))).toBe(history);
  });
});
