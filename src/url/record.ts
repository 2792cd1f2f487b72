// Records keyed by text from a URL (a match's params, a query): nothing inherited, so a key named
// `__proto__`, `constructor` or `toString` is the URL's text and never a member of Object.prototype.
// Not `Object.create(null)`: V8 keeps such an object in dictionary mode, and building one with two
// keys took three times as long as an ordinary object, on every match. An object made by a
// constructor whose prototype is empty, frozen and itself without a prototype is an ordinary fast
// object with nothing to inherit (Node's querystring.parse makes its results the same way).

function Bare(): void {}
Bare.prototype = Object.freeze(Object.create(null) as object);

/** A new empty record that inherits nothing. Internal to the package. */
export const record = <T extends object>(): T => new (Bare as unknown as new () => T)();
