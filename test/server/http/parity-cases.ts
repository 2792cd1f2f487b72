// The route table and the requests of the front-door parity trial (parity.test.ts): each outcome
// a route can have, and requests a bot, a browser or an attacker sends, by every method.
import { notFound, redirect } from '../../../src/routes/outcome.js';
import { createRoutes } from '../../../src/routes/table.js';
import type { CleanUrls } from '../../../src/server/handler.js';
import { esc } from '../helpers.js';

export const ORIGIN = 'https://example.com';
export const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const HOSTILE = `"><script>alert(1)</script>\r\nX-Evil: 1`;
export const SECRET = 'at /work/secret/internal.ts:12:3';
export const SHELL =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Books</title><script type="module" src="/app/main.js"></script></head>\n' +
  '<body><main id="app"><p>Loading…</p></main></body></html>\n';

/** The one route table: a page, a load that gives data, throws notFound() or redirect(), a redirect route, a failing and a slow load. */
export function table() {
  return createRoutes(
    [
      { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
      {
        path: '/books/:id',
        title: ({ params }) => `Book ${params.id} ${HOSTILE}`,
        head: ({ params }) => ({ meta: [{ name: 'description', content: `About ${String(params.id)} ${HOSTILE}` }] }),
        load: ({ params }) => {
          if (params.id === '0') throw notFound();
          if (params.id === 'moved') throw redirect(`/books/1?from=${HOSTILE}`, 301);
          return { id: String(params.id), long: 'text '.repeat(400) };
        },
        render: ({ data }) => `<h1>${esc((data as { id: string }).id)}</h1><p>${(data as { long: string }).long}</p>`,
      },
      { path: '/book/:id', redirect: '/books/:id' },
      {
        path: '/boom',
        load: () => {
          throw new Error(`internal failure ${SECRET}`);
        },
      },
      {
        path: '/slow',
        load: ({ signal }) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 5000);
            signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)));
          }),
      },
    ],
    { base: '/app/', notFound: { title: 'Not found', render: () => '<h1>Nothing here</h1>' } },
  );
}

/** One request, as each front door is sent it. */
export interface Case {
  method: string;
  target: string;
  headers: [string, string][];
}

export const BOT_UA: [string, string] = ['User-Agent', BOT];
const TARGETS = [
  // ugly URLs in both flavours, clean URLs, each outcome
  ...['/', '/books/1', '/books/0', '/nowhere', '/books/moved', '/book/7', '/boom', '/slow'].flatMap((state) => [
    `/app/?_escaped_fragment_=${state}`,
    `/app${state}?_escaped_fragment_=`,
    `/app${state}`,
  ]),
  '/app',
  // not the handler's: outside base, a file beside the app; and a file inside base, which is a state
  '/other',
  '/assets/main.js',
  '/app/main.js',
  // paths are case-sensitive: Express routes `/APP` to a mount at `/app`, the handler passes it on
  '/APP/books/1',
  '/App/?_escaped_fragment_=/books/1',
  // percent faults, markup, CR/LF and NUL as escapes
  '/app/?_escaped_fragment_=%ZZ',
  '/app/?_escaped_fragment_=%C0%AF',
  '/app/?_escaped_fragment_=%',
  '/app/books/%ZZ',
  '/app/books/%C0%AF',
  '/app/books/%C0%AF?_escaped_fragment_=',
  '/app/?_escaped_fragment_=/books/%253Cscript%253E',
  '/app/books/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '/app/book/%22%3E%3Cscript%3E%0D%0AX-Evil:1',
  '/app/?_escaped_fragment_=/book/%2522%253E%253Cx%253E%250D%250AX-Evil:1',
  '/app/books/%00',
  '/app/?_escaped_fragment_=%3Cscript%3Ealert(1)%3C/script%3E%ZZ',
  '/app/?_escaped_fragment_=<script>alert(1)</script>%C0',
  '/app/<script>alert(1)</script>?_escaped_fragment_=%E0%80',
  '/app/books/<script>alert(1)</script>',
  '/app/?_escaped_fragment_=/books/%0D%0AX-Evil:1',
  // dot segments, raw and encoded; other hosts; backslashes
  '/app/../app/books/1',
  '/app/books/../books/1',
  '/app/%2e%2e/app/books/1',
  '/app/%2E%2E/%2e%2e/etc/passwd',
  '/app/?_escaped_fragment_=/../../etc/passwd',
  '/app/?_escaped_fragment_=%2F..%2F..%2Fetc',
  '//evil.example/app/books/1',
  '//evil.example',
  '/app//evil.example/books/1',
  '/app/?_escaped_fragment_=//evil.example/books/1',
  '/app/book/%2F%2Fevil.example',
  '/app\\books\\1',
  '/app/books\\1',
  '/app/book/%5C%5Cevil.example',
  'http://evil.example/app/books/1',
  'HTTP://evil.example/app/?_escaped_fragment_=/books/1',
  // spellings the URL parser rewrites for a web Request
  "/app/books/1?a='x'",
  '/app/books/{1}|^`',
  '/app/books/1?',
  '/app/?_escaped_fragment_=/books/1#x',
  // long and repeated
  '/app/books/1?' + 'q=x&'.repeat(3000),
  '/app/' + 'a/'.repeat(4000),
  '/app/?_escaped_fragment_=/' + 'a'.repeat(8000),
  '/app/' + '%C3%A9'.repeat(20_000),
  '/app/?_escaped_fragment_=/books/1&_escaped_fragment_=/books/2',
  '/app/?_escaped_fragment_=/books/1&_escaped_fragment_=',
  '/app/books/1?_escaped_fragment_=&_escaped_fragment_=',
  // raw bytes Node's parser refuses before any handler (a web Request gets them escaped)
  '/app/books/\0',
  '/app/books/1\tx',
  '/app/books/é',
  '*',
];

