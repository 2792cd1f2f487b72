// The one navigation core: navigate(), link clicks, the Navigation API's `navigate` event, popstate
// and hashchange all run the same pipeline (match → guards → load → commit → subscribers → scroll).
// URL forms are the adapters' business; this file never asks which adapter it has.

import { hasEscapedFragment, type UglyState } from '../url/codec.js';
import { DEV } from '../env/dev.js';
import { normalizeLocation, stripAnchor, type AppLocation } from '../url/location.js';
import { outcomeOf } from '../routes/outcome.js';
import { STATE_ATTRIBUTE } from '../contract/settled.js';
import type { RouteDefinition, RouteMatch } from '../routes/types.js';
import type { HydrationPayload } from '../contract/hydration.js';
import { createAdapter, type Entry, type Nav } from './adapters.js';
import { checkTarget } from './checks.js';
import { linkHandler, navigateHandler, type Go } from './links.js';
import { createScroll } from './scroll.js';
import { publishSettled } from './settled.js';
import { FRAGMENT_API, NO_API, PATH_API, POP, PUSH, REPLACE, type Kind } from './steps.js';
import type { View } from './outlet.js';
import { unshadowed } from './document.js';
import { anchorMoved, MAX_REDIRECTS, newKey, statusOf, until } from './pipeline.js';
import type { LiveWindow, RouterDocument, RouterSignal } from './dom.js';
import type { Current, ErrorView, Guard, GuardResult, Listener, Router, RouterOptions, Target } from './types.js';

/** `add` for a set of callbacks, returning its undo (`beforeEach`, `subscribe`). */
const adder =
  <T>(set: Set<T>) =>
  (callback: T) => (set.add(callback), () => void set.delete(callback));

/** A history entry and the location it names. */
type Spot = { loc: AppLocation; entry: Entry };

/** Draws a router's states on the page (view.ts, the full client's; lite.ts, the lite one's). Internal. */
export type ViewMaker = (routes: RouterOptions['routes'], doc: RouterDocument | undefined) => View;

/** What `createRouter` throws with no window (and no `history` instance) to route. Internal. */
export const noWindow = () =>
  new TypeError(DEV ? 'createRouter: no window; pass { window }, or { history } such as createMemoryHistory() in Node' : 'no window');

/**
 * The navigation core of a client entry, with the entry's parts: `makeView` draws the states,
 * `readUgly` reads an ugly URL's state (the codec's uglyState; the lite client's reads none). It
 * routes on the window `win` (none: a memory history's widget) through the history `nav`, `paged`
 * when that is the page's own, under `base`. An app's bundler keeps the parts of the entry it
 * imports alone. Internal.
 */
