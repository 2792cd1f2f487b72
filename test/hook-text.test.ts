import { describe, expect, it } from 'vitest';
import { hookText } from '../src/hook-text.js';

describe('hookText', () => {
  it.each([['<h1>x</h1>'], [''], [undefined], [null], [42], [{ toString: () => 'x' }]])(
    'gives back what the hook returned when it is no promise: %s',
    (value) => {
      expect(hookText(value, 'render', '/a')).toBe(value);
    },
  );

  it('refuses a promise or a thenable with a TypeError naming the hook and the location', () => {
    expect(() => hookText(Promise.resolve('<p>late</p>'), 'render', '/books/1')).toThrow(
      new TypeError('render of "/books/1" returned a promise: render and title run synchronously; fetch data in load'),
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
});
