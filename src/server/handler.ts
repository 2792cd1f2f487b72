// The snapshot handler: a web `Request -> Response | null` core (h3's shape).
// An ugly URL (`/?_escaped_fragment_=/books/1` or the meta-tag form `/books/1?_escaped_fragment_=`)
// gets the HTML snapshot of its state; a clean URL inside `base` gets, by `cleanUrls`, the same
// snapshot (for bots that run no JavaScript, or for everyone) or the shell carrying
// `<meta name="fragment" content="!">`; anything else is not its business (null). A cached
// snapshot is answered at once, with no promise, waiter or signal (render/snapshots.ts).
// The scheme's rules it follows: docs/scheme.md. This file reads a request's target and routes it;
// the options are read in handler-setup.ts, the answers written by render/snapshot-answer.ts (a
// state's snapshot) and http/shell-answer.ts (the shell, or a redirect route's move).

import { CodecError, hasEscapedFragment } from '../url/codec.js';
import { toLocation, type AppLocation } from '../url/location.js';
import { setUpHandler } from './handler-setup.js';
import { memoize } from './memo.js';
import { isNoindex } from './noindex.js';
import { assetPathTest, isAssetDest } from './http/assets.js';
import { askOf, responseOf, type Answer, type Ask } from './http/exchange.js';
import { toNodeHandler } from './http/node.js';
import { errorPage } from './http/pages.js';
import { respond } from './http/respond.js';
import { shellAnswer } from './http/shell-answer.js';
import { snapshotAnswers } from './render/snapshot-answer.js';
import { isPrivate, privateTo } from './render/request.js';
import type { Snapshot, SnapshotHandler, SnapshotHandlerOptions } from './types.js';
import { publicUrl } from './urls.js';

export type { CacheOptions, CleanUrls, Snapshot, SnapshotClient, SnapshotHandler, SnapshotHandlerOptions } from './types.js';

/** What a request target means to the handler. */
interface Target {
  location: AppLocation | null;
  clean: boolean;
  /** A clean URL whose path names an asset (http/assets.ts): never the shell's or a snapshot's. */
  asset: boolean;
  key?: AppLocation;
  /** The state is of a `noindex` route: its snapshot answers say so (noindex.ts). */
  noindex?: boolean;
}

/** Creates the handler that answers crawlers' ugly URLs with snapshots, and clean URLs with snapshots or the shell by `cleanUrls`. */
export function createSnapshotHandler(options: SnapshotHandlerOptions): SnapshotHandler {
  const setup = setUpHandler(options);
  const { routes, cleanUrls, settings, isBot, shell, compress, snapshots, cache, build } = setup;
  const { fromSnapshot, afterWait } = snapshotAnswers(setup);
  const shellFor = shellAnswer(setup);

  // Which clean URLs ask for an asset by their path (http/assets.ts): worked out once per table.
  // An ugly URL is the crawler's: never an asset, whatever its state's path.
  const isAssetPath = assetPathTest(routes);

  // What a target means: its location (null: not inside base), whether it is a clean URL, and its
  // state (worked out on first need). Parsing and matching cost more than a cached answer's rest.
  // A target is a path: read after an origin (`//o`) as the browser's router reads its page's URL,
  // so `//evil.example/books/1` is the path /evil.example/books/1, never a URL of another host.
  const targetOf = memoize(
    (target: string): Target => {
      const location = toLocation('//o' + target, { base: settings.base });
      const clean = !hasEscapedFragment(target);
      const at = location === null ? -1 : location.indexOf('?');
      const asset = clean && location !== null && isAssetPath(at < 0 ? location : location.slice(0, at));
      return { location, clean, asset };
    },
    { max: 1000, maxKeyLength: 512 },
  );

  function answer(request: Ask): Answer | Promise<Answer | null> | null {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    let target: Target;
    try {
      target = targetOf(request.target);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      const body = errorPage(400, `This is not a URL of the AJAX crawling scheme: ${error.message || error.code}`, shell.lang);
      return respond(request, { status: 400, body, cacheControl: 'no-store' }, { compress });
    }
    const { location, clean } = target;
    if (location === null) return null;
    // An asset is the next handler's (a static server's file, or its 404), never the shell.
    if (clean && (target.asset || isAssetDest(request.header('sec-fetch-dest')))) return null;
    if (clean && !(cleanUrls === 'all' || (cleanUrls === 'bots' && isBot(request.header('user-agent'))))) {
      return shellFor(request, location);
    }
    // The state: the path and the query keys its route says make a distinct state.
    const key = (target.key ??= routes.stateOf(location));
    const noindex = (target.noindex ??= isNoindex(routes, key));
    const stored = snapshots.cached(key);
    return stored ? fromSnapshot(request, key, stored, clean, noindex) : afterWait(request, key, clean, noindex);
  }

  return {
    async fetch(request) {
      const result = await answer(askOf(request));
      return result && responseOf(result);
    },
    node: toNodeHandler(answer),
    async render(location) {
      const key = routes.stateOf(location);
      const stored = await snapshots.get(key);
      const match = routes.match(key);
      const moved = stored.redirect === undefined ? {} : { redirect: publicUrl(stored.redirect, settings) };
      const canonical = publicUrl((match && routes.canonical(match)) ?? key, settings);
      const snapshot: Snapshot = {
        location: key,
        status: stored.status,
        html: stored.html,
        etag: stored.etag,
        lastModified: new Date(stored.renderedAt),
        canonical,
        ...moved,
      };
      // A render whose hooks read `request` (given none here) is a visitor's page: prerender writes none.
      if (isPrivate(stored)) privateTo(snapshot, undefined);
      return snapshot;
    },
    invalidate(target) {
      return cache.invalidate(typeof target === 'function' ? target : routes.stateOf(target));
    },
    build,
  };
}
