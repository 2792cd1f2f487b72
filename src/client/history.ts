// The router on an instance of the `history` package (v5): `createMemoryHistory()` (no window at
// all: Node, tests, widgets) or a `createBrowserHistory()` an app already shares. The package is
// never imported here: the router talks only to the instance it is given, through its interface.

import type { Entry, Nav } from './adapters.js';
import type { RouterHistory } from './types.js';

/**
 * The instance as the navigation core's `Nav`. The instance keys its entries and keeps each one's
 * `state` as the app gave it; the router's own bookkeeping (its entry key and position) stays here,
 * by the instance's key, so that other users of the instance see their state untouched.
 */
export function historyNav(h: RouterHistory): Nav {
  const entries = new Map<string, Entry>();
  let at = 0; // the position of the last entry seen
  let writing = false;
  const keep = (key: string, e: Entry) => (entries.set(key, e), (at = e.idx), e);
  return {
    api: 2,
    href: () => h.location.pathname + h.location.search + h.location.hash,
    entry() {
      const { key, state } = h.location;
      // An entry pushed by someone else (or there before the router): after the last one seen, or
      // in its place when it replaced it; a memory history knows its position.
      return keep(key, entries.get(key) ?? { key, idx: h.index ?? at + +(h.action !== 'REPLACE'), state });
    },
    write(url, entry, replace) {
      writing = true;
      try {
        h[replace ? 'replace' : 'push'](url, entry.state);
      } finally {
        writing = false;
      }
      keep(h.location.key, entry);
    },
    go: (delta) => h.go(delta),
    listen(f, signal) {
      // The instance calls its listeners for the router's own push and replace too: those are not news.
      signal.addEventListener(
        'abort',
        h.listen(() => writing || f({})),
      );
    },
  };
}
