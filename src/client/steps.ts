// The named values of the router's steps: how a navigation reaches its history entry (the kind the
// pipeline, the address bar and scrolling each act on) and what the history it writes to can take.
// They are numbers for size; compare them by name, never by their truthiness.

/** How a navigation reached its entry: a new entry, a replaced one, or a traversal (or the first load). */
export type Kind = typeof PUSH | typeof REPLACE | typeof POP;
/** A new entry. */
export const PUSH = 0;
/** The current entry, replaced. */
export const REPLACE = 1;
/** An entry the browser is already on: back/forward, a typed or followed URL, the first load. */
export const POP = 2;

/** What URLs a history can be given (`Nav.api`), each level all of the one below. */
export type Api = typeof NO_API | typeof FRAGMENT_API | typeof PATH_API;
/** No History API: a `#!` URL is assigned to `location`, which changes only the fragment. */
export const NO_API = 0;
/** pushState, but only to a new fragment of this page (file://, a sandboxed or opaque-origin frame). */
export const FRAGMENT_API = 1;
/** pushState to any path under `base`: the window's history where the page allows it, every `history` instance. */
export const PATH_API = 2;
