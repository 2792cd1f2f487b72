import { describe, expect, it } from 'vitest';
import { compileRoute } from '../../../src/routes/pattern/compile.js';
import { createIndex } from '../../../src/routes/match/matcher.js';
import { readParams } from '../../../src/routes/match/segment-params.js';

describe('the params of a pattern the index reads exactly', () => {
  /** `pattern`'s params read from `path` as the index reads them, each decoded to upper case, or null. */
  const read = (path: string, pattern: string) => {
    const reading = createIndex([compileRoute({ path: pattern }, true).tokens], true).exact[0];
    if (!reading) throw new Error(`${pattern} is not read exactly`);
    const params: Record<string, string | string[]> = {};
    return readParams(path, reading, params, (raw) => raw.toUpperCase()) ? params : null;
  };

  it('takes each param from its segment, leaves out a group the path does not have, and decodes each', () => {
    expect(read('/a/1/b/2', '/a/:x/b/:y')).toEqual({ x: '1', y: '2' });
    expect(read('/a/1/b/2/', '/a/:x/b/:y')).toEqual({ x: '1', y: '2' });
    expect(read('/e/7', '/e/:id{/edit/:tab}')).toEqual({ id: '7' });
    expect(read('/e/7/', '/e/:id{/edit/:tab}')).toEqual({ id: '7' });
    expect(read('/e/7/edit/t/', '/e/:id{/edit/:tab}')).toEqual({ id: '7', tab: 'T' });
    expect(read('/n', '/n{/:x{/:y}}')).toEqual({});
    expect(read('/n/1/', '/n{/:x{/:y}}')).toEqual({ x: '1' });
    expect(read('/n/1/2', '/n{/:x{/:y}}')).toEqual({ x: '1', y: '2' });
  });

  it("gives a last wildcard the rest of the path, a trailing slash's empty segment too, and fails when there is none", () => {
    expect(read('/files/a/b.txt', '/files/*path')).toEqual({ path: ['A', 'B.TXT'] });
    expect(read('/files/a/', '/files/*path')).toEqual({ path: ['A', ''] });
    expect(read('/files/', '/files/*path')).toBeNull();
    expect(read('/files', '/files/*path')).toBeNull();
  });
});
