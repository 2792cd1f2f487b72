// The parts of a DOM the router touches, as structural types: exactly what src/client/*.ts reads,
// writes and calls, with the loosest signatures its code still type-checks against. So a browser's
// `Window`, an iframe's `contentWindow`, happy-dom's `Window` and `GlobalWindow` and jsdom's
// `window` all fit as they are, each with its own classes. No code here.

/** An `AbortSignal` of any realm: the router's listeners are removed when it aborts. */
export interface RouterSignal {
  /** Whether it has aborted. */
  readonly aborted: boolean;
  /** Calls `listener` once the signal aborts. */
  addEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The options the router passes to `addEventListener`: the window's own signal (jsdom refuses
 * another realm's). `boolean` is there because every DOM's method takes it too: each names its own
 * `AbortSignal` class, so only a type wider than all of theirs relates to each of them.
 */
export type RouterListenOptions = boolean | { signal?: RouterSignal };

/** An event as the router's listeners and `dispatchEvent` see it (a click is read as a `RouterClick`). */
export interface RouterEvent {
  /** `'popstate'`, `'hashchange'`, `'click'`, or the settled event's name. */
  readonly type: string;
}

/**
 * A node handed back to the DOM that made it (its own `createElement`, or a tag found in its head):
 * typed loosely, as each DOM's methods name their own `Node` class.
 */
export interface RouterNodeRef {
  /** The node it is in, if any. */
  readonly parentNode: unknown;
}

/** A node the router moves: a head tag put back where it was. */
export interface RouterNode extends RouterNodeRef {
  /** The node it is in, if any. */
  readonly parentNode: RouterNode | null;
  /** The node after it, if any. */
  readonly nextSibling: RouterNode | null;
  /** Inserts `node` before `child` (at the end when null). */
  insertBefore(node: RouterNodeRef, child: RouterNodeRef | null): unknown;
}

/** An element as the router touches it: the outlet, a link, a head tag, an anchor's target, `<html>`. */
export interface RouterElement extends RouterNode {
  /** The lower-case tag name (`a`, `meta`, `link`, `script`). */
  readonly localName: string;
  /** The outlet's content, written with a route's `render` HTML. */
  innerHTML: string;
  /** A JSON-LD script's text, or the hydration script's. */
  textContent: string | null;
  /** An attribute's value, or null. */
  getAttribute(name: string): string | null;
  /** Sets an attribute. */
  setAttribute(name: string, value: string): void;
  /** Removes an attribute. */
  removeAttribute(name: string): void;
  /** Whether the element matches a selector (a link the router leaves alone). */
  matches(selectors: string): boolean;
  /** Scrolls the element into view (an anchor's target); jsdom has none. */
  scrollIntoView?(): void;
  /** Takes the element out of its parent (a head tag of the previous state). */
  remove(): void;
  /** The descendants matching a selector (the head's tags). */
  querySelectorAll(selectors: string): Iterable<RouterElement>;
  /** Appends a child (a head tag of the state shown) and gives it back (typed loosely: each DOM names its own `Node`). */
  appendChild(node: RouterNodeRef): unknown;
}

/** A click as the link handler reads it: a `MouseEvent` of any DOM. */
export interface RouterClick extends RouterEvent {
  /** Whether something else already handled it. */
  readonly defaultPrevented: boolean;
  /** The mouse button: 0 for the main one. */
  readonly button: number;
  /** Modifier keys: a click with one is the browser's (a new tab, a download). */
  readonly metaKey: boolean;
  /** Modifier keys: a click with one is the browser's (a new tab, a download). */
  readonly ctrlKey: boolean;
  /** Modifier keys: a click with one is the browser's (a new tab, a download). */
  readonly shiftKey: boolean;
  /** Modifier keys: a click with one is the browser's (a new tab, a download). */
  readonly altKey: boolean;
  /** The targets the click went through, into open shadow roots. */
  composedPath(): readonly object[];
  /** Keeps the browser from following the link. */
  preventDefault(): void;
}

/** A `navigate` event of the Navigation API as the router reads it: a `NavigateEvent` of any browser that has one. */
export interface RouterNavigateEvent extends RouterEvent {
  /** Whether something else already cancelled it. */
  readonly defaultPrevented: boolean;
  /** Whether the page may turn it into a same-document navigation: same origin, not a cross-document traversal. */
  readonly canIntercept: boolean;
  /** `'push'`, `'replace'`, `'reload'` or `'traverse'`. */
  readonly navigationType: string;
  /** Where it goes, and whether it stays in this document (pushState, a fragment, a traversal between such entries). */
  readonly destination: { readonly url: string; readonly sameDocument: boolean };
  /** A POST form's fields; null for any other navigation, a GET form's included (its fields are in the URL). */
  readonly formData: unknown;
  /** A download's file name (`<a download>`, an Alt-click); null for any other navigation. */
  readonly downloadRequest: string | null;
  /** The `<a>`, `<area>`, form or submit button that started it; null for a script's. */
  readonly sourceElement: (RouterElement & { readonly form?: RouterElement | null; readonly formMethod?: string }) | null;
  /** Cancels it: the router makes it again through its own pipeline. */
  preventDefault(): void;
}

/**
 * The document as the router touches it: links, scroll, title, head, outlet, hydration, the settled
 * attributes. Each member is read from its prototype (src/client/router.ts): a page's named elements shadow its own.
 */
export interface RouterDocument {
  /** `<html>`, which carries the settled attributes. */
  readonly documentElement: RouterElement;
  /** `<head>`, where the state's head tags go. */
  readonly head: RouterElement | null;
  /** The base URL that link hrefs resolve against. */
  readonly baseURI: string;
  /** The document title, written with a route's `title`. */
  title: string;
  /** The outlet, when given as a selector. */
  querySelector(selectors: string): RouterElement | null;
  /** An anchor's target, or the hydration script. */
  getElementById(id: string): RouterElement | null;
  /** An anchor's target by `name`. */
  getElementsByName(name: string): ArrayLike<RouterElement>;
  /** A new head tag. */
  createElement(tagName: string): RouterElement;
  /** The link handler. */
  addEventListener(type: 'click', listener: (event: RouterEvent) => void, options?: RouterListenOptions): void;
}

/** A URL as parsed by the window's own `URL`: a link's target. */
export interface RouterUrl {
  /** The whole URL. */
  readonly href: string;
  /** Its origin (`'null'` for schemes without one). */
  readonly origin: string;
  /** Its scheme with the colon. */
  readonly protocol: string;
}

/**
 * The parts of a browser window the router uses, by shape: the global `window`, an iframe's
 * `contentWindow`, or a test DOM's window (happy-dom's `Window`, jsdom's `window`) as it is.
 */
export interface RouterWindow {
  /** The address bar: read, and written without the History API. */
  readonly location: RouterUrl & {
    /** Loads a URL as a new entry (only a new `#!` fragment, by the router). */
    assign(url: string): void;
    /** Loads a URL in place of the entry (only a new `#!` fragment, by the router). */
    replace(url: string): void;
  };
  /** The History API, where the router keeps its entries. */
  readonly history: {
    /** The entry's state object. */
    readonly state: unknown;
    /** `'auto'` or `'manual'`: the router takes scrolling over while started. */
    scrollRestoration: string;
    /** Adds an entry (absent in old browsers: the router then uses `#!` and `location`). */
    pushState(data: unknown, unused: string, url: string): void;
    /** Replaces the entry. */
    replaceState(data: unknown, unused: string, url: string): void;
    /** Moves `delta` entries. */
    go(delta: number): void;
  };
  /** The document the router keeps in step with the state. */
  readonly document: RouterDocument;
  /** The horizontal scroll position, saved per entry. */
  readonly scrollX: number;
  /** The vertical scroll position, saved per entry. */
  readonly scrollY: number;
  /** Scrolls to a saved position, or the top. */
  scrollTo(x: number, y: number): void;
  /** Listens to `popstate` and `hashchange`. */
  addEventListener(type: 'popstate' | 'hashchange', listener: (event: RouterEvent) => void, options?: RouterListenOptions): void;
  /** Dispatches the settled event. */
  dispatchEvent(event: RouterEvent): unknown;
  /** The window's own `CustomEvent`, for the settled event (every window has it; the DOM's `Window` type lacks it). */
  CustomEvent?: new (type: string, init: { detail: object }) => RouterEvent;
  /** The window's own `URL`, to resolve link hrefs (every window has it; the DOM's `Window` type lacks it). */
  URL?: new (url: string, base: string) => RouterUrl;
  /** Reports an error as an uncaught one (`window.onerror`, the console): what a navigation nobody awaits threw. */
  reportError?(error: unknown): void;
  /** The Navigation API (absent in older browsers, happy-dom and jsdom): the router listens to its `navigate` event. */
  readonly navigation?: {
    /** Listens to `navigate`. */
    addEventListener(type: 'navigate', listener: (event: RouterNavigateEvent) => void, options?: RouterListenOptions): void;
  };
  /** The window's own `AbortController`, whose signal removes the router's listeners (jsdom refuses another realm's). Default the global one. */
  AbortController?: new () => { readonly signal: RouterSignal; abort(): void };
}

/** A window as it is at run time: any window has its own `CustomEvent` and `URL`, typed or not. */
export type LiveWindow = RouterWindow & Required<Pick<RouterWindow, 'CustomEvent' | 'URL'>>;