export function routerOn(
  options: RouterOptions,
  makeView: ViewMaker,
  readUgly: (url: string) => UglyState | null,
  win: LiveWindow,
  base: string,
  nav: Nav,
  paged: boolean,
): Router {
  const { routes, links = true, error: errorView, onError } = options;
  // Page content cannot replace what the router calls on its document (`doc`, passed on below).
  const doc = win && unshadowed(win.document);
  const api = nav.api;
  const mode = options.mode === 'hashbang' || (options.mode !== 'history' && api < PATH_API) ? 'hashbang' : 'history';
  // Where only the fragment may change, the state lives in this page's fragment.
  const adapter = createAdapter(mode, base, readUgly, mode === 'hashbang' && api === FRAGMENT_API ? stripAnchor(nav.href()) : '');
  // Scrolling is the router's unless the app keeps it (`scroll: false`) or there is no window.
  const scroll = options.scroll !== false && doc ? createScroll(win, doc) : undefined;
  const guards = new Set<Guard>();
  const subscribers = new Set<Listener>();
  // With no notFound route in the table, an unmatched location still commits, with an empty route.
  const fallback = routes.notFound ?? {};
  // What a match gives `load` and the views: its params, query and state, the location the server
  // renders (no anchor, only the query keys its route declares), so that both sides show one page.
  // The hooks see the state's one spelling (its canonical location, else its state) and the page's
  // origin: the window's, none on a memory history.
  const origin = (paged && win?.location.origin) || '';
  const contextOf = (match: RouteMatch) => ({
    params: match.params,
    query: match.query,
    location: routes.canonical(match) ?? routes.stateOf(match.location),
    origin,
  });
  let current: Current | null = null;
  // The history entry `current` is shown in and its location (both null or neither).
  let showing: Spot | null = null;
  // The entry the address bar is on and the location it names: `showing`, or one a back/forward
  // reached whose navigation is still in flight. A navigation made meanwhile starts from there.
  let address: Spot | null = null;
  let pending: Spot | null = null; // the navigation in flight
  let returning = false; // restoreAddress's go() is on its way, until the browser arrives on an entry
  let controller: AbortController | undefined;
  let waiters: (() => void)[] = [];
  let started = false;
  // After destroy() the router is done: navigate(), start() and every redirect resolve false,
  // writing nothing, and back(), forward() and go() move nothing, so a late call from a torn-down
  // view never moves the page it left.
  let dead = false;
  // The last committed state's scroll, until it runs (commit): `ticks` counts the commits.
  let scrollJob: (() => void) | undefined;
  let ticks = 0;
  let lastHref = '';
  let listening: { signal: RouterSignal; abort(): void } | undefined; // aborted by destroy(): removes what start() added
  const view = makeView(routes, doc);
  // The outcome published with the settled signal: the status a server would answer the state
  // with, and where a redirect (from a load, a redirect route or a guard) took the navigation.
  let status = 200;
  let moved: AppLocation | undefined;
  // What a navigation nobody awaits threw (a back/forward, a typed URL, a link click): the app's
  // `onError`, else the window's report (window.onerror, the console); never an unhandled rejection,
  // which ends a Node process.
  const report = onError ?? ((error: unknown) => (win?.reportError ? win.reportError(error) : console.error(error)));
  // A server-rendered page's data for the first navigation (src/client/hydrate.ts).
  let seed: HydrationPayload | null = null;
  // Why a first navigation failed with nothing committed (a redirect loop), for the settled signal.
  let lost: unknown = null;

  function write(loc: AppLocation, entry: Entry, replace: boolean) {
    const wrote = nav.write(adapter.url(loc), entry, replace, loc);
    lastHref = nav.href();
    return wrote;
  }

  function flushScroll() {
    const job = scrollJob;
    scrollJob = undefined;
    job?.();
  }

  function idle() {
    pending = null;
    waiters.splice(0).forEach((wake) => wake());
    if (started && doc) publishSettled(win, doc, current ? current.location : null, status, moved, current ? current.error : lost);
  }

  /**
   * Puts the address bar back on `current`'s entry after a navigation was cancelled or failed while
   * it was elsewhere: a back/forward a guard refused, or one a newer, refused navigation superseded.
   */
  function restoreAddress() {
    pending = null; // the restoring pop that follows is an echo, not a new navigation
    // Set whenever a state is shown (commit sets both).
    const strayed = address as Spot;
    // `current` is shown where the browser is, or a go() back to it is on its way.
    if (returning || !showing || strayed.entry.key === showing.entry.key) return;
    // As History.go() reads it (a long): a position a page script wrote (Infinity, 2 ** 32) reads
    // as 0, which is a reload, and then the URL is written back instead.
    const delta = (strayed.entry.idx - showing.entry.idx) | 0;
    // The browser stays on the strayed entry until the go() lands, and a navigation of the page's
    // meanwhile (a typed `#`, a replaceState) may cancel it: `address` moves when it arrives.
    if (api > NO_API && delta) {
      returning = true; // set first: a `history` instance's go() arrives before it returns
      nav.go(-delta);
    } else {
      address = showing;
      write(showing.loc, showing.entry, true);
    }
  }

  /**
   * One navigation's pipeline: resolve, a change of anchor alone, guards, load, commit.
   *
   * `run` stays synchronous until it must await. It awaits only a guard, a `beforeLoad` or a `load`,
   * and only where there is one: a navigation with none commits, tells its subscribers and says
   * settled in the call that started it (navigate(), start(), a click, a popstate), before any
   * microtask. `router.current` is the new state when navigate() returns, `settled()` has nothing
   * to wait for, and a headless render of such a page is settled at once. So no `await` and no
   * async helper before the commit (test/client/synchronous-commit.test.ts).
   */
  async function run(loc: AppLocation, kind: Kind, entry: Entry, depth = 0, via?: number): Promise<boolean> {
    if (dead) return false;
    // One controller per navigation: a newer one (or destroy) aborts it, its loader and its waits.
    // Aborted is superseded: it never commits, and the newer one reports idle.
    controller?.abort();
    const { signal } = (controller = new AbortController());
    pending = { loc, entry };
    if (started && doc) doc.documentElement.setAttribute(STATE_ATTRIBUTE, 'busy');
    const from = current;
    // A redirect (a guard's, a load's or a redirect route's) replaces the entry it reached; a push stays one entry.
    const follow = (to: AppLocation, code: number) => {
      if (depth >= MAX_REDIRECTS) {
        const loop = new Error(
          DEV ? `navigation redirected more than ${MAX_REDIRECTS} times, last to ${JSON.stringify(to)}` : 'redirect loop',
        );
        // With nothing shown yet (a first navigation: a headless render's page) the page fails: 500,
        // the loop its error in the settled signal, for a headless render to say why.
        if (!current) {
          status = 500;
          lost = loop;
        }
        restoreAddress();
        throw loop;
      }
      // A push stays a push; a replace's or a traversal's redirect replaces.
      return run(normalizeLocation(to), kind === PUSH ? PUSH : REPLACE, { ...entry, key: newKey() }, depth + 1, via ?? code);
    };
    // The first navigation's only: a redirect or a later navigation loads as usual.
    const seeded = seed && seed.location === routes.stateOf(loc) ? seed : null;
    seed = null;
    try {
      let match = routes.resolve(loc, fallback) as RouteMatch;
      let data: unknown;
      let error: unknown;
      let failed = false;
      // The view whose hooks draw the state: none for a change of anchor alone, which keeps the
      // state's data, view and outcome (no guards, no load): its route too, the notFound route
      // where its `load` said notFound(), and not the one the new location matches.
      let hooks: ErrorView | null = null;
      if (anchorMoved(from, match.location)) {
        data = (from as Current).data;
        match = { ...match, route: (from as Current).route, notFound: (from as Current).notFound };
      } else {
        for (const guard of [...guards]) {
          let verdict: GuardResult;
          try {
            verdict = await until(guard({ ...match, state: entry.state } as Target, from), signal);
          } catch (guardError) {
            if (signal.aborted) return false;
            restoreAddress();
            throw guardError;
          }
          if (signal.aborted) return false;
          if (verdict === false) {
            restoreAddress();
            return false;
          }
          if (typeof verdict === 'string') return follow(verdict, 302);
        }
        const { beforeLoad, load } = match.route as RouteDefinition;
        // The server's answer for this state (its access rule passed there): its data, or a 404 its
        // `load` gave with notFound() (no data).
        if (seeded) data = seeded.data;
        else if (beforeLoad || load) {
          try {
            const context = { ...contextOf(match), signal };
            // Only where there is one: a load starts in the navigation's own turn, as it always has.
            if (beforeLoad) await until(beforeLoad(context), signal);
            if (load) data = await until(load(context), signal);
          } catch (loadError) {
            error = loadError;
            failed = true;
          }
          if (signal.aborted) return false; // superseded: a stale result never renders
        }
        // Only what a load threw is an outcome: `error` is unset otherwise, and outcomeOf reads none there.
        const outcome = outcomeOf(error);
        if (outcome?.kind === 'redirect') return follow(outcome.to, outcome.status);
        // notFound(), now or on the server: the table's notFound view at this URL, as if nothing had matched.
        if (outcome || seeded?.status === 404) {
          match = { ...match, route: fallback, notFound: true };
          failed = false;
          error = undefined;
        }
        hooks = failed ? (errorView ?? {}) : match.route;
      }
      // The commit: the entry, `current`, and what it shows, with the outcome a server would answer
      // (statusOf), or `via` the status of the redirect that led here.
      // A state committed before the last one scrolled (from a subscriber: an anchor it moves to)
      // scrolls that one first, so the entry left is saved where its own scroll put it.
      flushScroll();
      if (showing) scroll?.save(showing.entry.key);
      // A push leaves the entry the browser is on: stamped again if another script wrote its state over
      // (`replaceState(null, '', url)`), else a traversal back to it is a new entry, a position off.
      if (kind === PUSH && api > NO_API && address && nav.entry()?.key !== address.entry.key)
        nav.write(nav.href(), address.entry, true, address.loc);
      // While it loaded, the browser may have landed on a new entry naming this very location (the same
      // `#!` URL typed, an `#anchor` typed again in a `#!` app): the state commits there, writing no other.
      if (kind !== REPLACE && address?.loc === match.location) entry = address.entry;
      else if (kind !== POP) {
        // A replace writes over the entry the browser is on now, at that entry's position.
        if (kind === REPLACE && address) entry = { ...entry, idx: address.entry.idx };
        // A write refused (a blocker of a `history` instance's) commits nothing: the navigation is cancelled.
        // So does a write during which a listener of a `history` instance's destroyed the router.
        if (write(match.location, entry, kind === REPLACE) === false || dead) return false;
      }
      address = showing = { loc: match.location, entry };
      current = { ...match, state: entry.state, data };
      if (failed) current.error = error;
      // No hooks (a change of anchor alone): the state's view and outcome stay as they are.
      if (hooks) {
        // 500 until the view's hooks have run: a hook that throws (for a visitor's params, say) leaves
        // the state failed, as the server answers it, never the last state's status over a stale view.
        status = 500;
        moved = undefined;
        view.draw(hooks, match, { ...contextOf(match), data, error }, failed);
        status = via ?? statusOf(match, failed);
        moved = via ? match.location : undefined;
      }
      scrollJob = () => dead || scroll?.apply(kind, entry.key, match.hash);
      // A subscriber that throws stops neither the others nor the commit; the navigation rejects after.
      let fault: [unknown] | undefined;
      for (const listener of [...subscribers]) {
        try {
          listener(current);
        } catch (thrown) {
          fault ??= [thrown];
        }
      }
      // Scrolling waits for what the subscribers queued: a view drawn from `subscribe` in a microtask
      // (React's useSyncExternalStore) is on the page by then, with its height and its anchor. Only
      // the last commit's wait scrolls: a later commit's subscribers may draw after an earlier wait.
      const tick = ++ticks;
      queueMicrotask(() => tick < ticks || flushScroll());
      if (fault) throw fault[0];
      return true;
    } finally {
      if (!signal.aborted) idle();
    }
  }

  /**
   * The browser is on an entry (first load, popstate, hashchange): read it, move its form, route it.
   * `shown`: the location a plain `#anchor` belongs to, if any (none on the first load).
   */
  function arrive(href: string, shown?: AppLocation | null): Promise<boolean> | undefined {
    lastHref = href;
    returning = false;
    const reading = adapter.read(href, shown);
    if (!reading) return;
    // Compared as the table reads it, as `current.location` is: without the tracking tags the address bar keeps.
    const loc = (routes.resolve(reading.loc, fallback) as RouteMatch).location;
    let entry = nav.entry();
    // An entry we did not make (the first load, a typed or followed URL, a plain anchor) is a new
    // one after ours; some browsers (and happy-dom) copy the previous entry's state into it.
    const fresh = !entry || (entry.key === address?.entry.key && loc !== address.loc);
    if (fresh) entry = { key: newKey(), idx: address ? address.entry.idx + 1 : 0 };
    address = { loc, entry: entry as Entry };
    // Moving between forms: replaceState (or location.replace without pushState), never a new entry.
    if (!reading.ok || (fresh && api > NO_API)) write(reading.loc, entry as Entry, true);
    // Where the router is, or is going: the navigation in flight, else the state shown.
    const destination = pending ?? showing;
    if (loc === destination?.loc && (fresh || (entry as Entry).key === destination.entry.key)) return;
    return run(loc, POP, entry as Entry);
  }

  function onPop(event: { type?: string }) {
    const href = nav.href();
    // A traversal between `#!` URLs fires popstate, then hashchange for the same URL.
    if (event.type === 'hashchange' && href === lastHref) return;
    // A plain `#anchor` belongs to the state shown only while the page part of the URL is unchanged.
    arrive(href, stripAnchor(href) === stripAnchor(lastHref) ? current?.location : null)?.catch(report);
  }

  function navigate(to: AppLocation, { replace, state }: { replace?: boolean; state?: unknown } = {}) {
    if (DEV) checkTarget(to, 'navigate');
    const loc = normalizeLocation(to);
    // The same location again replaces its entry (as browsers do for the same URL): a reload, not a duplicate.
    const replaces = replace || loc === address?.loc;
    // Its position: after the entry the browser is on (a replace takes that entry's own when it commits).
    return run(loc, replaces ? REPLACE : PUSH, { key: newKey(), idx: address ? address.entry.idx + 1 : 0, state });
  }

  return {
    mode,
    get current() {
      return current;
    },
    start() {
      if (started || dead) return Promise.resolve(!dead && current !== null);
      started = true;
      const href = nav.href();
      seed = view.start(options.outlet);
      // The window's own: a DOM of another realm (jsdom in Node) refuses a signal it did not make.
      const { signal } = (listening = new (win?.AbortController ?? AbortController)());
      nav.listen(onPop, signal);
      if (links && doc) {
        const go: Go = (loc, replace) => void navigate(loc, { replace }).catch(report);
        doc.addEventListener('click', linkHandler(win, doc, adapter.read, go), { signal });
        // Where the browser has the Navigation API, what no click listener sees (an `<area>`, a GET
        // form, another script's `location` write) too, on the window's own history: never into a
        // memory history's widget. Without it (or with it removed) the page behaves as before. And
        // never without pushState: the router's own writes are then `location` writes, which it
        // would take for another script's and cancel and make again, without end.
        if (api > NO_API && paged) win.navigation?.addEventListener('navigate', navigateHandler(adapter.read, go), { signal });
      }
      scroll?.start();
      const first = arrive(href);
      if (first) return first;
      // Outside base: not the app's page, but nothing is in flight. A malformed ugly URL is no
      // state: 400, as the server answers it, for whatever reads the page's status.
      if (hasEscapedFragment(href) && !readUgly(href)) status = 400;
      if (!pending) idle();
      return Promise.resolve(false);
    },
    navigate,
    back: () => nav.go(-1),
    forward: () => nav.go(1),
    go: (delta) => nav.go(delta),
    href: (to) => (DEV && checkTarget(to, 'href'), adapter.url(normalizeLocation(to))),
    beforeEach: adder(guards),
    subscribe: adder(subscribers),
    settled: () => (pending ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    destroy() {
      // First: an abort listener (a loader's) that navigates meanwhile starts nothing.
      dead = true;
      nav.go = () => {}; // a late back() from a torn-down view leaves the page alone
      listening?.abort();
      controller?.abort(); // whatever is in flight resolves false and never commits
      scroll?.stop();
      if (started && doc) doc.documentElement.removeAttribute(STATE_ATTRIBUTE);
      started = false;
      guards.clear();
      subscribers.clear();
      idle();
    },
  };
}
