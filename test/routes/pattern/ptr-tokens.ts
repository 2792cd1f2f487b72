import type { Token as PtrToken } from 'path-to-regexp';
import type { Token } from '../../../src/routes/pattern/syntax.js';

/**
 * Tokens of src/routes/pattern/syntax.ts as path-to-regexp writes them, for the tests that hand them to its match()
 * and compile() or compare them with its parse(): text and groups are objects with a `type` there,
 * a string and an array here.
 */
export function ptrTokens(tokens: readonly Token[]): PtrToken[] {
  return tokens.map((token) =>
    typeof token === 'string' ? { type: 'text', value: token } : Array.isArray(token) ? { type: 'group', tokens: ptrTokens(token) } : token,
  );
}
