// The answers built from a state's stored snapshot: its page, or its redirect in the form the
// request was asked in, with the state's `X-Robots-Tag: noindex`; a render that read its request
// answered `private, no-store`; a function's nonce given to each answer as it is sent (http/nonce.ts);
// and, once a request has waited for a render that failed, the failure's page. A request made by a
// page being rendered (nested.ts) waits for no render: a stored snapshot, else 508. What a cached
// answer (`fromSnapshot` on a hit) reads is made once per handler: a hit costs only its answer.

import { readUglyUrl } from '../../url/codec.js';
import type { AppLocation } from '../../url/location.js';
import type { StoredSnapshot } from '../cache/store.js';
import type { ShellTemplate } from '../html/shell.js';
import type { Answer, Ask } from '../http/exchange.js';
import type { nonceAnswers } from '../http/nonce.js';
import { failurePage, nestedPage, redirectTo } from '../http/pages.js';
import { respond, type Page } from '../http/respond.js';
import { isNested } from '../nested.js';
import { NOINDEX_HEADER } from '../noindex.js';
import type { SnapshotHandlerOptions } from '../types.js';
import { redirectUrl, type UrlSettings } from '../urls.js';
import type { RenderJob } from './render.js';
import { isPrivate } from './request.js';
import type { SnapshotSource } from './snapshots.js';

// The Cache-Control of a page rendered for one request (its hooks read `request`).
const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** What `snapshotAnswers` needs, made once per handler (handler-setup.ts). */
export interface SnapshotAnswerOptions {
  /** The origin, base and crawlers' URL mode that a redirect's Location is written in. */
  settings: UrlSettings;
  /** The parsed shell: its language for the pages the library writes, its page for a failed state's at a clean URL. */
  shell: ShellTemplate;
  /** The `Cache-Control` of a snapshot's answer that no request's render made private. */
  cacheControl: string;
  /** `Vary` of an answer at a clean URL (`User-Agent` in `cleanUrls: 'bots'` mode), else undefined. */
  vary: string | undefined;
  /** gzip answers for clients that accept it. */
  compress: boolean;
  /** Each answer's own nonce (a `nonce` function, `cleanUrls: 'all'`), else undefined. */
  ownNonce: ReturnType<typeof nonceAnswers> | undefined;
  /** Where a request's snapshot comes from once it is not cached. */
  snapshots: SnapshotSource;
  /** `Retry-After` of a refused or timed-out render's answer, in seconds. */
  retryAfter: string;
  /** Set where everyone gets rendered pages (`cleanUrls: 'all'`). */
  hydrate: RenderJob['hydrate'];
  /** Told of a failed render once, however many requests waited for it. */
  onError: NonNullable<SnapshotHandlerOptions['onError']>;
}

/** The answers of a state's snapshot: at once from a stored one, or once its render ends. */
export function snapshotAnswers(options: SnapshotAnswerOptions) {
  const { settings, shell, cacheControl, vary, compress, ownNonce, snapshots, retryAfter, hydrate, onError } = options;
  // A failed render is shared by every request that waited for it: onError hears of it once.
  const reported = new WeakSet<object>();

  /**
   * The answer of a stored snapshot, in the request's form (a redirect keeps the form it was asked
   * in), with `X-Robots-Tag: noindex` for a noindex route's state: read from the route table, not the
   * store, so a snapshot from any store says what the table says now.
   */
  function fromSnapshot(
    request: Ask,
    key: AppLocation,
    stored: StoredSnapshot,
    clean: boolean,
    noindex: boolean,
  ): Answer | Promise<Answer> {
    const varies = clean ? vary : undefined;
    const robots = noindex ? NOINDEX_HEADER : undefined;
    // A render that read its request is that visitor's page: no cache, shared or theirs, keeps it.
    const personal = isPrivate(stored);
    const control = personal ? PRIVATE_CACHE_CONTROL : cacheControl;
    if (stored.redirect !== undefined) {
      // The target in the request's own form: a clean URL moves to the target's clean URL; the
      // meta-tag form stays a clean URL with an empty escaped fragment.
      const form = clean ? 'clean' : readUglyUrl(request.target).fragment === '' ? 'meta' : 'ugly';
      const moved = redirectTo(stored.status, redirectUrl(stored.redirect, settings, form), control, shell.lang);
      return respond(request, { ...moved, headers: { ...moved.headers, ...robots }, vary: varies }, { compress });
    }
    const page: Page = {
      status: stored.status,
      body: stored.html,
      etag: stored.etag,
      lastModified: stored.renderedAt,
      cacheControl: control,
      headers: robots,
      vary: varies,
    };
    const own = ownNonce?.(request, page, key);
    if (own) return respond(request, own, { compress });
    // The header is the state's, as the stored snapshot is: the prepared answer may be kept on it.
    // At a clean URL the answer has its own headers (Vary), the same body: the second variant.
    return respond(request, page, { compress, memo: personal ? undefined : stored, variant: clean ? 1 : 0 });
  }

  /** The answer once the snapshot is rendered (or the render failed); null for a client that has gone. */
  async function afterWait(request: Ask, key: AppLocation, clean: boolean, noindex: boolean): Promise<Answer | null> {
    // Read on a miss only: a hit is answered before (handler.ts), whoever asks.
    if (isNested(request)) return nestedAnswer(request, key, clean, noindex);
    let stored: StoredSnapshot;
    try {
      stored = await snapshots.forRequest(request, key);
    } catch (error) {
      // A client that has gone gets nothing written; its wait is over.
      if (request.signal?.aborted) return null;
      const { page, report } = failurePage(error, retryAfter, shell.lang);
      if (report && !reported.has(error as object)) {
        reported.add(Object(error));
        onError(error, key);
      }
      // Where everyone gets rendered pages, a failed one is the app's shell with the failure's status:
      // a browser's router loads the state itself and shows it or its error view; nobody indexes a 5xx.
      const app = clean && hydrate ? { body: shell.page } : {};
      return respond(request, { ...page, ...app, vary: clean ? vary : undefined }, { compress });
    }
    return fromSnapshot(request, key, stored, clean, noindex);
  }

  /**
   * The answer to a page being rendered: what the store holds, else 508. It starts no render and
   * joins none in flight (that one may be its own ancestor's, waiting for this very answer); no
   * `limitClient`, no `onError`: nothing was rendered, and the render that asked goes on with a 508.
   */
  async function nestedAnswer(request: Ask, key: AppLocation, clean: boolean, noindex: boolean): Promise<Answer> {
    const stored = await snapshots.stored(key);
    if (stored) return fromSnapshot(request, key, stored, clean, noindex);
    return respond(request, { ...nestedPage(shell.lang), vary: clean ? vary : undefined }, { compress });
  }

  return { fromSnapshot, afterWait };
}
