// The document a router draws in, as it reads it: page content cannot replace what it calls there.

import type { RouterDocument } from './dom.js';

/**
 * `doc` with its members read from its prototype, called on it: a page's named elements
 * (`<img name="querySelector">`, `<form name="head">`) shadow the document's own, never its prototype's.
 */
export const unshadowed = (doc: RouterDocument, proto = Object.getPrototypeOf(doc)): RouterDocument =>
  new Proxy(doc, {
    get: (target, key, value?: unknown) => (typeof (value = Reflect.get(proto, key, target)) == 'function' ? value.bind(target) : value),
    set: (target, key, value) => Reflect.set(proto, key, value, target),
  });
