import { describe, expect, it } from 'vitest';
import { hookText, syncHead } from '../../src/contract/hook-text.js';

describe('hookText', () => {
  it.each([['<h1>x</h1>'], [''], [undefined], [null], [42], [{ toString: () => 'x' }]])(
    'gives back what the hook returned when it is no promise: %s',
    (value) => {
      expect(hookText(value, 'render', '/a')).toBe(value);
    },
  );

  it('refuses a promise or a thenable with a TypeError naming the hook and the location', () => {
    expect(() => hookText(Promise.resolve('<p>late</p>'), 'render', '/books/1')).toThrow(
      new TypeError('render of "/books/1" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
    expect(() => hookText({ then: () => {} }, 'title', '/"a"')).toThrow(/^title of "\/\\"a\\"" returned a promise/);
    // A function with a `then` is a thenable too (await takes it): before, its source was the page's text.
    expect(() =>
      hookText(
        Object.assign(() => '', { then: () => {} }),
        'render',
        '/f',
      ),
    ).toThrow(/^render of "\/f" returned a promise/);
    expect(
      hookText(
        Object.assign(() => '', { then: 1 }),
        'render',
        '/f',
      ),
    ).toBeTypeOf('function');
  });

  it('checks a head hook or a head object as it checks render and title, and gives back what is no promise', () => {
    const tags = { meta: [{ name: 'description', content: 'x' }] };
    expect(syncHead(undefined, '/a')).toBeUndefined();
    expect(syncHead(tags, '/a')).toBe(tags);
    expect(syncHead((_context: never) => tags, '/a')(undefined as never)).toBe(tags);
    // Before, an async head gave no tags at all, on either side, and nothing said why.
    const late = syncHead(async (_context: never) => tags, '/books/1');
    expect(() => late(undefined as never)).toThrow(
      new TypeError('head of "/books/1" returned a promise: render, title and head run synchronously; fetch data in load'),
    );
    expect(() => syncHead(Promise.resolve(tags), '/b')).toThrow(/^head of "\/b" returned a promise/);
  });
});
