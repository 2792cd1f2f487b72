import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
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

  it('tells an entries() that throws a value with no text, rather than end the walk with a TypeError of its own', async () => {
    const table = createRoutes([
      { path: '/a', render: () => 'a' },
      {
        path: '/b/:id',
        entries: () => {
          throw Object.create(null);
        },
      },
      { path: '/c', render: () => 'c' },
    ]);
    const faults: [string, string][] = [];
    expect([...(await tableStates(table, (record, error) => faults.push([record, error])))]).toEqual(['/a', '/c']);
    expect(faults).toEqual([['/b/:id entries()', '(a value that does not print)']]);
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
