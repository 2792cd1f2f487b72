import { describe, expect, it } from 'vitest';
import { notFound, outcomeOf, redirect } from '../../src/routes/outcome.js';
import { inProduction } from '../production.js';

describe('notFound and redirect', () => {
  it('make outcomes that outcomeOf recognises, and nothing else is one', () => {
    expect(outcomeOf(notFound())).toMatchObject({ kind: 'notFound', status: 404 });
    expect(outcomeOf(redirect('/books/42', 301))).toMatchObject({ kind: 'redirect', status: 301, to: '/books/42' });
    expect(outcomeOf(redirect('/b'))).toMatchObject({ status: 302 });
    for (const other of [new Error('x'), { kind: 'notFound', status: 404 }, null, undefined, 'notFound', 404])
      expect(outcomeOf(other)).toBeNull();
  });

  it.each([
    ['https://evil.example/x', '/https:/evil.example/x'],
    ['//evil.example/x', '/evil.example/x'],
    ['/a/../../b?q=1#top', '/b?q=1#top'],
    ['books/1', '/books/1'],
    ['/caf\u00e9\r\n', '/caf%C3%A9%0D%0A'],
  ])('keeps a redirect to %j inside the app as %j', (to, location) => {
    expect(redirect(to).to).toBe(location);
  });

  it('refuses a status that is not a redirect', () => {
    expect(() => redirect('/', 200 as 301)).toThrow('redirect: 200 is not a redirect status (301, 302, 303, 307 or 308)');
  });

  it('refuses it in a production build too, with a short message naming the status', async () => {
    await inProduction(async () => {
      const prod = await import('../../src/routes/outcome.js');
      expect(() => prod.redirect('/', 200 as 301)).toThrow(new TypeError('redirect status 200'));
    });
  });
});
