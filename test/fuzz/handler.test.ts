import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { escapeFragment } from '../../src/url/codec.js';
import { createRoutes } from '../../src/routes/table.js';
import { createSnapshotHandler, type SnapshotHandler } from '../../src/server/handler.js';
import { esc } from '../server/helpers.js';
import { fuzz } from './runs.js';

// Any string and any byte sequence as a request target, against the snapshot handler: it never
// throws, never answers 5xx (the hooks here cannot fail, so a 5xx could only come from the input),
// never writes markup from the input into a page, and never lets CR or LF into a header.
// test/server/handler.test.ts proves the same for a handful of hand-picked hostile states.

const ORIGIN = 'https://example.com';
const SHELL =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Books</title>' +
  '<script type="module" src="/app.js"></script></head>\n<body><nav><a href="?_escaped_fragment_=/books/1">first</a></nav>' +
  '<main id="app"><p>Loading…</p></main></body></html>\n';

// Hooks that echo everything the request controls (escaped, as a hook must), ugly links included.
const routes = (base: string) =>
  createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id}`,
        load: async ({ params }) => ({ id: params.id }),
        render: ({ data }) => `<h1>${esc(JSON.stringify(data))}</h1>`,
      },
      {
        path: '/q/:term',
        title: ({ params, query }) => `Search: ${params.term} ${JSON.stringify(query)}`,
        render: ({ params, query, location }) =>
          `<p>${esc(params.term)}</p><p>${esc(JSON.stringify(query))}</p><a href="?_escaped_fragment_=${esc(escapeFragment(location))}">again</a>` +
          `<a href="${esc(location)}">clean</a>`,
      },
      {
        path: '/files/*path',
        title: ({ params }) => (params.path as string[]).join(' / '),
        render: ({ params }) => `<p>${esc(JSON.stringify(params.path))}</p>`,
      },
    ],
    { base, notFound: { title: 'Not found', render: ({ location }) => `<h1>Nothing at ${esc(location)}</h1>` } },
  );

const handlers = new Map<string, SnapshotHandler>();
function handlerFor(base: string, mode: 'history' | 'hashbang'): SnapshotHandler {
  const key = `${base} ${mode}`;
  let handler = handlers.get(key);
  if (!handler) {
    handler = createSnapshotHandler({
      routes: routes(base),
      origin: ORIGIN,
      base,
      mode,
      shell: SHELL,
      queue: { maxWaiting: Infinity },
      onError: () => {},
    });
    handlers.set(key, handler);
  }
  return handler;
}

const HOSTILE = [
  '"><img src=x onerror=alert(1)>',
  '</title><script>alert(1)</script>',
  '<!--',
  ']]>',
  "'",
  '\r\n',
  'Set-Cookie: x=1',
  '\0',
  '%',
  '%zz',
  '%C3',
  '%25',
  '%2F',
  '+',
  '&',
  '=',
  '#',
  '#!',
  '?',
  '/',
  '//evil.test',
  '\\',
  '..',
  ' ',
  'é',
  '😀',
  '\uD800',
  'javascript:alert(1)',
  '_escaped_fragment_',
];
const hostileText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...HOSTILE, 'a', '1'), maxLength: 10 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 30 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HOSTILE), fc.integer({ min: 100, max: 2500 })).map(([unit, n]) => unit.repeat(n)) },
);
// A byte sequence written as escapes, or raw (each byte one character, as Node's parser reads a target).
const bytes = fc.uint8Array({ maxLength: 40 });
const asEscapes = (b: Uint8Array) => [...b].map((x) => '%' + x.toString(16).padStart(2, '0')).join('');
const asLatin1 = (b: Uint8Array) => String.fromCharCode(...b);
// What a well-formed state holds in place of a lone surrogate.
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** Request targets of every shape: ugly URLs of any value, valid ones reaching a render, malformed queries, anything. */
const target = fc.oneof(
  // The escaped fragment is any text, or any bytes.
  hostileText.map((s) => `?_escaped_fragment_=${s}`),
  bytes.map((b) => `?_escaped_fragment_=${asEscapes(b)}`),
  bytes.map((b) => `?_escaped_fragment_=${asLatin1(b)}`),
  // Valid ugly URLs of hostile states: they reach the hooks and the page.
  fc
    .tuple(fc.constantFrom('/q/', '/files/', '/books/', '/', '/nope/'), hostileText, hostileText, fc.boolean())
    .map(([path, value, query, encoded]) => {
      const state =
        path + (encoded ? encodeURIComponent(wellFormed(value)) : wellFormed(value)) + '?t=' + encodeURIComponent(wellFormed(query));
      return `?_escaped_fragment_=${escapeFragment(state)}`;
    }),
  // The meta-tag form, with a hostile path.
  hostileText.map((s) => `${encodeURIComponent(wellFormed(s))}?_escaped_fragment_=`),
  // The parameter anywhere, any number of times, among other parameters.
  fc
    .array(fc.oneof(fc.constant('_escaped_fragment_'), fc.constant('_escaped_fragment_='), hostileText), { maxLength: 4 })
    .map((params) => `x?${params.join('&')}`),
  // Anything at all.
  hostileText,
  bytes.map(asLatin1),
);

const request = fc.record({
  base: fc.constantFrom('/', '/app/'),
  mode: fc.constantFrom('history' as const, 'hashbang' as const),
  method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST'),
  target,
  acceptEncoding: fc.constantFrom(undefined, 'gzip', '*', 'gzip;q=0', 'br, gzip;q=0.5', ';;;q=', 'x'.repeat(200)),
  ifNoneMatch: fc.constantFrom(undefined, '*', '"x"', 'W/"', '"'.repeat(50), 'junk'),
});

// What the shell, the hooks above and the error pages write (and the marks of the state's head
// tags, data-router-head, and of the shell's title, data-router-title): any other element or
// attribute came from the input.
const ELEMENTS = new Set(['html', 'head', 'body', 'meta', 'title', 'link', 'script', 'nav', 'a', 'main', 'p', 'h1']);
const ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'rel',
  'href',
  'type',
  'src',
  'id',
  'data-router-head',
  'data-router-title',
]);
const HEADERS = new Set([
  'content-type',
  'cache-control',
  'x-content-type-options',
  'vary',
  'last-modified',
  'etag',
  'content-length',
  'content-encoding',
  'retry-after',
]);

type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; content?: Node };

/** Every element and attribute of a page, and where its links point. */
function inventory(html: string) {
  const found = { elements: new Set<string>(), attributes: new Set<string>(), scripts: [] as string[], hrefs: [] as string[] };
  const walk = (n: Node) => {
    if (n.tagName) {
      found.elements.add(n.tagName);
      for (const a of n.attrs ?? []) found.attributes.add(a.name);
      const attr = (name: string) => n.attrs?.find((a) => a.name === name)?.value;
      if (n.tagName === 'script') found.scripts.push(attr('src') ?? '(inline)');
      const href = attr('href');
      if (href !== undefined) found.hrefs.push(href);
    }
    (n.childNodes ?? []).forEach(walk);
    if (n.content) walk(n.content);
  };
  walk(parse(html) as unknown as Node);
  return found;
}

/** The checks every answer passes, whatever was asked. */
function expectSafe(answer: { status: number; headers: [string, string][]; body: Buffer | null }, method: string) {
  expect([200, 304, 400, 404]).toContain(answer.status);
  for (const [name, value] of answer.headers) {
    expect(HEADERS).toContain(name.toLowerCase());
    expect(value).not.toMatch(/[\r\n\0]/);
  }
  if (answer.status === 304 || method === 'HEAD') {
    expect(answer.body?.byteLength ?? 0).toBe(0);
    return;
  }
  const gzip = answer.headers.some(([name, value]) => name.toLowerCase() === 'content-encoding' && value === 'gzip');
  const html = (gzip ? gunzipSync(answer.body as Buffer) : (answer.body as Buffer)).toString('utf8');
  const page = inventory(html);
  expect([...page.elements].filter((e) => !ELEMENTS.has(e))).toEqual([]);
  expect([...page.attributes].filter((a) => !ATTRIBUTES.has(a))).toEqual([]);
  expect(page.scripts.filter((s) => s !== '/app.js')).toEqual([]);
  // Links stay on the site: origin-relative, on the configured origin, or the hook's own query link.
  for (const href of page.hrefs) expect(href).toMatch(/^(?:\/(?!\/)|https:\/\/example\.com\/|\?_escaped_fragment_=|\/$)/);
  expect(html).not.toMatch(/<img|<script>alert|<!--/i);
}

describe('the snapshot handler under any request', () => {
  it('answers fetch without a throw, a 5xx, markup from the input, or CR/LF in a header', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = new Headers();
        if (r.acceptEncoding !== undefined) headers.set('accept-encoding', r.acceptEncoding);
        if (r.ifNoneMatch !== undefined) headers.set('if-none-match', r.ifNoneMatch);
        const response = await handlerFor(r.base, r.mode).fetch(
          new Request(`http://localhost${r.base}${r.target}`, { method: r.method, headers }),
        );
        if (response === null) return;
        expectSafe({ status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) }, r.method);
      }),
      fuzz(501, 800, 2),
    );
  });

  it('answers the node adapter the same for raw targets, which no URL parser has cleaned', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let answer: { status: number; headers: [string, string][]; body: Buffer | null } | null = null;
        let passed = false;
        const req = {
          url: r.base + r.target,
          method: r.method,
          headers: { 'accept-encoding': r.acceptEncoding, 'if-none-match': r.ifNoneMatch },
        } as unknown as IncomingMessage;
        const res = {
          writeHead(status: number, headers: Record<string, string>) {
            answer = { status, headers: Object.entries(headers), body: null };
            return res;
          },
          end(body?: Uint8Array) {
            if (answer) answer.body = body ? Buffer.from(body) : null;
          },
        } as unknown as ServerResponse;
        await handlerFor(r.base, r.mode).node(req, res, (error?: unknown) => {
          if (error !== undefined) throw error;
          passed = true;
        });
        if (passed) expect(answer).toBeNull();
        else expectSafe(answer as unknown as { status: number; headers: [string, string][]; body: Buffer | null }, r.method);
      }),
      fuzz(502, 500, 2),
    );
  });
});
