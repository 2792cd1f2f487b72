// One headless page's life after navigation: wait until the app is done, then turn its document
// into a snapshot. The wait follows the settled contract with the client router:
// after the page loads, `data-router-state="busy"` means wait for the `crawlable-router:settled`
// event; "settled" means done; no attribute means the page's own idle (happy-dom's
// waitUntilComplete: scripts, fetches and timers all finished).

import { headKey, isCanonicalLink, isFragmentMeta } from '../../contract/head.js';
import { HEAD_ATTRIBUTE } from '../../contract/hydration.js';
import { REDIRECT_ATTRIBUTE, SETTLED_EVENT, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../contract/settled.js';
import type { BrowserPage, BrowserWindow } from 'happy-dom';
import { SHELL_TITLE_ATTRIBUTE } from '../../contract/hydration.js';
import { escapeHtml } from '../html/escape.js';
import { titleText } from '../html/shell-scan.js';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { absoluteHeadUrl, isUrlMeta, LINK_SELECTOR, namesPage, prettyHref, walkElements } from '../html/links.js';
import { attr } from '../html/selector.js';
import { serializeNode, type DomNode } from './serialize.js';
import type { RenderJob, RenderResult } from '../render/render.js';
import { matchNoindex, robotsWithNoindex, ROBOTS_KEY } from '../noindex.js';
import { PAGE_STATUSES } from './protocol.js';

/**
 * happy-dom's key for a customized built-in's `is` value (its `PropertySymbol.isValue`), given by the
 * page process once it has loaded happy-dom (child.ts). Not imported here: a static import of
 * happy-dom failed child.js as it loaded, where happy-dom is not installed, before child.ts could
 * say so, and Node printed no more of the error than `{ code: 'ERR_MODULE_NOT_FOUND' }`.
 */
let isValue: symbol | undefined;

/** Gives `serializePage` happy-dom's `is` key; the page process calls it once happy-dom is loaded. */
export function useIsValueKey(key: symbol): void {
  isValue = key;
}

/** What a window told us while it loaded. */
export interface PageSignals {
  loaded: boolean;
  settled: boolean;
  /** Resolves on the window's `load` event. */
  load: Promise<void>;
  /** Resolves on the first `crawlable-router:settled` event. */
  settle: Promise<void>;
  /** The first error the page's scripts threw and did not catch, if any. */
  error: unknown;
  /** What the state's `load` threw, as the router's last settled signal gave it (a failed state's cause). */
  failure: unknown;
}

/** Listens to a window before its content loads (happy-dom's beforeContentCallback). */
export function watchWindow(window: BrowserWindow): PageSignals {
  let onLoad!: () => void;
  let onSettle!: () => void;
  const signals: PageSignals = {
    loaded: false,
    settled: false,
    load: new Promise<void>((resolve) => (onLoad = resolve)),
    settle: new Promise<void>((resolve) => (onSettle = resolve)),
    error: undefined,
    failure: undefined,
  };
  // happy-dom dispatches an ErrorEvent at the window for each uncaught script error; an element's
  // own error event (an image that fails to load) does not bubble here.
  window.addEventListener('error', (event) => {
    if (event.target !== window || signals.error !== undefined) return;
    const thrown = (event as unknown as { error?: unknown; message?: string }).error;
    signals.error = thrown ?? new Error((event as unknown as { message?: string }).message ?? 'an error event');
  });
  // A script of the page's own origin that fails to load or run (a 404, a module whose import fails)
  // fires `error` at its element alone, heard here in the capture phase: without it the page is its
  // shell. Another origin's script never loads in the renderer, so its failure is not the app's.
  window.addEventListener(
    'error',
    (event) => {
      const script = event.target as { tagName?: string; src?: string } | null;
      if (signals.error !== undefined || script?.tagName !== 'SCRIPT') return;
      if (script.src && !script.src.startsWith(window.location.origin + '/')) return;
      signals.error = new Error(`its script ${script.src || '(inline)'} did not load or run`);
    },
    true,
  );
  window.addEventListener('load', () => {
    signals.loaded = true;
    onLoad();
  });
  window.addEventListener(SETTLED_EVENT, (event) => {
    signals.settled = true;
    onSettle();
    // The page's object: a detail whose getter throws says no cause, and never keeps the page unsettled.
    try {
      signals.failure = (event as unknown as { detail?: { error?: unknown } }).detail?.error;
    } catch {
      signals.failure = undefined;
    }
  });
  return signals;
}

function routerState(window: BrowserWindow): string | null {
  return window.document.documentElement?.getAttribute(STATE_ATTRIBUTE) ?? null;
}

/**
 * Waits until the page's app is done, by the router's signal or the page's own idle, then lets the
 * page run the task it queued by then: a view drawn in the next task (React's first render, from
 * its scheduler, after a router with no `load` said settled at once) is in the snapshot.
 */
export async function waitUntilSettled(page: BrowserPage, signals: PageSignals): Promise<void> {
  await settledSignal(page, signals);
  const window = page.mainFrame.window;
  await new Promise((resolve) => window.setTimeout(resolve, 0));
}

async function settledSignal(page: BrowserPage, signals: PageSignals): Promise<void> {
  const window = page.mainFrame.window;
  if (!signals.loaded && window.document.readyState !== 'complete') await Promise.race([signals.load, signals.settle]);
  if (signals.settled) return;
  const state = routerState(window);
  if (state === 'settled') return;
  if (state === 'busy') return signals.settle;
  await Promise.race([page.waitUntilComplete(), signals.settle]);
  // A router that started after load and is still busy once the page is idle is waited for.
  if (!signals.settled && routerState(window) === 'busy') await signals.settle;
}

/**
 * The state's outcome as the client router published it with its settled signal
 * (`data-router-status`, and `data-router-redirect` for a redirect's target location); a page
 * with no such status is 404 for a job that matches no route, else 200.
 */
export function pageOutcome(window: BrowserWindow, job: RenderJob): Omit<RenderResult, 'html'> {
  const root = window.document.documentElement;
  const status = Number(root?.getAttribute(STATUS_ATTRIBUTE));
  if (!PAGE_STATUSES.has(status)) return { status: job.notFound ? 404 : 200 };
  const target = root?.getAttribute(REDIRECT_ATTRIBUTE);
  if (status >= 300 && status < 400) return target ? { status, redirect: target } : { status: 500 };
  return { status };
}

/**
 * What a page's error says (`name: message`, else its text), for the server's log; '' when it says
 * nothing. The error is the page's object: reading it runs the page's code, in the page's process.
 */
export function failureText(thrown: unknown): string {
  if (thrown === undefined) return '';
  try {
    const { name, message } = thrown as { name?: unknown; message?: unknown };
    return typeof message === 'string' ? (typeof name === 'string' ? `${name}: ${message}` : message) : String(thrown);
  } catch {
    return '(an error that does not print)';
  }
}

/** What a page's own HTML, as served, says of the shell: its canonical links' hrefs and its title. */
interface Served {
  hrefs: Set<string>;
  title: string;
}

// Every page of an app is served the same shell: it is read once, not per snapshot.
let lastServed: [source: string, served: Served] = ['', { hrefs: new Set(), title: '' }];

/** The shell's canonical links and title, from a page's own HTML as served: not any state's. */
function servedShell(source: string): Served {
  if (source === lastServed[0]) return lastServed[1];
  const served: Served = { hrefs: new Set(), title: '' };
  let title: DefaultTreeAdapterMap['element'] | undefined;
  walkElements(parse(source), (element) => {
    const read = (name: string) => attr(element, name);
    if (isCanonicalLink(element.tagName, read)) served.hrefs.add(read('href') ?? '');
    else if (element.tagName === 'title') title ??= element;
  });
  served.title = titleText(title);
  lastServed = [source, served];
  return served;
}

/**
 * Puts `noindex` in the robots meta of a noindex route's state or a lost one: merged into the
 * state's own (the tags the app's router marked as the state at `location`'s), as the hooks
 * renderer does for a noindex route, else one tag of the state's in place of the shell's.
 */
function noindexMeta(document: BrowserWindow['document'], location: string): void {
  const robots = [...document.querySelectorAll('meta[name]')].filter(
    (element) => headKey('meta', (name) => element.getAttribute(name)) === ROBOTS_KEY,
  );
  const own = robots.filter((element) => element.getAttribute(HEAD_ATTRIBUTE) !== null);
  for (const element of own) element.setAttribute('content', robotsWithNoindex(element.getAttribute('content') ?? ''));
  if (own.length) return;
  for (const element of robots) element.remove();
  const meta = document.createElement('meta');
  meta.setAttribute('name', 'robots');
  meta.setAttribute('content', 'noindex');
  meta.setAttribute(HEAD_ATTRIBUTE, location);
  document.head.appendChild(meta);
}

/**
 * Serialises the page as a snapshot: the doctype, then the document with the meta fragment tag
 * removed, ugly links made pretty, and the settled attributes taken off `<html>`. A canonical link
 * the page's scripts wrote (a route's `head`, as the hooks renderer keeps it) stays; those of the
 * HTML it was served (`source`) are the shell's and go, and a 200 state without one of its own
 * gets the state's canonical link. A state that is not 200 (`job.notFound`) keeps none, as in the
 * hooks renderer and the client router. A noindex route's state, and one not 200, says `noindex` in
 * its robots meta.
 */
export function serializePage(window: BrowserWindow, job: RenderJob & { noindex?: boolean }, source: string): string {
  const document = window.document;
  // The settled attributes are the router's word to this renderer (pageOutcome has read them): the
  // snapshot says its status over HTTP, as the hooks renderer's do. Left in, a page opened from it
  // (cleanUrls 'all', a prerendered file) would say `settled` before its own router had started,
  // to whatever waits on that signal (verify --browser, a headless render of that page).
  for (const name of [STATE_ATTRIBUTE, STATUS_ATTRIBUTE, REDIRECT_ATTRIBUTE]) document.documentElement?.removeAttribute(name);
  const served = servedShell(source);
  let own = false;
  for (const element of [...document.querySelectorAll('meta[name], link[rel]')]) {
    const read = (name: string) => element.getAttribute(name);
    if (isFragmentMeta(element.localName, read)) element.remove();
    else if (!isCanonicalLink(element.localName, read)) continue;
    else if (job.notFound || served.hrefs.has(read('href') ?? '')) element.remove();
    else own = true;
  }
  if (!job.notFound && !own && document.head) {
    const link = document.createElement('link');
    link.setAttribute('rel', 'canonical');
    link.setAttribute('href', job.canonical);
    // The state's, as the tags the app's router wrote are marked: the client router knows it for that state's.
    link.setAttribute(HEAD_ATTRIBUTE, job.location);
    document.head.appendChild(link);
  }
  // A state not found or failed says `noindex` too, as the hooks renderer and the full client write
  // it (contract/head.ts): an app that writes no head tags (the lite client) gets it here.
  if ((job.noindex || job.notFound || matchNoindex(job.match)) && document.head) noindexMeta(document, job.location);
  // A title the page's scripts gave the state: the client is told the shell's, for routes without one.
  const title = document.querySelector('title');
  if (source && title && document.title !== served.title) title.setAttribute(SHELL_TITLE_ATTRIBUTE, served.title);
  const context = { ...job.settings, page: job.url };
  for (const element of [...document.querySelectorAll(LINK_SELECTOR)]) {
    const href = element.getAttribute('href') ?? '';
    let url = prettyHref(href, context) ?? href;
    // A canonical or alternate link names a page for crawlers: written absolute, as the hooks renderer writes it.
    if (element.localName === 'link' && namesPage(element.getAttribute('rel'))) url = absoluteHeadUrl(url, context);
    if (url !== href) element.setAttribute('href', url);
  }
  // Open Graph's URLs are ones crawlers read too: a hook's `#!` one is told clean, as links are, and
  // absolute. Found by their key, as the hooks renderer's are (names in any case).
  for (const element of [...document.querySelectorAll('meta')]) {
    if (!isUrlMeta(headKey('meta', (name) => element.getAttribute(name)))) continue;
    const content = element.getAttribute('content') ?? '';
    const url = absoluteHeadUrl(prettyHref(content, context) ?? content, context);
    if (url !== content) element.setAttribute('content', url);
  }
  const doctype = document.doctype ? `<!DOCTYPE ${escapeHtml(document.doctype.name)}>\n` : '';
  // Not happy-dom's outerHTML: text the page holds safely (a script's `</script>`) must not become markup (serialize.ts).
  const root = document.documentElement as unknown as DomNode | null;
  return (
    doctype +
    (root ? serializeNode(root, (element) => (isValue ? (element as unknown as Record<symbol, string | null>)[isValue] : null)) : '') +
    '\n'
  );
}
