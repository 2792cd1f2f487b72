// Which clicks on `<a>`, and (where the browser has the Navigation API) which other navigations,
// the router takes over. What it leaves alone is the browser's: a new tab, a download, another
// origin, an opted-out link or form. Clean and `#!` hrefs both name a location, in either mode; a
// plain `#anchor` only scrolls.

import type { AppLocation } from '../url/location.js';
import { percentDecode } from '../url/percent.js';
import type { Reading } from './adapters.js';
import { scrollToAnchor } from './scroll.js';
import { unshadowed } from './document.js';
import type { LiveWindow, RouterClick, RouterDocument, RouterElement, RouterEvent, RouterNavigateEvent, RouterUrl } from './dom.js';

/** The attribute that opts a link out of routing: `<a href="/app/x" data-router-ignore>`. */
export const IGNORE = 'data-router-ignore';

// A download, an opted-out link, or `rel="external"` among its link types (ASCII case-insensitive).
const LEFT_ALONE = `[download],[${IGNORE}],[rel~="external" i]`;

/**
 * Whether `el` (a link, an area, a form) is the browser's: it names a target other than `_self` (or,
 * naming none, the document's `<base target>` does), or is left alone by its attributes.
 */
const leftAlone = (el: RouterElement, base?: string | null) =>
  !/^(_self)?$/i.test(el.getAttribute('target') ?? base ?? '') || el.matches(LEFT_ALONE);

/**
 * Whether a click on `el` inside a link is the element's own: the browser acts on the nearest element
 * of a click's path that has an activation behaviour (HTML's activation target), not on the link
 * around it. Measured in Chromium: a form's submit, image or reset button (the form is sent or
 * reset), a checkbox, radio, file or color input, a label of a control, a details' summary. A button
 * of no form, a text input or a label of nothing lets the link be followed. Read by first letters,
 * for size (also a form's search and any range input, both rare in a link: the browser's then).
 */
const ownClick = (el: RouterElement & { control?: unknown; form?: unknown; type?: unknown }) =>
  el.control || /^(fbutton[rs]|finput[irs]|f?input[cfr]|summary)/.test((el.form ? 'f' : '') + el.localName + el.type);

/** Where the router routes a navigation: the location and whether it replaces the entry. */
export type Go = (loc: AppLocation, replace?: boolean) => void;

/**
 * A document click listener that routes same-origin links that `read` names a state of (the
 * router's adapter: inside `base`, or on the pinned page). `go` receives the location; a plain
 * `#anchor` scrolls to its element and changes neither the URL nor the state. `doc` is the window's document.
 */
export function linkHandler(win: LiveWindow, doc: RouterDocument, read: (href: string) => Reading | null, go: Go) {
  // The DOM gives a click listener a MouseEvent (happy-dom's types say only Event).
  return ((event: RouterClick): void => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // composedPath() reaches into open shadow roots, where event.target is retargeted to the host.
    // The link clicked, unless a control inside it takes the click for itself (a form's submit button).
    const a = event.composedPath().find((n) => (n as RouterElement).localName === 'a' || ownClick(n as RouterElement)) as
      | RouterElement
      | undefined;
    // An SVG `<a>` may carry SVG 1.1's `xlink:href` instead of `href` (the parser's prefix for it).
    const text = a?.localName === 'a' ? (a.getAttribute('href') ?? a.getAttribute('xlink:href')) : null;
    // No link, a placeholder link, or one left to the browser (`<base target="_blank">` opens every
    // link without a target of its own in a new tab; the browser opens an area or a form there itself).
    if (text == null || leftAlone(a as RouterElement, doc.querySelector('base[target]')?.getAttribute('target'))) return;
    // As the URL parser reads it: no C0 control or space around it, no tab or newline in it (` #x` is `#x`).
    // Each run is matched once, whole: linear, where `[…]+$` would retry at every character of a run (quadratic).
    const href = text.replace(/[\0- ]+/g, (run, at: number) => (at && at + run.length < text.length ? run.replace(/[\t\n\r]/g, '') : ''));
    if (/^#(?!!)/.test(href)) {
      // In a `#!` app the browser would overwrite the state in the fragment: scroll ourselves.
      event.preventDefault();
      scrollToAnchor(doc, percentDecode(href, 1));
      return;
    }
    let url: RouterUrl;
    try {
      // A fragment is of this very document: a srcdoc frame's base URL is its parent's.
      url = new win.URL(href, href[0] === '#' ? win.location.href : doc.baseURI);
    } catch {
      return;
    }
    // Another origin, or a scheme with no origin of ours (`javascript:`, `mailto:`, `blob:`, `data:`).
    if (url.origin !== win.location.origin || url.protocol !== win.location.protocol) return;
    // Outside base, or a malformed ugly URL: the browser (and the server) answer it.
    const reading = read(url.href);
    if (!reading) return;
    event.preventDefault();
    go(reading.loc);
  }) as (event: RouterEvent) => void;
}

/**
 * A Navigation API `navigate` listener that routes what the link handler never sees: an `<area>`
 * clicked, a GET form submitted, another script's `location` write or `navigation.navigate()`. It
 * takes only a navigation that would load another document of this origin (`sameDocument` is
 * false: never a pushState, the router's own included, nor a fragment or a traversal between this
 * document's entries, which `popstate` and `hashchange` route), that the page may make its own
 * (`canIntercept`), no reload, POST form or download, from no element left alone, to a URL `read`
 * names a state of. It cancels it and hands the location to `go`, whose pipeline runs the guards
 * and `load` before it writes the URL: the address bar never shows a state a guard refuses.
 * https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-navigateevent-interface
 */
export function navigateHandler(read: (href: string) => Reading | null, go: Go) {
  return (event: RouterNavigateEvent): void => {
    const {
      destination: { url, sameDocument },
      navigationType: type,
      sourceElement: el,
    } = event;
    // The form submitted, whose attributes count: the source itself (requestSubmit(), Enter), or a
    // submit button's. Its members are read from its prototype: its fields shadow its own
    // (`<input name="form">`, `name="formMethod"`, `name="getAttribute"`).
    const src = el && unshadowed(el);
    const form = src?.localName === 'form' ? src : src?.form && unshadowed(src.form);
    const owner = form ?? src;
    const reading =
      !event.defaultPrevented &&
      event.canIntercept &&
      !sameDocument &&
      type !== 'reload' &&
      // A POST form's fields. A submit button's `formmethod` overrides its form's method, which
      // Chromium's `formData` follows instead: a GET form's `formmethod="post"` button has none there.
      !(src?.formMethod ? src.formMethod === 'post' : event.formData) &&
      event.downloadRequest == null &&
      !(owner && leftAlone(owner)) &&
      // A GET form writes its fields as HTML forms encode them, a space as `+`; a location's `+` is a plus.
      read(form ? url.replace(/\?[^#]*/, (query) => query.replace(/\+/g, '%20')) : url);
    if (reading) {
      event.preventDefault();
      go(reading.loc, type === 'replace');
    }
  };
}
