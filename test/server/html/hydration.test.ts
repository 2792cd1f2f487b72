import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { SnapshotError } from '../../../src/server/errors.js';
import { dataScript, notJson } from '../../../src/server/html/hydration.js';

const ROUTE = { path: '/books/:id', name: 'book' };

/** The text of the data script, as an HTML parser reads it. */
function scriptText(html: string): string {
  type Node = { tagName?: string; childNodes?: Node[]; value?: string };
  let found = '';
  const walk = (n: Node) => {
    if (n.tagName === 'script') found = (n.childNodes ?? []).map((c) => c.value ?? '').join('');
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(`<!DOCTYPE html><html><head>${html}</head><body></body></html>`) as unknown as Node);
  return found;
}

describe('the data script', () => {
  it('round-trips </script>, U+2028, U+2029, quotes and <!-- exactly through an HTML parser and JSON.parse', () => {
    const data = {
      title: '</script><script>alert(1)</script>',
      line: 'a\u2028b\u2029c',
      quote: 'say "hi" & \'bye\'',
      comment: '<!-- x -->',
      nested: ['</SCRIPT >', { '"key"': 1 }],
    };
    const html = dataScript({ location: '/books/1', status: 200, data }, ROUTE);
    expect(html).not.toMatch(/<\/script>.*<\/script>/s);
    expect(html).not.toContain('\u2028');
    expect(JSON.parse(scriptText(html))).toEqual({ location: '/books/1', status: 200, data });
  });

  it('round-trips any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (data, location) => {
        const html = dataScript({ location, status: 200, data }, ROUTE);
        expect(JSON.parse(scriptText(html))).toEqual(JSON.parse(JSON.stringify({ location, status: 200, data })));
      }),
    );
  });

  it('writes no markup character raw', () => {
    expect(dataScript({ location: '<>&\u2028\u2029', status: 200 }, ROUTE)).toContain('{"location":"\\u003c\\u003e\\u0026\\u2028\\u2029"');
  });

  it('carries the nonce, and no data key when the route loads nothing', () => {
    expect(dataScript({ location: '/', status: 200 }, ROUTE, 'abc+/=')).toBe(
      '<script type="application/json" id="crawlable-router-data" nonce="abc+/=">{"location":"/","status":200}</script>',
    );
  });
});

class Book {
  constructor(readonly id: string) {}
}
const cycle: Record<string, unknown> = { a: 1 };
cycle['self'] = { back: cycle };

describe('notJson', () => {
  it.each([
    [{ at: new Date(0) }, 'data.at is a Date, which JSON does not give back'],
    [{ tags: new Map() }, 'data.tags is a Map, which JSON does not give back'],
    [[new Set([1])], 'data[0] is a Set, which JSON does not give back'],
    [{ book: new Book('1') }, 'data.book is a Book, which JSON does not give back'],
    [{ n: 10n }, 'data.n is a BigInt, which JSON cannot write'],
    [{ x: [1, NaN] }, 'data.x[1] is NaN, which JSON writes as null'],
    [{ 'odd key': Infinity }, 'data["odd key"] is Infinity, which JSON writes as null'],
    [[1, undefined], 'data[1] is undefined, which JSON writes as null in an array'],
    [[1, , 3], 'data[1] is an empty slot, which JSON writes as null'],
    [{ f: () => 1 }, 'data.f is a function, which JSON cannot write'],
    [cycle, 'data.self.back refers back to an object that contains it (a cycle)'],
  ])('refuses %o: %s', (value, why) => {
    expect(notJson(value)).toBe(why);
  });

  it.each([
    [{ a: 1, b: 'x', c: [true, null, { d: -1.5 }], e: undefined }],
    [Object.assign(Object.create(null) as object, { a: 1 })],
    ['text'],
    [null],
  ])('accepts %o', (value) => {
    expect(notJson(value)).toBeNull();
  });

  it('accepts an object shared by two branches (not a cycle)', () => {
    const shared = { x: 1 };
    expect(notJson({ a: shared, b: [shared] })).toBeNull();
  });
});

describe("data JSON cannot carry, in 'all' mode", () => {
  it('is a 500 for that state, with onError told the route and the path, and nothing cached', async () => {
    const errors: unknown[] = [];
    let loads = 0;
    const routes = createRoutes([
      { path: '/books/:id', name: 'book', load: () => (loads++, { published: new Date(0) }), render: () => 'book' },
    ]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', cleanUrls: 'all', onError: (e) => errors.push(e) });
    for (let i = 0; i < 2; i++) {
      const reply = await handler.fetch(new Request('http://x/books/1'));
      expect(reply?.status).toBe(500);
      expect(await reply?.text()).not.toContain('Date');
    }
    expect(loads).toBe(2);
    expect(errors[0]).toBeInstanceOf(SnapshotError);
    expect(errors[0]).toMatchObject({
      code: 'DATA_NOT_JSON',
      message:
        'the data route "book" (/books/:id) loaded for /books/1 cannot be sent to the client as JSON: data.published is a Date, which JSON does not give back',
    });
  });

  it("is no error in 'bots' mode, where no data is sent", async () => {
    const routes = createRoutes([{ path: '/books/:id', load: () => ({ published: new Date(0) }), render: () => 'book' }]);
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', onError: () => {} });
    expect((await handler.fetch(new Request('http://x/books/1', { headers: { 'User-Agent': 'Googlebot/2.1' } })))?.status).toBe(200);
  });
});
