// What a renderer is: one state in, one HTML document out. The default renders with the route
// table's own hooks (`load`, `title`, `render`: the same ones the client runs, so the snapshot
// shows what a browser shows) into the parsed shell; `headlessRenderer` runs the real app instead.

import type { AppLocation } from '../location.js';
import type { AnyRoute, RouteMatch } from '../routes.js';
import { escapeHtml } from './html.js';
import { dataScript } from './hydration.js';
import { rewriteLinks } from './links.js';
import type { ShellTemplate } from './shell.js';
import type { UrlSettings } from './urls.js';

/** One state to render. */
export interface RenderJob {
  /** The canonical location, without an anchor. */
  location: AppLocation;
  /** The state's URL as a browser opens it on the configured origin: clean (history) or pretty (hashbang). */
  url: string;
  /** The canonical URL for `<link rel="canonical">`. */
  canonical: string;
  /** The matched route, the notFound route, or null when nothing matches and there is no notFound route. */
  match: RouteMatch<AnyRoute> | null;
  /** True when no route matches: the snapshot is served with 404. */
  notFound: boolean;
  /** The app's origin, base and URL mode. */
  settings: UrlSettings;
  /** Aborted at the handler's `timeoutMs`: stop work and free what the render holds. */
  signal: AbortSignal;
  /**
   * Set in `cleanUrls: 'all'` mode: the page is what browsers get, so it carries the state's data
   * for the client router (a JSON script, with `nonce` when given) and marks the outlet with its location.
   */
  hydrate?: { nonce?: string | undefined } | undefined;
}

/** A rendered document. */
export interface RenderResult {
  /** The whole HTML document, canonical link included. */
  html: string;
  /** The status to serve it with. Default 404 when the job is `notFound`, else 200. */
  status?: number;
}

/** Renders states into HTML documents: the route hooks by default, or `headlessRenderer(...)`. */
export interface SnapshotRenderer {
  /** Renders one state; rejects when it cannot (the handler answers 500, or 504 after `timeoutMs`). */
  render(job: RenderJob): Promise<RenderResult>;
  /** Frees what the renderer holds (a headless browser). Default none. */
  close?(): Promise<void>;
}

/** The canonical link of a job: only for states that exist. */
export function canonicalLink(job: RenderJob): string {
  return job.notFound ? '' : `<link rel="canonical" href="${escapeHtml(job.canonical)}">`;
}

/** The default renderer: the route's `load`, `title` and `render` hooks, written into the shell. */
export function hooksRenderer(shell: ShellTemplate): SnapshotRenderer {
  return {
    async render(job) {
      const found = job.match;
      const mark = job.hydrate ? job.location : undefined;
      if (!found) return { html: shell.snapshot({ head: canonicalLink(job), mark }) };
      const { route, params, query } = found;
      const { location, signal } = job;
      const data: unknown = route.load ? await route.load({ params, query, location, signal }) : undefined;
      signal.throwIfAborted();
      const context = { params, query, location, data };
      const title = typeof route.title === 'function' ? route.title(context) : route.title;
      const outlet = route.render ? rewriteLinks(String(await route.render(context)), { ...job.settings, page: job.url }) : undefined;
      const script = job.hydrate ? dataScript({ location, status: job.notFound ? 404 : 200, data }, route, job.hydrate.nonce) : '';
      return { html: shell.snapshot({ title: title === undefined ? undefined : String(title), head: canonicalLink(job) + script, outlet, mark }) };
    },
  };
}
