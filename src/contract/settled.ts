// The settled contract between the client router and whatever waits for a page to be done
// (headless snapshots, `verify --browser`): the router marks the document `busy` while a
// navigation, guard or loader is in flight and `settled` when none is, publishes the state's outcome
// beside it, and dispatches an event each time it becomes idle. One home for its names.

/** The event the router dispatches on `window` each time it becomes idle; `detail`: `{ location, status, redirect, error }` (`error`: what the state's `load` threw, when it failed). */
export const SETTLED_EVENT = 'crawlable-router:settled';

/** The root element's attribute: `busy` or `settled` (absent before `start()` and after `destroy()`). */
export const STATE_ATTRIBUTE = 'data-router-state';

/** The root element's attribute with the state's status as a server would answer it: 200, 400, 404, 500 or a redirect's. */
export const STATUS_ATTRIBUTE = 'data-router-status';

/** The root element's attribute with the location a redirect led to, when one did. */
export const REDIRECT_ATTRIBUTE = 'data-router-redirect';