/** Every request, each to be sent to every front door. */
export function cases(): Case[] {
  const all: Case[] = [];
  const agents: [string, string][][] = [[BOT_UA], [['User-Agent', BROWSER]], []];
  for (const target of TARGETS)
    for (const headers of agents)
      for (const method of ['GET', 'HEAD'])
        // Each render of /slow waits out timeoutMs: a bot's two requests show its 504 and its HEAD.
        if (!target.includes('/slow') || headers[0] === BOT_UA) all.push({ method, target, headers });
  for (const target of ['/app/books/1', '/app/?_escaped_fragment_=/books/1', '/other'])
    for (const method of ['POST', 'OPTIONS', 'PUT', 'DELETE']) all.push({ method, target, headers: [BOT_UA] });
  const later = new Date(Date.now() + 60_000).toUTCString();
  const earlier = new Date(Date.now() - 86_400_000).toUTCString();
  for (const target of ['/app/books/1', '/app/?_escaped_fragment_=/books/1', '/app/books/0', '/app/book/7', '/app/boom']) {
    const more: [string, string][][] = [
      [['Host', 'evil.example']],
      [
        ['X-Forwarded-Host', 'evil.example'],
        ['Forwarded', 'host=evil.example'],
        ['X-Forwarded-Proto', 'http'],
      ],
      [['Accept-Encoding', 'gzip']],
      [['Accept-Encoding', 'gzip;q=0, *']],
      [['If-Modified-Since', later]],
      [['If-Modified-Since', earlier]],
      [['If-Modified-Since', 'yesterday']],
      // two field lines of a field that holds one value (RFC 9110 §5.3)
      [
        ['If-Modified-Since', later],
        ['If-Modified-Since', earlier],
      ],
      [['If-None-Match', '*']],
      [['If-None-Match', '"nope", W/"nope"']],
      [
        ['If-None-Match', '"nope"'],
        ['If-Modified-Since', later],
      ],
    ];
    for (const headers of more) {
      all.push({ method: 'GET', target, headers: [BOT_UA, ...headers] });
      all.push({ method: 'HEAD', target, headers: [BOT_UA, ...headers] });
    }
    all.push({ method: 'GET', target, headers: [['User-Agent', BROWSER], BOT_UA] });
    all.push({ method: 'GET', target, headers: [BOT_UA, ['User-Agent', BROWSER]] });
    all.push({ method: 'GET', target, headers: [['User-Agent', `${BOT} "><script>alert(1)</script>`]] });
    all.push({ method: 'GET', target, headers: [['User-Agent', 'x'.repeat(10_000)]] });
    all.push({ method: 'GET', target, headers: [['User-Agent', 'Googlebot\rX-Evil: 1']] });
  }
  return all;
}

// The status a bot's GET gets for each state, as an ugly URL (both flavours) and as a clean URL
// (the shell's where cleanUrls is 'shell': 200 for a route that matches, its load never run).
const STATUS: Record<string, [ugly: number, clean: number, shell: number]> = {
  '/': [200, 200, 200],
  '/books/1': [200, 200, 200],
  '/books/0': [404, 404, 200],
  '/nowhere': [404, 404, 404],
  '/books/moved': [301, 301, 200],
  '/book/7': [301, 301, 301],
  '/boom': [500, 500, 200],
  '/slow': [504, 504, 200],
};

/** The status a case must get, where the table above says. */
export function expectedStatus({ method, target, headers }: Case, cleanUrls: CleanUrls): number | undefined {
  if (method !== 'GET' || headers.length !== 1 || headers[0] !== BOT_UA) return undefined;
  if (/^\/app\/\?_escaped_fragment_=(%ZZ|%C0%AF|%)$/.test(target)) return 400;
  for (const [state, [ugly, clean, shell]] of Object.entries(STATUS)) {
    if (target === `/app/?_escaped_fragment_=${state}` || target === `/app${state}?_escaped_fragment_=`) return ugly;
    if (target === `/app${state}`) return cleanUrls === 'shell' ? shell : clean;
  }
  return undefined;
}
