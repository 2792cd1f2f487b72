import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dropTracking,
  encodeComponent,
  isTrackingKey,
  keepQueryKeys,
  parseQuery,
  stringifyQuery,
  type QueryInput,
} from '../../src/url/query.js';
import { percentDecode } from '../../src/url/percent.js';

const refuse = (what: unknown): never => {
  throw new Error(`lone surrogate: ${String(what)}`);
};
// Keys and values of any well-formed text, `&`, `=`, `+`, `%` and `#` included.
const text = fc.string({ unit: 'grapheme', maxLength: 8 });

describe('parseQuery', () => {
  it('reads repeated keys as arrays and a bare key as an empty string, skipping empty pairs', () => {
    expect({ ...parseQuery('a=1&&b&a=2&a=3&c=') }).toEqual({ a: ['1', '2', '3'], b: '', c: '' });
    expect({ ...parseQuery('') }).toEqual({});
  });

  it('keeps `+` a plus and decodes each escape once, leaving a malformed one as it came', () => {
    expect({ ...parseQuery('q=C++&r=a%2Bb&s=%2525&t=%zz&u=%E6%97%A5') }).toEqual({ q: 'C++', r: 'a+b', s: '%25', t: '%zz', u: '日' });
  });

  it('splits a pair at its first `=` only', () => {
    expect({ ...parseQuery('a=b=c') }).toEqual({ a: 'b=c' });
  });

  it('keeps keys that name Object members as data, on an object that inherits nothing', () => {
    const query = parseQuery('__proto__=x&constructor=y&toString');
    expect('hasOwnProperty' in query).toBe(false);
    expect(Object.keys(query)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(query['__proto__']).toBe('x');
    expect(parseQuery('')['constructor']).toBeUndefined();
  });
});

describe('stringifyQuery', () => {
  it('writes keys in order, repeats a key for an array and leaves out null and undefined', () => {
    expect(stringifyQuery({ b: 2, a: ['x', true], n: null, u: undefined, e: '' }, refuse)).toBe('b=2&a=x&a=true&e=');
    expect(stringifyQuery({}, refuse)).toBe('');
  });

  it('hands a lone surrogate in a key or a value to its hook with the key', () => {
    expect(() => stringifyQuery({ ['a\uD800']: 1 }, refuse)).toThrow('lone surrogate: a\uD800');
    expect(() => stringifyQuery({ k: 'v\uDC00' }, refuse)).toThrow('lone surrogate: k');
  });

  it('gives back, through parseQuery, exactly the keys and values it wrote', () => {
    const query = fc.dictionary(text, fc.oneof(text, fc.array(text, { minLength: 2, maxLength: 3 })));
    fc.assert(
      fc.property(query, (input) => {
        const back = parseQuery(stringifyQuery(input as QueryInput, refuse));
        // An empty key writes a pair with an empty name, which reads back as that key.
        expect({ ...back }).toEqual(input);
      }),
      { numRuns: 500, seed: 17 },
    );
  });
});

describe('keepQueryKeys', () => {
  it('keeps the pairs whose decoded key is listed, as written, in the order of the list (a key’s own in the order they came)', () => {
    expect(keepQueryKeys('utm=1&page=2&q=a%20b&page=3&%70age=4', ['page', 'q'])).toBe('page=2&page=3&%70age=4&q=a%20b');
    expect(keepQueryKeys('utm=1&page=2&q=a%20b&page=3&%70age=4', ['q', 'page'])).toBe('q=a%20b&page=2&page=3&%70age=4');
    expect(keepQueryKeys('b=1&a=2&b=0', ['a', 'b', 'a'])).toBe('a=2&b=1&b=0');
    expect(keepQueryKeys('utm=1', ['page'])).toBe('');
    expect(keepQueryKeys('a=1&&b', undefined)).toBe('a=1&&b');
  });

  it('gives, for every query and list of keys, the pairs a filter of each listed key would', () => {
    // The rule written plainly: each key's pairs at its first place in the list, or every pair in
    // order with none listed; tracking tags never, and an empty pair only when nothing is listed.
    const keyOf = (pair: string) => percentDecode(pair.split('=')[0] as string);
    const model = (query: string, keys?: string[]) => {
      const pairs = query.split('&').filter((p) => !isTrackingKey(keyOf(p)));
      if (!keys) return pairs.join('&');
      const listed = keys.filter((k, i) => keys.indexOf(k) === i);
      return listed.flatMap((k) => pairs.filter((p) => p !== '' && keyOf(p) === k)).join('&');
    };
    const key = fc.constantFrom('a', 'b', '%61', 'utm_source', 'gclid', '', 'é');
    const pair = fc.oneof(
      fc.tuple(key, text).map(([k, v]) => `${k}=${v.replace(/[&#]/g, '')}`),
      key,
      fc.constant(''),
    );
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), fc.option(fc.array(key, { maxLength: 4 }), { nil: undefined }), (pairs, keys) => {
        const query = pairs.join('&');
        expect(keepQueryKeys(query, keys)).toBe(model(query, keys));
      }),
      { numRuns: 1000, seed: 23 },
    );
  });
});

describe('encodeComponent', () => {
  it('is encodeURIComponent, with a lone surrogate handed to the hook at its index', () => {
    expect(encodeComponent('a b/é', refuse)).toBe('a%20b%2F%C3%A9');
    expect(() => encodeComponent('ab\uD800', (index) => refuse(index))).toThrow('lone surrogate: 2');
  });
});

describe('dropTracking', () => {
  it.each([
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'utm_term',
    'utm_content',
    'utm_id',
    'gclid',
    'fbclid',
    'msclkid',
    'dclid',
    'mc_cid',
    'mc_eid',
    '_ga',
    '_gl',
    'yclid',
    'igshid',
  ])('drops %s, written plain or escaped', (key) => {
    expect(isTrackingKey(key)).toBe(true);
    expect(dropTracking(`a=1&${key}=x&b`)).toBe('a=1&b');
    expect(dropTracking(`${encodeURIComponent(key).replace(/^./, (c) => '%' + c.charCodeAt(0).toString(16))}=x`)).toBe('');
  });

  it('keeps every other pair as written, in order, empty pairs included', () => {
    expect(dropTracking('q=C%2B%2B&&utm_source=a&page=2&gclid')).toBe('q=C%2B%2B&&page=2');
    expect(dropTracking('')).toBe('');
  });

  it('leaves a query with no tag as it came, for every query', () => {
    fc.assert(
      fc.property(text, text, (key, value) => {
        const query = `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
        expect(dropTracking(query)).toBe(isTrackingKey(key) ? '' : query);
      }),
    );
  });
});
