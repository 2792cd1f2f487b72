import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loneFault, percentDecode, percentEncode, strictDecode } from '../../src/url/percent.js';
import { decodeUtf8 as builtinDecode, encodeUtf8 as builtinEncode } from '../../src/url/utf8.browser.js';
import { decodeUtf8 as loopDecode, encodeUtf8 as loopEncode } from '../../src/url/utf8.js';
import { fuzz } from './runs.js';

// Percent-decoding against an oracle built on the platform's own decodeURIComponent: at each
// escape, the shortest run of 1 to 4 escapes that decodes is one character; an escape that starts
// none is kept (lenient) or is the fault (strict). percent.ts decodes text that decodes whole in one
// call, and other text with a pattern of the escapes that decode, so that a long run of bad escapes
// costs no thrown error per escape: they must agree.

/** The length in escapes of the character at `i` by decodeURIComponent, or 0. */
function oracleSequence(text: string, i: number): number {
  for (let n = 1; n <= 4; n++) {
    try {
      decodeURIComponent(text.slice(i, i + 3 * n));
      return n;
    } catch {
      // a longer run may decode
    }
  }
  return 0;
}

function oracle(text: string): { lenient: string; fault: number } {
  let lenient = '';
  let fault = -1;
  for (let i = 0; i < text.length; ) {
    const escape = /^%[\dA-Fa-f]{2}/.test(text.slice(i, i + 3));
    const n = escape ? oracleSequence(text, i) : 0;
    if (n > 0) {
      lenient += decodeURIComponent(text.slice(i, i + 3 * n));
      i += 3 * n;
      continue;
    }
    if (fault < 0 && text[i] === '%') fault = i;
    lenient += text[i];
    i++;
  }
  return { lenient, fault };
}

const hex = (byte: number, lower: boolean) => '%' + (lower ? byte.toString(16) : byte.toString(16).toUpperCase()).padStart(2, '0');
// Bytes where UTF-8's rules have edges: ASCII, continuations, the overlong and surrogate leads, past U+10FFFF.
const byte = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0xbf }),
  fc.constantFrom(0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x8f, 0x90, 0x9f, 0xa0),
  fc.integer({ min: 0xc0, max: 0xff }),
);
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(byte, fc.boolean()).map(([b, lower]) => hex(b, lower)) },
  { weight: 1, arbitrary: fc.constantFrom('a', '+', '%', '%z', '%4', 'é', '😀', ' ', '/') },
);
const text = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(''));

describe('percentDecode', () => {
  it('decodes leniently what decodeURIComponent decodes, keeping every other escape as it came', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(percentDecode(t)).toBe(oracle(t).lenient);
      }),
      fuzz(201, 3000),
    );
  });

  it('decodes leniently from an index what it decodes of the part alone', () => {
    fc.assert(
      fc.property(text, fc.nat(), (t, n) => {
        const from = t.length ? n % (t.length + 1) : 0;
        expect(percentDecode(t, from)).toBe(percentDecode(t.slice(from)));
      }),
      fuzz(204, 3000),
    );
  });

  it('names, strictly, the first escape that starts no character, or decodes as the oracle does', () => {
    fc.assert(
      fc.property(text, (t) => {
        const decoded = strictDecode(t);
        const index = typeof decoded === 'string' ? -1 : decoded.index;
        const { fault, lenient } = oracle(t);
        expect(index).toBe(fault);
        if (fault < 0) expect(decoded).toBe(lenient);
      }),
      fuzz(202, 3000),
    );
  });
});

// strictDecode(text, from) reads the part from `from` where it is; it must say what decoding that
// part on its own says, faults at their index in the whole text. Its quick check of the whole text
// for lone surrogates must not miss one the part has alone: a pair that `from` splits.
const surrogates = fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '😀', 'é', '%ED%A0%80', '=', 'a');
const anyPart = fc.array(fc.oneof(piece, surrogates), { maxLength: 12 }).map((pieces) => pieces.join(''));

