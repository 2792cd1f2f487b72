// The warm-up page a page process renders before it says it is ready (headless/child.ts): its
// requests answered in the process from WARM_FILES, never sent to the server. It runs what a render
// runs, so that a render's first call of each is not compiled on the request path.

import type { Browser, BrowserPage, BrowserWindow } from 'happy-dom';
import { SETTLED_EVENT, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../contract/settled.js';
import { pageOutcome, serializePage, waitUntilSettled, watchWindow, type PageSignals } from './page.js';
import type { GateAnswer, PlainJob } from './protocol.js';
import type { PageJob } from './requests.js';

/** The warm-up page's job: the page process answers its requests itself. */
export const WARM_JOB: PageJob = { id: -1 };

/** What the warm-up needs of the page process: its open pages, their signals, its timeoutMs. */
export interface WarmContext {
  opened: Map<BrowserPage, PageJob>;
  signals: WeakMap<BrowserWindow, PageSignals>;
  timeoutMs: number;
}

// The warm-up page, at an origin no page has: a shell, a deferred script, a stylesheet and a JSON
// fetch, then the DOM work of a client-rendered view and the router's settled signal. It runs what
// a render runs (the interceptor and its answers, scripts, the parser, DOM building, the settle
// wait, serialisation) once before the process says it is ready, so a render's first call of each
// is not compiled on the request path.
const WARM_ORIGIN = 'http://warm-up.invalid';
const WARM_FILES: Record<string, [string, string]> = {
  '/': [
    'text/html; charset=utf-8',
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>warm</title><link rel="stylesheet" href="/warm.css">' +
      '<script defer src="/warm.js"></script></head><body><header><a href="/">home</a></header><main id="app"></main>' +
      '<footer>warm</footer></body></html>',
  ],
  '/warm.css': ['text/css', 'main { display: block }'],
  '/warm.json': [
    'application/json',
    JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: String(i), name: `Item ${i}`, year: 1800 + i })) }),
  ],
  '/warm.js': [
    'text/javascript',
    `(async () => {
  const root = document.documentElement;
  root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, 'busy');
  const data = await fetch('/warm.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
  history.replaceState({ at: 1 }, '', location.pathname + '?q=1');
  addEventListener('popstate', () => {});
  document.addEventListener('click', (event) => event.target.closest('a') && event.preventDefault());
  const section = document.createElement('section');
  section.innerHTML = '<h1>Items &amp; more</h1><ul>' + data.items.map((item) =>
    '<li><a href="/items/' + encodeURIComponent(item.id) + '">' + item.name + '</a> <span class="by">' + item.year + '</span></li>').join('') + '</ul>';
  document.getElementById('app').replaceChildren(section);
  const meta = document.createElement('meta');
  meta.setAttribute('name', 'description');
  meta.setAttribute('content', 'warm');
  const link = document.createElement('link');
  link.rel = 'canonical';
  link.href = location.origin + '/';
  document.head.append(meta, link);
  document.title = section.querySelector('h1').textContent + ' ' + section.querySelectorAll('a[href]').length;
  await new Promise((resolve) => setTimeout(resolve, 0));
  root.setAttribute(${JSON.stringify(STATUS_ATTRIBUTE)}, '200');
  root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, 'settled');
  dispatchEvent(new CustomEvent(${JSON.stringify(SETTLED_EVENT)}, { detail: {} }));
})();`,
  ],
};

/** The warm-up page's answer to a request for `url`: one of its files, or a network error. */
export function warmAnswer(url: string): GateAnswer {
  const { origin, pathname } = new URL(url);
  const file = origin === WARM_ORIGIN ? WARM_FILES[pathname] : undefined;
  return file ? { status: 200, statusText: 'OK', headers: [['content-type', file[0]]], body: Buffer.from(file[1]) } : null;
}

/**
 * Renders the warm-up page (WARM_FILES) as a page is rendered, so that a render's time is spent on
 * its own page. It only warms up: if it fails or does not settle within timeoutMs, the process
 * goes on and says it is ready all the same.
 */
export async function warmUp(browser: Browser, { opened, signals, timeoutMs }: WarmContext): Promise<void> {
  const warm = browser.newPage();
  opened.set(warm, WARM_JOB);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = async () => {
    await warm.goto(`${WARM_ORIGIN}/`);
    const window = warm.mainFrame.window;
    await waitUntilSettled(warm, signals.get(window) ?? watchWindow(window));
    const plain: PlainJob = {
      location: '/',
      url: `${WARM_ORIGIN}/`,
      canonical: `${WARM_ORIGIN}/`,
      notFound: false,
      noindex: false,
      settings: { origin: WARM_ORIGIN, base: '/', mode: 'history' },
    };
    const job = { ...plain, match: null, signal: new AbortController().signal };
    pageOutcome(window, job);
    serializePage(window, job, WARM_JOB.source ?? '');
  };
  try {
    await Promise.race([render(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  } catch {
    // Nothing of a render depends on it.
  } finally {
    clearTimeout(timer);
    opened.delete(warm);
    await warm.close().catch(() => {});
  }
}
