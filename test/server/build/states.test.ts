import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes.js';
import { tableStates, unlisted } from '../../../src/server/build/states.js';

describe('tableStates', () => {
  it("gives each state once, in the table's order, without its anchor, and tells each bad entries() record", async () => {
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      { path: '/a', render: () => 'a' },
      { path: '/b/:id', entries: () => [{ id: '2' }, { id: '..' }, { id: '1' }, { id: '2' }] },
      {
        path: '/tags/:tag',
        entries: () => {
          throw new Error('tags table is gone');
        },
      },
    ]);
    const faults: [string, string][] = [];
    const states = await tableStates(table, (record, error) => faults.push([record, error]));
    expect([...states]).toEqual(['/', '/a', '/b/2', '/b/1']);
    expect(faults.map(([record]) => record)).toEqual(['/b/:id {"id":".."}', '/tags/:tag entries()']);
    expect(faults[1]?.[1]).toBe('tags table is gone');
    // Told to no one, a bad record is still skipped.
    expect([...(await tableStates(table))]).toEqual(['/', '/a', '/b/2', '/b/1']);
  });
});

describe('unlisted', () => {
  it('names the routes with params and no entries(), leaving out redirect routes and optional params', async () => {
    const table = createRoutes([
      { path: '/', render: () => 'home' },
      { path: '/books/:id', render: () => 'book' },
      { path: '/docs{/:lang}', render: () => 'docs' },
      { path: '/files/*rest', entries: () => [] },
      { path: '/book/:id', redirect: '/books/:id' },
    ]);
    expect(await unlisted(table)).toEqual(['/books/:id']);
  });
});
