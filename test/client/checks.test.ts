import { createMemoryHistory } from 'history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../src/client/index.js';
import { createRoutes, type RouteTable } from '../../src/index.js';
import { inProduction, thrown } from '../production.js';

// What a development build says of inputs a new user gets wrong, where a production build fails
// inside the router (or, for a URL given as a location, quietly reads it as a path).

const routes = createRoutes([{ path: '/' }, { path: '/books/:id' }]);
const memory = () => createMemoryHistory({ initialEntries: ['/'] });

afterEach(() => vi.restoreAllMocks());

describe('createRouter options', () => {
  it.each([
    [{ routes: [{ path: '/' }] }, 'createRouter: routes must be the table createRoutes() makes, got an array: pass createRoutes([...])'],
    [{}, 'createRouter: routes must be the table createRoutes() makes, got undefined'],
    [{ routes, mode: 'hashbnag' }, 'createRouter: mode must be "auto", "history" or "hashbang", got "hashbnag"'],
    [{ routes, onerror: () => {} }, 'createRouter: "onerror" is no option; did you mean "onError"?'],
  ])('refuses %j, naming the option', (options, message) => {
    const error = thrown(() => createRouter({ history: memory(), ...(options as { routes: RouteTable }) }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(message);
  });

  it('takes every mode it documents', () => {
    for (const mode of [undefined, 'auto', 'history', 'hashbang'] as const)
      expect(createRouter({ routes, history: memory(), mode }).mode).toBeTruthy();
  });
});

describe('navigate and href targets', () => {
  it('refuses a target that is no string, where it threw "indexOf is not a function"', async () => {
    const router = createRouter({ routes, history: memory() });
    await router.start();
    expect(() => router.navigate(42 as unknown as string)).toThrow(
      'navigate: the target must be a location such as "/books/1", got number',
    );
    expect(() => router.navigate(undefined as unknown as string)).toThrow('got undefined');
    expect(() => router.href({ path: '/books/2' } as unknown as string)).toThrow(
      'href: the target must be a location such as "/books/1", got object',
    );
    expect(router.current?.location).toBe('/');
  });

  it('warns that an absolute URL is read as a path of the app, and goes where production goes', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createRouter({ routes, history: memory() });
    await router.start();
    expect(await router.navigate('http://127.0.0.1:3000/books/1')).toBe(true);
    expect(router.current?.location).toBe('/http:/127.0.0.1:3000/books/1');
    expect(router.href('//cdn.example/x')).toBe('/cdn.example/x');
    expect(warn.mock.calls.map((c) => String(c[0]).split(':')[0])).toEqual(['navigate("http', 'href("//cdn.example/x")']);
    expect(String(warn.mock.calls[0]?.[0])).toContain('toLocation(url) gives the location of a URL of this app');
    await router.navigate('/books/1');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('checks nothing in a production build', async () => {
    await inProduction(async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { createRouter: prodRouter } = await import('../../src/client/index.js');
      const { createRoutes: prodRoutes } = await import('../../src/index.js');
      const router = prodRouter({ routes: prodRoutes([{ path: '/' }]), history: memory(), mode: 'hashbnag' as 'hashbang' });
      expect(router.mode).toBe('history');
      await router.start();
      expect(router.href('https://example.com/x')).toBe('/https:/example.com/x');
      expect(warn).not.toHaveBeenCalled();
      await expect(async () => prodRouter({ routes: [] as unknown as RouteTable, history: memory() }).start()).rejects.toThrow(TypeError);
    });
  });
});
