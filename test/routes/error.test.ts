import { describe as group, expect, it } from 'vitest';
import { describe, RouteError } from '../../src/routes/error.js';
import { inProduction, thrown } from '../production.js';

group('RouteError', () => {
  it('carries its code, its name and the long text of a development build', async () => {
    const { createRoutes } = await import('../../src/routes/table.js');
    const error = thrown(() => createRoutes([{ path: '/a/:id', name: 'a' }]).href('a', {}));
    expect(error).toBeInstanceOf(RouteError);
    expect(error).toMatchObject({ name: 'RouteError', code: 'MISSING_PARAM', message: 'missing param id for route "a" (/a/:id)' });
  });

  it('in a production build has the code as its message, never an empty one', async () => {
    await inProduction(async () => {
      const prod = await import('../../src/index.js');
      const cases: [() => unknown, string][] = [
        [() => prod.createRoutes([{ path: 'no-slash' }]), 'BAD_PATTERN'],
        [
          () =>
            prod.createRoutes([
              { path: '/a', name: 'x' },
              { path: '/b', name: 'x' },
            ]),
          'DUPLICATE_NAME',
        ],
        [() => prod.createRoutes([]).href('nope'), 'UNKNOWN_ROUTE'],
        [() => prod.createRoutes([{ path: '/a/:id', name: 'a' }]).href('a', {}), 'MISSING_PARAM'],
      ];
      for (const [run, code] of cases) {
        const error = thrown(run);
        expect(error).toBeInstanceOf(prod.RouteError);
        expect(error).toMatchObject({ code, message: code });
      }
    });
  });
});

group('describe', () => {
  it('names a route by its name and path, or by its path alone', () => {
    expect(describe({ path: '/books/:id', name: 'book' })).toBe('route "book" (/books/:id)');
    expect(describe({ path: '/books/:id' })).toBe('route /books/:id');
  });
});
