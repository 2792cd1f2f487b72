// The sides of the differential test of the renderers (renderers-agree.test.ts): the client router
// landing on a URL in happy-dom, and the snapshot handler answering a request, each read into one
// comparable outcome of a state: status, redirect, title, head tags, canonical link, outlet HTML.

import { Window } from 'happy-dom';
import { parse, parseFragment, serialize } from 'parse5';
import { expect } from 'vitest';
import { toLocation, toUrl, type UrlMode } from '../../src/index.js';
import { createRouter } from '../../src/client/index.js';
import { stripAnchor } from '../../src/url/location.js';
import type { SnapshotHandler } from '../../src/server/handler.js';
import type { tableOf } from './renderers-table.mjs';

export const ORIGIN = 'https://example.com';
export const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const SHELL_HEAD =
  '<meta charset="utf-8"><title>Shell</title><meta name="description" content="Shell"><meta property="og:site_name" content="Shop">';
export const SHELL = `<!DOCTYPE html><html><head>${SHELL_HEAD}</head><body><div id="app"><p>Loading</p></div></body></html>`;

/** What one side shows for a state. */
export interface Outcome {
  status: number;
  redirect?: string;
  /** The status of the page shown at the end (after a redirect, the target's). */
  final: number;
  title?: string;
  head?: string[];
  canonical?: string[];
  outlet?: string;
}

type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
const textOf = (n: Node): string => (n.value ?? '') + (n.childNodes ?? []).map(textOf).join('');
const attrOf = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value;
// The table's head hooks write root-relative URLs. A snapshot writes the page URLs crawlers read
// absolute (a link's href, og:url), the client as the hooks gave them: one URL either way.
const isUrl = (n: Node, attr: string) =>
  (n.tagName === 'link' && attr === 'href') ||
  (n.tagName === 'meta' && attr === 'content' && /^og:url$/i.test(attrOf(n, 'property') ?? ''));
const urlText = (value: string) => (value.startsWith('/') && !value.startsWith('//') ? ORIGIN + value : value);
/** A head tag as comparable text: its name and attributes (URLs absolute), sorted; JSON-LD as the value it parses to. */
function tagText(n: Node): string | null {
  if (n.tagName === 'script') return attrOf(n, 'type') === 'application/ld+json' ? `ld ${JSON.stringify(JSON.parse(textOf(n)))}` : null;
  if (n.tagName !== 'meta' && n.tagName !== 'link') return null;
  return `${n.tagName} ${JSON.stringify((n.attrs ?? []).map((a) => [a.name, isUrl(n, a.name) ? urlText(a.value) : a.value]).sort())}`;
}
/** An outlet's HTML as parse5 writes it, so that two serialisers of one DOM compare equal. */
const outletHtml = (html: string) => serialize(parseFragment(html));

/** What a page's HTML shows: title, head tags but the canonical link, canonical links, outlet. */
export function readPage(html: string): Omit<Outcome, 'status' | 'final'> {
  const doc = parse(html) as unknown as Node;
  const root = doc.childNodes?.find((n) => n.tagName === 'html');
  const head = root?.childNodes?.find((n) => n.tagName === 'head');
  const tags = (head?.childNodes ?? []).filter((n) => !(n.tagName === 'link' && attrOf(n, 'rel') === 'canonical'));
  const canonical = (head?.childNodes ?? [])
    .filter((n) => n.tagName === 'link' && attrOf(n, 'rel') === 'canonical')
    .map((n) => attrOf(n, 'href') ?? '');
  const find = (n: Node): Node | undefined => (attrOf(n, 'id') === 'app' ? n : (n.childNodes ?? []).map(find).find(Boolean));
  const app = root && find(root);
  return {
    title: head?.childNodes
      ?.filter((n) => n.tagName === 'title')
      .map(textOf)
      .join('|'),
    head: tags
      .map(tagText)
      .filter((t): t is string => t !== null)
      .sort(),
    canonical,
    outlet: app ? outletHtml(serialize(app as never)) : undefined,
  };
}

export type Built = ReturnType<typeof tableOf>;
/** The URL of a location (as written, not canonical) in a URL form, on the table's base. */
export const urlOf = (base: string, raw: string, mode: UrlMode) =>
  ORIGIN + (mode === 'history' ? base.slice(0, -1) + raw : `${base}#!${raw}`);

