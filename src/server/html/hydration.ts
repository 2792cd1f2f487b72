// The data script of a server-rendered page (`cleanUrls: 'all'`): the state's `data` as JSON, which
// the client router reads with JSON.parse for its first navigation instead of calling `load`.
// Data that JSON would change on the way (a Date becomes a string, a Map `{}`, a cycle throws) is
// refused at render time with the route and the path inside the data, so the client never starts
// from a state that differs from the server's. The script text is escaped as JSON-LD's is
// (src/contract/head.ts): `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes.

import { jsonLdText } from '../../contract/head.js';
import { DATA_SCRIPT_ID, type HydrationPayload } from '../../contract/hydration.js';
import { describe } from '../../routes/error.js';
import type { AnyRoute } from '../../routes/types.js';
import { SnapshotError } from '../errors.js';
import { escapeHtml } from './escape.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function step(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function kindOf(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === 'string' && name ? `a ${name}` : 'an object with a prototype';
}

/**
 * Why `value` would not come back from JSON.parse(JSON.stringify(value)) as it is, with the path
 * where, or null when it would. Object properties that are `undefined` are allowed: JSON leaves
 * them out and reading one gives `undefined` either way.
 */
export function notJson(value: unknown, path = 'data', parents: object[] = []): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path} is ${String(value)}, which JSON writes as null`;
    case 'bigint':
      return `${path} is a BigInt, which JSON cannot write`;
    case 'undefined':
      return `${path} is undefined, which JSON writes as null in an array`;
    case 'function':
    case 'symbol':
      return `${path} is a ${typeof value}, which JSON cannot write`;
  }
  if (value === null) return null;
  const object = value as object;
  if (parents.includes(object)) return `${path} refers back to an object that contains it (a cycle)`;
  parents.push(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i++) {
        if (!(i in object)) return `${step(path, i)} is an empty slot, which JSON writes as null`;
        const why = notJson(object[i], step(path, i), parents);
        if (why) return why;
      }
      return null;
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) return `${path} is ${kindOf(object)}, which JSON does not give back`;
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue;
      const why = notJson(item, step(path, key), parents);
      if (why) return why;
    }
    return null;
  } finally {
    parents.pop();
  }
}

/**
 * The start of the data script's tag, up to its attributes: a nonce, when there is one, comes next.
 * A page with a nonce per answer is stored with this tag closed at once (http/nonce.ts).
 */
export const DATA_SCRIPT_START = `<script type="application/json" id="${DATA_SCRIPT_ID}"`;

/**
 * The data script of one state. Throws `SnapshotError` DATA_NOT_JSON, naming the route, the
 * location and the path inside the data, when JSON cannot carry the data faithfully.
 */
export function dataScript(payload: HydrationPayload, route: AnyRoute, nonce?: string): string {
  const why = payload.data === undefined ? null : notJson(payload.data);
  if (why) {
    const name =
      'path' in route && typeof route.path === 'string' ? describe(route as Parameters<typeof describe>[0]) : 'the notFound route';
    throw new SnapshotError(
      'DATA_NOT_JSON',
      `the data ${name} loaded for ${payload.location} cannot be sent to the client as JSON: ${why}`,
    );
  }
  const attributes = nonce === undefined ? '' : ` nonce="${escapeHtml(nonce)}"`;
  return `${DATA_SCRIPT_START}${attributes}>${jsonLdText(payload)}</script>`;
}
