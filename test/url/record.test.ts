import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { record } from '../../src/url/record.js';

describe('record', () => {
  it('inherits no member of Object.prototype', () => {
    const r = record<Record<string, string>>();
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'])
      expect(name in r, name).toBe(false);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(r))).toBeNull();
  });

  it('keeps any key, `__proto__` too, as its own data', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString')), fc.string(), (key, value) => {
        const r = record<Record<string, string>>();
        r[key] = value;
        expect(Object.getOwnPropertyDescriptor(r, key)?.value).toBe(value);
        expect(Object.keys(r)).toEqual([key]);
        expect(JSON.parse(JSON.stringify(r))).toEqual(JSON.parse(JSON.stringify({ [key]: value })));
      }),
    );
  });

  it('shares a prototype no code can add a member to, so one record never changes another', () => {
    const a = record<Record<string, string>>();
    const proto = Object.getPrototypeOf(a) as Record<string, string>;
    expect(Object.isFrozen(proto)).toBe(true);
    expect(Reflect.ownKeys(proto)).toEqual([]);
    expect(() => {
      'use strict';
      proto['polluted'] = 'yes';
    }).toThrow(TypeError);
    expect(record<Record<string, string>>()['polluted']).toBeUndefined();
    expect(record()).not.toBe(a);
  });
});
