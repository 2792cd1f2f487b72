import { describe, expect, it } from 'vitest';
import { countOption, optionsOf, positiveOption, SnapshotError } from '../../src/server/errors.js';
import * as server from '../../src/server/index.js';

describe('optionsOf', () => {
  it('gives an object back and refuses anything else with BAD_OPTION saying what the call takes', () => {
    const options = { a: 1 };
    expect(optionsOf(options, 'f', '{ a }')).toBe(options);
    for (const [value, got] of [
      [undefined, 'undefined'],
      [null, 'null'],
      ['x', 'string'],
    ] as const)
      expect(() => optionsOf(value, 'f', '{ a }')).toThrow(
        new SnapshotError('BAD_OPTION', `f takes an options object ({ a }), got ${got}`),
      );
  });

  it("given every option's name, refuses a misspelt one with BAD_OPTION naming the option meant, and leaves others alone", () => {
    const known = { timeoutMs: 1, outDir: 1 };
    expect(() => optionsOf({ outdir: 'x' }, 'f', '{ outDir }', known)).toThrow(
      new SnapshotError('BAD_OPTION', 'f: "outdir" is no option; did you mean "outDir"?'),
    );
    const own = { outDir: 'x', appName: 'shop' };
    expect(optionsOf(own, 'f', '{ outDir }', known)).toBe(own);
  });
});

describe('countOption', () => {
  it('takes a whole number of at least min, and Infinity only where it is no bound', () => {
    expect([countOption(1, 'n', 1), countOption(0, 'n', 0), countOption(Infinity, 'n', 0, true)]).toEqual([1, 0, Infinity]);
    for (const value of [0, 1.5, NaN, Infinity, '4' as unknown as number])
      expect(() => countOption(value, 'n', 1)).toThrow(
        new SnapshotError('BAD_OPTION', `n must be an integer of at least 1, got ${String(value)}`),
      );
    expect(() => countOption(-Infinity, 'n', 0, true)).toThrow('n must be an integer of at least 0, got -Infinity');
  });
});

describe('positiveOption', () => {
  it('takes a number above 0 or the fallback, never text', () => {
    expect([positiveOption(undefined, 5, 'n'), positiveOption(Infinity, 5, 'n')]).toEqual([5, Infinity]);
    expect(() => positiveOption('5000', 5, 'n')).toThrow('n must be a number above 0, got "5000"');
  });
});

describe('the server entries called from JavaScript without their options', () => {
  // Before: a destructuring TypeError ("Cannot destructure property 'routes' of 'options'").
  const calls: [string, () => unknown][] = [
    ['createSnapshotHandler', () => server.createSnapshotHandler(undefined as never)],
    ['prerender', () => server.prerender(null as never)],
    ['sitemap(locations, options)', () => server.sitemap([], undefined as never)],
    ['headlessRenderer', () => server.headlessRenderer(undefined as never)],
    ['redisStore', () => server.redisStore(null as never)],
    ['memoryStore', () => server.memoryStore(null as never)],
    ['robotsTxt', () => server.robotsTxt(null as never)],
    ['fileStore(dir, options)', () => server.fileStore('snapshots', null as never)],
  ];
  it.each(calls)('%s throws BAD_OPTION naming the call', async (name, call) => {
    const error = await (async () => call())().then(
      () => null,
      (x: unknown) => x,
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error).toMatchObject({ code: 'BAD_OPTION', message: expect.stringContaining(`${name} takes an options object`) });
  });

  it('fileStore refuses a folder that is no path', () => {
    expect(() => server.fileStore(undefined as never)).toThrow(
      new SnapshotError('BAD_OPTION', "fileStore(dir) takes the folder's path, got undefined"),
    );
    expect(() => server.fileStore('')).toThrow("fileStore(dir) takes the folder's path, got an empty string");
  });
});
