// What a route's `render`, `title` and `head` hooks give. All run synchronously on both sides (the
// client router and the server's hooks renderer): fetching is `load`'s business. A hook that returns
// a promise would show "[object Promise]" (or, from `head`, no tags at all, silently) where the other
// side waited for it (cloaking by accident), so both sides refuse it alike: the server in every
// build, the client in development builds.

/** `value`, what the `hook` of the state at `location` returned; a TypeError when it is a promise (any thenable, a function too). Internal. */
export function hookText<T>(value: T, hook: 'render' | 'title' | 'head', location: string): T {
  if (value && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function')
    throw new TypeError(
      `${hook} of ${JSON.stringify(location)} returned a promise: render, title and head run synchronously; fetch data in load`,
    );
  return value;
}

/** A `head` (the table's defaults or a view's hook) whose result `hookText` checks at `location`. Internal. */
export function syncHead<H>(head: H, location: string): H {
  return (
    typeof head === 'function' ? (context: never) => hookText(head(context), 'head', location) : hookText(head, 'head', location)
  ) as H;
}
