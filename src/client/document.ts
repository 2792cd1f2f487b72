// The document a router draws in, as it reads it: page content cannot replace what it calls there.

import type { RouterDocument } from './dom.js';

/**
 * `doc` (or a form) with its members read from its prototype, called on it: a page's named elements
 * (`<img name="querySelector">`, `<form name="head">`, a form's `<input name="getAttribute">`)
 * shadow the document's or the form's own, never its prototype's.
 */
export const unshadowed = <T extends object = RouterDocument>(doc: T, proto = Object.getPrototypeOf(doc)): T =>
  new Proxy(doc, {
    get: (target, key, value?: unknown) => (typeof (value = Reflect.get(proto, key, target)) == 'function' ? value.bind(target) : value),
    set: (target, key, value) => Reflect.set(proto, key, value, target),
  });
