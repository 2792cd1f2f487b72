import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes, notFound, redirect, toUglyUrl, toUrl } from '../../src/index.js';
import type { SnapshotHandler } from '../../src/server/handler.js';
import type { HeadlessRenderer } from '../../src/server/headless/headless.js';
import type { SnapshotRenderer } from '../../src/server/render/render.js';
import { caseRoutes, cases, type OutcomeCase } from '../routes/outcome-cases.mjs';
import { RENDER_LIVENESS_MS } from '../liveness.js';
import { listen, request, type Running } from './helpers.js';

// The headless renderer starts its page processes from dist/ (npm test builds first): the handler and
// prerender come from the built package too, so every error is of one SnapshotError class.
const { createSnapshotHandler, headlessRenderer, prerender } =
  (await import('crawlable-router/server')) as typeof import('../../src/server/index.js');

// The shared outcome cases (test/routes/outcome-cases.mjs) on the server: the hooks renderer runs the
// route table's hooks, the headless renderer runs a real app built on the client router (the UMD
// bundle of dist/, so `npm run build` first) over the very same case file. Both answer each case
// in both ugly forms with one status, one Location, one head.
const ORIGIN = 'https://example.com';
const SHELL =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title><meta name="description" content="Shell description">' +
  '<meta property="og:site_name" content="Shop"><SCRIPTS></head><body><div id="app"></div></body></html>';
const APP = `import { caseRoutes } from './cases.mjs';
const { createRoutes, createRouter, notFound, redirect } = window.CrawlableRouter;
const { routes, notFound: notFoundView, error, head } = caseRoutes({ notFound, redirect });
createRouter({ routes: createRoutes(routes, { notFound: notFoundView, head }), mode: 'history', outlet: '#app', error }).start();`;

type Found = {
  title: string;
  canonical: string[];
  description: string[];
  siteName: string[];
  heading: string;
  jsonLd: string[];
  /** The names of `<html>`'s attributes. */
  root: string[];
};

function read(html: string): Found {
  type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };
  const found: Found = { title: '', canonical: [], description: [], siteName: [], heading: '', jsonLd: [], root: [] };
  const text = (n: Node): string => (n.value ?? '') + (n.childNodes ?? []).map(text).join('');
  const walk = (n: Node) => {
    const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value;
    if (n.tagName === 'title') found.title = text(n);
    if (n.tagName === 'html') found.root = (n.attrs ?? []).map((a) => a.name);
    if (n.tagName === 'link' && attr('rel') === 'canonical') found.canonical.push(attr('href') ?? '');
    if (n.tagName === 'meta' && attr('name') === 'description') found.description.push(attr('content') ?? '');
    if (n.tagName === 'meta' && attr('property') === 'og:site_name') found.siteName.push(attr('content') ?? '');
    if (n.tagName === 'script' && attr('type') === 'application/ld+json') found.jsonLd.push(text(n));
    if (n.tagName === 'h1' && !found.heading) found.heading = text(n);
    (n.childNodes ?? []).forEach(walk);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

/** The two ugly forms of a location: the `#!` URL's escaped form, and the meta-tag form of its clean URL. */
const forms = {
  ugly: (location: string) => toUglyUrl(toUrl(location, { mode: 'hashbang', origin: ORIGIN })),
  meta: (location: string) => {
    const clean = toUrl(location, { origin: ORIGIN });
    return clean + (clean.includes('?') ? '&' : '?') + '_escaped_fragment_=';
  },
};

let dir: string;
const servers: Running[] = [];
const renderers: HeadlessRenderer[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'outcomes-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    SHELL.replace('<SCRIPTS>', '<script src="/router.js"></script><script type="module" src="/app.js"></script>'),
  );
  copyFileSync(path.resolve('dist/crawlable-router.umd.min.js'), path.join(dir, 'router.js'));
  copyFileSync(path.resolve('test/routes/outcome-cases.mjs'), path.join(dir, 'cases.mjs'));
  writeFileSync(path.join(dir, 'app.js'), APP);
});

afterAll(async () => {
  await Promise.all([...servers.splice(0).map((s) => s.close()), ...renderers.splice(0).map((r) => r.close())]);
  rmSync(dir, { recursive: true, force: true });
});

const { routes, notFound: notFoundView, head } = caseRoutes({ notFound, redirect });
const table = createRoutes(routes, { notFound: notFoundView, head });

const renderersByName: Record<string, () => SnapshotRenderer | undefined> = {
  hooks: () => undefined,
  headless: () => {
    const renderer = headlessRenderer({ root: dir, timeoutMs: RENDER_LIVENESS_MS, maxPages: 2 });
    renderers.push(renderer);
    return renderer;
  },
};

