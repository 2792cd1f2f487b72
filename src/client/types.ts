// The public types of `crawlable-router/client`: the router's options, the router, and what its
// guards and subscribers receive. No code here.

import type { Head } from '../contract/head.js';
import type { AppLocation, UrlMode } from '../url/location.js';
import type { AnyRoute, RenderContext, RouteMatch, RouteTable } from '../routes/types.js';
import type { RouterElement, RouterWindow } from './dom.js';

export type { RouterWindow };

/** Which URL form the router uses: `'auto'` picks `'history'` where pushState works, else `'hashbang'`. */
export type RouterMode = 'auto' | UrlMode;

/** The parts of a `history` package (v5) instance the router uses: `createMemoryHistory()`, `createBrowserHistory()`. */
export interface RouterHistory {
  /** The entry shown now: its URL parts, its key and the state it was pushed with. */
  readonly location: { pathname: string; search: string; hash: string; state: unknown; key: string };
  /** How the instance reached that entry: `'PUSH'`, `'REPLACE'` or `'POP'`. */
  readonly action: string;
  /** The entry's position (a memory history's); absent on a browser history. Its presence says an instance is a memory history, which gets no window by default. */
  readonly index?: number;
  /** Adds an entry. */
  push(to: string, state?: unknown): void;
  /** Replaces the entry shown. */
  replace(to: string, state?: unknown): void;
  /** Moves `delta` entries. */
  go(delta: number): void;
  /** Calls `listener` after every change of entry; returns its undo. */
  listen(listener: (update: { action: string }) => void): () => void;
}

/** What the error view's `render` and `title` receive: the render context plus what `load` threw. */
export interface ErrorContext extends RenderContext {
  /** What the route's `load` threw. */
  error: unknown;
}

/** The view shown in the outlet when a route's `load` throws. */
export interface ErrorView {
  /** The document title; default none: the title is left alone. */
  title?: string | ((context: ErrorContext) => string) | undefined;
  /** The outlet's HTML; default none: the outlet is left alone. */
  render?: { render(context: ErrorContext): string }['render'] | undefined;
  /** The error state's head tags, over the table's defaults; default none. */
  head?: { head(context: ErrorContext): Head }['head'] | undefined;
}

/** Options of `createRouter`. */
export interface RouterOptions {
  /** The route table, from `createRoutes` (shared with the server). Required. */
  routes: RouteTable<AnyRoute>;
  /** `'auto'`, `'history'` (clean URLs, pushState) or `'hashbang'` (`#!` URLs). Default `'auto'`. */
  mode?: RouterMode | undefined;
  /** The app's base path. Default the route table's `base`. */
  base?: string | undefined;
  /** Where a route's `render` HTML goes: an element or a selector read at `start()`. Default none. */
  outlet?: RouterElement | string | null | undefined;
  /** Route clicks on same-origin `<a>` links inside `base`. Default `true`. */
  links?: boolean | undefined;
  /** Scroll to the top on a new entry, back to the saved position on back/forward, to the anchor. Default `true`. */
  scroll?: boolean | undefined;
  /** Shown when a `load` throws anything but `notFound()` or `redirect()`. Default none: the outlet is left alone and `current.error` is set. */
  error?: ErrorView | undefined;
  /**
   * The window: its address bar and history, and (with `history`) the document for links, scroll,
   * title, an outlet selector and the settled event. Default the global `window` (read when
   * `createRouter` is called, not at import); with a memory `history` (one with an `index`), none unless given. Typed by shape:
   * any DOM `Window` (an iframe's `contentWindow` too), happy-dom's and jsdom's fit without a cast.
   */
  window?: RouterWindow | undefined;
  /**
   * A `history` package (v5) instance to read, write and listen through instead of the window's
   * address bar. With `createMemoryHistory()` no window is needed. Default none.
   */
  history?: RouterHistory | undefined;
  /**
   * Called with what a navigation nobody awaits threw: one started by back/forward, a typed URL or
   * a link click, whose guard or subscriber threw or whose redirects looped. Default the window's
   * `reportError` (`window.onerror`, the console), else `console.error`: never an unhandled rejection.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/** Options of `navigate`. */
export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. Default `false`. */
  replace?: boolean | undefined;
  /** A structured-cloneable value kept with the entry, back as `current.state` on back/forward. Default `undefined`. */
  state?: unknown;
}

/** Where a navigation is going: the resolved match and the state object it carries. */
export interface Target extends RouteMatch {
  /** The entry's state object (`navigate`'s `state`, or the one kept with a history entry). */
  state: unknown;
}

/** The state the router shows. */
export interface Current extends Target {
  /** What the route's `load` returned; `undefined` with no `load` or after an error. */
  data: unknown;
  /** What `load` threw, when it threw; absent otherwise. */
  error?: unknown;
}

/** What a guard returns: `false` cancels, a location redirects, anything else lets the navigation go on. */
export type GuardResult = boolean | AppLocation | void;

/** Runs before every navigation's URL changes (for back/forward: before it is committed). */
export type Guard = (to: Target, from: Current | null) => GuardResult | Promise<GuardResult>;

/** Called after every committed navigation, with the new current state. */
export type Listener = (current: Current) => void;

/** A router created by `createRouter`. */
export interface Router {
  /** The URL form in use, `'history'` or `'hashbang'` (what `'auto'` chose). */
  readonly mode: UrlMode;
  /** The state shown now; null before the first navigation commits. */
  readonly current: Current | null;
  /** Adds the listeners, moves the address bar to this mode's form and runs the first navigation; true when it commits. */
  start(): Promise<boolean>;
  /** Navigates to a location (relative to `base`): true when committed, false when cancelled or superseded. */
  navigate(to: AppLocation, options?: NavigateOptions): Promise<boolean>;
  /** `history.back()`: the pop runs through the same guards and loaders. */
  back(): void;
  /** `history.forward()`. */
  forward(): void;
  /** `history.go(delta)`. */
  go(delta: number): void;
  /** The URL of a location in this router's mode, for an `<a href>`. */
  href(to: AppLocation): string;
  /** Adds a guard; returns its undo. */
  beforeEach(guard: Guard): () => void;
  /** Adds a listener called after each commit; returns its undo. */
  subscribe(listener: Listener): () => void;
  /** Resolves once no navigation, guard or loader is in flight. */
  settled(): Promise<void>;
  /** Removes every listener `start()` added, aborts what is in flight, and forgets guards and subscribers; final: nothing navigates after. */
  destroy(): void;
}
