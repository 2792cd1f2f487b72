// The router on an instance of the `history` package (v5): `createMemoryHistory()` (no window at
// all: Node, tests, widgets) or a `createBrowserHistory()` an app already shares. The package is
// never imported here: the router talks only to the instance it is given, through its interface.

import type { Entry, Nav } from './adapters.js';
import { PATH_API } from './steps.js';
import type { RouterHistory } from './types.js';

/**
 * The key a browser history gives every entry it did not write itself: the page's first one, and
 * one another script pushed with `pushState`. It names no one entry, so it is never looked up.
 */
const UNKEYED = 'default';

/**
 * Entries remembered. Without a bound, every state a navigation was given stayed alive here after
 * the instance had dropped its entry. One forgotten is only a position guessed again on a browser
 * history (which keeps 50 entries a tab); a memory history says each one's position itself.
 */
const MAX_ENTRIES = 1000;

/**
 * The instance as the navigation core's `Nav`. The instance keys its entries and keeps each one's
 * `state` as the app gave it; the router's own bookkeeping (its entry key and position) stays here,
 * by the instance's key, so that other users of the instance see their state untouched.
 */
export function historyNav(h: RouterHistory): Nav {
  const entries = new Map<string, Entry>();
  let at = 0; // the position of the last entry seen
  // Calls of the router's listener during its own write (negative: not writing): one is its own
  // entry, more say that another listener wrote an entry of its own meanwhile.
  let heard = -1;
  let news: (() => void) | undefined; // routes the entry shown, once the router's write is over
  const keep = (key: string, e: Entry) => {
    // The first one remembered goes first: a browser has dropped it long before (it keeps 50).
    if (entries.set(key, e).size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    at = e.idx;
    return e;
  };
  return {
    api: PATH_API,
    href: () => h.location.pathname + h.location.search + h.location.hash,
    entry() {
      const { key, state } = h.location;
      // An entry another script pushed is a new one to the router, as on a window.
      if (key === UNKEYED) return null;
      // An entry pushed by someone else (or there before the router): after the last one seen, or
      // in its place when it replaced it; a memory history knows its position.
      return keep(key, entries.get(key) ?? { key, idx: h.index ?? at + +(h.action !== 'REPLACE'), state });
    },
    write(url, entry, replace) {
      const before = h.location;
      heard = 0;
      try {
        h[replace ? 'replace' : 'push'](url, entry.state);
      } finally {
        heard = -1 - heard;
      }
      // A blocker of the instance's (`history.block`: "unsaved changes?") kept it where it was. It
      // may let the write through later (its `retry`): the instance's listeners then hear of it.
      if (h.location === before) return false;
      // An app's listener that wrote in its turn (moving one URL to another) left the instance on its
      // entry: that one is news to route once this write is over, and no entry of the router's.
      if (heard < -2) queueMicrotask(() => news?.());
      else keep(h.location.key, entry);
    },
    go: (delta) => h.go(delta),
    listen(f, signal) {
      news = () => signal.aborted || f({});
      // The instance calls its listeners for the router's own push and replace too: those are not news.
      signal.addEventListener(
        'abort',
        h.listen(() => (heard < 0 ? f({}) : void heard++)),
      );
    },
  };
}