// A render a test with the headless renderer; none of these cases is about a time limit.
describe.each(Object.keys(renderersByName))('outcomes with the %s renderer', { timeout: 2 * RENDER_LIVENESS_MS }, (name) => {
  let server: Running;
  let handler: SnapshotHandler;
  let renderer: SnapshotRenderer | undefined;
  beforeAll(async () => {
    renderer = renderersByName[name]?.();
    handler = createSnapshotHandler({
      routes: table,
      origin: ORIGIN,
      shell: SHELL.replace('<SCRIPTS>', ''),
      ...(renderer && { renderer }),
      timeoutMs: RENDER_LIVENESS_MS,
      onError: () => {},
    });
    server = await listen((req, res) => void handler.node(req, res));
    servers.push(server);
  });

  const each = cases.flatMap((c) => (['ugly', 'meta'] as const).map((form) => ({ ...c, form })));
  it.each(each)('answers $name ($form form) with its status, Location and head', async (c: OutcomeCase & { form: keyof typeof forms }) => {
    const target = forms[c.form](c.location).slice(ORIGIN.length);
    const reply = await request(server.port, target);
    expect(reply.status).toBe(c.status);
    expect(reply.body).not.toContain('secret internal detail');
    if (c.redirect !== undefined) {
      expect(reply.headers.location).toBe(forms[c.form](c.redirect));
      expect(reply.headers.location?.startsWith(ORIGIN + '/')).toBe(true);
      return;
    }
    expect(reply.headers.location).toBeUndefined();
    if (c.status === 500) {
      expect(reply.headers['cache-control']).toBe('no-store');
      return;
    }
    const page = read(reply.body);
    expect(page.title).toBe(c.title);
    expect(page.heading).toBe(c.heading);
    expect(page.description).toEqual([c.description]);
    expect(page.siteName).toEqual(['Shop']);
    expect(page.canonical).toEqual(c.status === 200 ? [toUrl(c.location, { origin: ORIGIN })] : []);
    if (c.status === 200) expect(page.jsonLd.map((j) => JSON.parse(j) as unknown)).toEqual([{ '@type': 'Thing', name: c.title }]);
    // The router's settled attributes were its word to the headless renderer, not the snapshot's.
    expect(page.root).toEqual([]);
  });

  it('says why a state failed, in the error only: what its load threw (headless said only "status 500")', async () => {
    const failure = (await handler.render('/items/boom').catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'RENDER_FAILED', message: expect.stringContaining('secret internal detail') });
    expect((await request(server.port, '/?_escaped_fragment_=/items/boom')).body).not.toContain('secret internal detail');
  });

  it('says why a state that redirects to itself failed: a loop of redirects (headless said only "status 500")', async () => {
    const failure = (await handler.render('/items/loop').catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'RENDER_FAILED', message: expect.stringMatching(/redirect/i) });
  });

  it('never caches a failure: each request renders it again', async () => {
    await expect(handler.render('/items/boom')).rejects.toMatchObject({ code: 'RENDER_FAILED' });
    const again = await request(server.port, '/?_escaped_fragment_=/items/boom');
    expect(again.status).toBe(500);
  });

  it('caches a 404 and a redirect like any snapshot', async () => {
    const missing = await request(server.port, '/?_escaped_fragment_=/items/missing');
    expect(missing.headers['cache-control']).toBe('public, max-age=300');
    const moved = await request(server.port, '/?_escaped_fragment_=/items/moved');
    expect(moved.headers['cache-control']).toBe('public, max-age=300');
    expect(await handler.render('/items/moved')).toMatchObject({ status: 301, redirect: `${ORIGIN}/items/1` });
  });
});

// Every listed state rendered, each in a page process of its own with the headless renderer: past
// the 20 s a test may take, with the rest of the suite and two CPU hogs on two cores. Liveness only.
describe.each(Object.keys(renderersByName))('prerender with the %s renderer', { timeout: 5 * RENDER_LIVENESS_MS }, (name) => {
  it('writes only the 200 states and reports 404s and 500s as failed, redirects as skipped, never ok', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'outcomes-out-'));
    const ids = ['7', 'missing', 'moved', 'elsewhere', 'boom'];
    const listed = routes.map((r) =>
      r.path === '/items/:id'
        ? { ...r, entries: () => ids.map((id) => ({ id })) }
        : r.path === '/old/:id'
          ? { ...r, entries: () => [{ id: '5' }] }
          : r.path === '/members/:id'
            ? { ...r, entries: () => ['ann', 'guest', 'gone', 'broken'].map((id) => ({ id })) }
            : r,
    );
    const lines: string[] = [];
    const renderer = renderersByName[name]?.();
    const report = await prerender({
      routes: createRoutes(listed, { notFound: notFoundView, head }),
      outDir: out,
      origin: ORIGIN,
      shell: SHELL.replace('<SCRIPTS>', ''),
      ...(renderer && { renderer }),
      timeoutMs: RENDER_LIVENESS_MS,
      progress: { write: (text: string) => lines.push(text) },
    });
    rmSync(out, { recursive: true, force: true });
    expect(report.files).toEqual(['index.html', 'items/7/index.html', 'members/ann/index.html']);
    expect(report.failures.map((f) => f.location)).toEqual(['/items/missing', '/items/boom', '/members/gone', '/members/broken']);
    expect(report.failures[0]?.error).toMatch(/^status 404/);
    expect(report.redirects).toEqual([
      { location: '/items/moved', status: 301, to: `${ORIGIN}/items/1` },
      { location: '/items/elsewhere', status: 302, to: `${ORIGIN}/https:/evil.example/items/2` },
      { location: '/old/5', status: 301, to: `${ORIGIN}/items/5` },
      { location: '/members/guest', status: 302, to: `${ORIGIN}/items/1` },
    ]);
    const ok = lines.filter((l) => / ok /.test(l)).map((l) => l.trim().split(' ').pop());
    expect(ok.sort()).toEqual(['/', '/items/7', '/members/ann']);
    expect(lines.filter((l) => / SKIPPED /.test(l))).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/^prerendered 3 of 11 states in \d+ ms; 4 redirects skipped; 4 failed\n$/);
  });
});

describe('redirect routes at clean URLs', () => {
  it('answer 301 with the clean URL of the target, before any render', async () => {
    const handler = createSnapshotHandler({
      routes: table,
      origin: ORIGIN,
      renderer: { render: () => Promise.reject(new Error('no render')) },
    });
    const server = await listen((req, res) => void handler.node(req, res));
    servers.push(server);
    const reply = await request(server.port, '/old/5?x=1');
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe(`${ORIGIN}/items/5?x=1`);
    expect((await request(server.port, '/items/5')).status).toBe(200);
  });
});