/**
 * The client router landing in `mode` on `url`: on the shell, or on `page` (a server-rendered page,
 * whose data and outlet the router takes over).
 */
export async function client(
  { table, error, loads }: Built,
  url: string,
  mode: UrlMode,
  { page, from }: { page?: string; from?: string } = {},
): Promise<Outcome> {
  // Navigating `from` another state: the router starts there, then goes to the state's location.
  const window = new Window({ url: from ?? url });
  const document = window.document;
  if (page === undefined) {
    document.head.innerHTML = SHELL_HEAD;
    document.body.innerHTML = '<div id="app"><p>Loading</p></div>';
  } else document.write(page);
  const drawn = document.getElementById('app')?.firstChild;
  const loaded = loads.count;
  const router = createRouter({ routes: table, mode, outlet: '#app', error, window, links: false, scroll: false });
  try {
    // A redirect loop fails the navigation (the server answers it with redirects without end).
    let looped = false;
    const loop = (e: Error) => {
      if (!/redirected more than/.test(e.message)) throw e;
      looped = true;
    };
    await router.start().catch(loop);
    if (from !== undefined) looped = false; // the state before may have been a loop; this one is the question
    if (from !== undefined) await router.navigate(toLocation(url, { base: table.base }) as string).catch(loop);
    if (looped) return { status: 500, final: 500 };
    const root = document.documentElement;
    const status = Number(root.getAttribute('data-router-status'));
    const moved = root.getAttribute('data-router-redirect');
    const current = router.current;
    const shown = readPage(`<!DOCTYPE html>${root.outerHTML}`);
    // The client writes no canonical link (it has no origin): the one a server writes is `href()` of its state.
    const name = current && 'name' in current.route ? current.route.name : undefined;
    const final = !current || current.error !== undefined ? 500 : current.notFound ? 404 : 200;
    const written =
      current && final === 200 && name
        ? [toUrl(table.href(name, current.params, current.query), { origin: ORIGIN, base: table.base })]
        : [];
    const canonical = shown.canonical?.length ? shown.canonical : written;
    // On a server-rendered page the first navigation calls no load and keeps the outlet as drawn.
    if (page !== undefined)
      expect({ url, loads: loads.count - loaded, kept: document.getElementById('app')?.firstChild === drawn }).toEqual({
        url,
        loads: 0,
        kept: true,
      });
    // A redirect's target is a state: the server drops its anchor from Location (src/server/urls.ts), the client scrolls to it.
    const redirect = moved === null ? {} : { redirect: stripAnchor(moved) };
    return { status, final, ...redirect, ...(final === 500 ? {} : { ...shown, canonical }) };
  } finally {
    router.destroy();
    await window.happyDOM.close();
  }
}

/**
 * The server's answer to `target` (origin-relative), redirects followed in the form they come in;
 * `seen` is told the last URL and its page.
 */
export async function server(
  handler: SnapshotHandler,
  base: string,
  target: string,
  headers: Record<string, string> = {},
  seen?: (url: string, html: string) => void,
): Promise<Outcome> {
  let first: number | undefined;
  let at = target;
  for (let hop = 0; hop <= 10; hop++) {
    const reply = await handler.fetch(new Request(ORIGIN + at, { headers }));
    if (!reply) throw new Error(`no answer for ${at}`);
    const location = reply.headers.get('location');
    if (location === null || reply.status < 300 || reply.status > 399) {
      const outcome: Outcome = { status: first ?? reply.status, final: reply.status };
      if (first !== undefined) outcome.redirect = toLocation(ORIGIN + at, { base }) as string;
      if (reply.status === 500) return outcome;
      const html = await reply.text();
      seen?.(ORIGIN + at, html);
      return { ...outcome, ...readPage(html) };
    }
    first ??= reply.status;
    if (!location.startsWith(ORIGIN + '/')) throw new Error(`redirect off the origin: ${location}`);
    at = location.slice(ORIGIN.length);
  }
  return { status: 500, final: 500 }; // a loop: the client gives up on it as a failure
}