describe('strictDecode from an index', () => {
  it('agrees with decoding the part alone, for any text and any index, pairs split or not', () => {
    fc.assert(
      fc.property(anyPart, fc.nat(), (t, n) => {
        const from = t.length ? n % (t.length + 1) : 0;
        const whole = strictDecode(t, from);
        const part = strictDecode(t.slice(from));
        expect(whole).toEqual(typeof part === 'string' ? part : { ...part, index: part.index + from });
      }),
      fuzz(203, 3000),
    );
  });
});

// A browser build reads UTF-8 with url/utf8.browser.ts (the package's "browser" field) where a server
// reads it with url/utf8.ts, which percentDecode and strictDecode use above: the two must agree.
describe("the browser's UTF-8 reader", () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives what the loop gives, decoded text or the first fault, for any text and any index', () => {
    fc.assert(
      fc.property(anyPart, fc.nat(), fc.boolean(), (t, n, stop) => {
        const from = t.length ? n % (t.length + 1) : 0;
        expect(builtinDecode(t, from, stop)).toEqual(loopDecode(t, from, stop));
      }),
      fuzz(205, 3000),
    );
  });

  it('throws no error per bad escape: a long run of them costs one failed decodeURIComponent', () => {
    let thrown = 0;
    const decode = globalThis.decodeURIComponent;
    vi.spyOn(globalThis, 'decodeURIComponent').mockImplementation((text) => {
      try {
        return decode(text);
      } catch (x) {
        thrown++;
        throw x;
      }
    });
    const text = 'a%C3%A9'.repeat(100) + '%C0%80%ED%A0%80%F4%90%80%80%zz'.repeat(1000);
    expect(builtinDecode(text, 0, false)).toBe(loopDecode(text, 0, false));
    expect(builtinDecode(text, 0, true)).toBe(700);
    expect(thrown).toBe(2);
  });
});

// Text to encode: any UTF-16 code unit, and the characters at UTF-8's edges, pairs and lone surrogates.
const unit = fc.oneof(
  fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\uD83D\uDE00', '\uDBFF\uDFFF', '\uD800', '\uDFFF', 'é', '\u07FF', '\u0800', '\uFFFF', 'a', '%'),
);

describe('percentEncode', () => {
  // The encoder writes UTF-8 itself on a server (no encodeURIComponent), so it is held to
  // encodeURIComponent: keeping what that keeps, it writes what that writes, from any index; a lone
  // surrogate makes it null, and loneFault tells the first one.
  const keep = /[\w\-.!~*'()]/;
  const firstLone = (text: string) => [...text].findIndex((c) => /^[\uD800-\uDFFF]$/.test(c));

  it('writes what encodeURIComponent writes, or null with the first lone surrogate told, from any index', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.nat({ max: 45 }), (text, at) => {
        const from = Math.min(at, text.length);
        const part = text.slice(from);
        const lone = firstLone(part);
        if (lone < 0) expect(percentEncode(text, keep, from)).toBe(encodeURIComponent(part));
        else {
          const index = from + [...part].slice(0, lone).join('').length;
          expect(percentEncode(text, keep, from)).toBeNull();
          expect(loneFault(text, from)).toEqual({ kind: 'LONE_SURROGATE', index, text: text[index] });
        }
      }),
      fuzz(331, 2000),
    );
  });
});

// A browser build writes UTF-8 with url/utf8.browser.ts (encodeURIComponent) where a server writes it with
// url/utf8.ts: the two must agree for the codec's set of kept characters and for the others it may take.
describe("the browser's UTF-8 writer", () => {
  // Each keeps at least what encodeURIComponent leaves raw: the codec's, exactly that, all ASCII, that and a space.
  const keeps = [/[!"$'-*,-~]/, /[\w\-.!~*'()]/, /[\0-\x7f]/, /[\w\-.!~*'() ]/];

  it('writes what the loop writes, or null where it does (a lone surrogate), for any text, kept set and index', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.nat({ max: 45 }), fc.constantFrom(...keeps), (text, at, keep) => {
        const from = Math.min(at, text.length);
        expect(builtinEncode(text, keep, from)).toBe(loopEncode(text, keep, from));
      }),
      fuzz(332, 3000),
    );
  });
});
