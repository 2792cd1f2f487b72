import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import type { SnapshotHandler } from '../../../src/server/index.js';
import type { RenderJob, SnapshotRenderer } from '../../../src/server/render/render.js';
import { listen, request } from '../helpers.js';
import { RENDER_LIVENESS_MS } from '../../liveness.js';

// Renders never nest (issue 43): the app's API is the snapshot server itself, and a page fetches
// other states' ugly URLs. Each of those requests reached the handler, which started (or joined) a
// render that waited for a queue slot its ancestor held: the queue stood still until timeouts.
// The built package, as in headless.test.ts: the page processes start from dist/.
const { createSnapshotHandler, headlessRenderer } =
  (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');

const SHELL =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shell</title><meta name="fragment" content="!">' +
  '<script type="module" src="/app.js"></script></head><body><div id="app"></div></body></html>';

// Each state's page asks the server for other states in both ugly forms, for a state a crawler has
// had rendered already (/books/9, by its ugly URL: its own when the page is /books/9's), and for a
// clean URL: the gate's fetch says `User-Agent: node`, a bot to `isbot`, so a snapshot's URL too. The
// page shows each answer's status and Cache-Control.
const APP = `
  const id = Number(location.pathname.split('/')[2]);
  const asked = ['/?_escaped_fragment_=/books/' + (id + 1), '/books/' + (id + 2) + '?_escaped_fragment_=', '/?_escaped_fragment_=/books/9', '/books/' + (id + 1)];
  const seen = [];
  for (const url of asked) {
    const answer = await fetch(url);
    seen.push(answer.status + ' ' + answer.headers.get('cache-control'));
  }
  document.getElementById('app').textContent = seen.join(' | ');`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-nested-'));
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(path.join(dir, 'app', 'index.html'), SHELL);
  writeFileSync(path.join(dir, 'app', 'app.js'), APP);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const appText = (html: string) => /<div id="app">([^<]*)<\/div>/.exec(html)?.[1];

describe('a page whose API is the snapshot server itself', () => {
  it.each([1, 2])(
    'renders never nest: a page fetching other states’ ugly URLs from its own server gets 508 or the cached snapshot, with %i render(s) at once',
    async (concurrency) => {
      // The handler answers on this server, which is the renderer's upstream: made once its port is known.
      let handler: SnapshotHandler | undefined;
      const server = await listen((req, res) => void handler?.node(req, res, () => res.writeHead(404).end()));
      // Liveness only: a render's page process may take seconds to start on a loaded machine.
      const headless = headlessRenderer({ root: path.join(dir, 'app'), timeoutMs: RENDER_LIVENESS_MS, maxPages: 2, upstream: server.base });
      // Counts the renders the handler starts.
      const started: string[] = [];
      const counting: SnapshotRenderer = {
        render(job: RenderJob) {
          started.push(job.location);
          return headless.render(job);
        },
        build: headless.build,
      };
      try {
        handler = createSnapshotHandler({
          routes: createRoutes([{ path: '/' }, { path: '/books/:id' }]),
          origin: 'https://example.com',
          shell: SHELL,
          renderer: counting,
          queue: { concurrency },
          timeoutMs: RENDER_LIVENESS_MS,
          onError: () => {},
        });
        const first = await request(server.port, '/?_escaped_fragment_=/books/9');
        expect(first.status).toBe(200);
        // /books/9's own state by its ugly URL is in flight (its ancestor's render): not waited for.
        expect(appText(first.body)).toBe('508 no-store | 508 no-store | 508 no-store | 508 no-store');
        const second = await request(server.port, '/?_escaped_fragment_=/books/1');
        expect(second.status).toBe(200);
        expect(appText(second.body)).toBe('508 no-store | 508 no-store | 200 public, max-age=300 | 508 no-store');
        // Asked again: the cache answers, nothing renders.
        expect((await request(server.port, '/?_escaped_fragment_=/books/1')).body).toBe(second.body);
        // One render per state the crawler asked for, none for the page's requests.
        expect(started).toEqual(['/books/9', '/books/1']);
      } finally {
        await server.close();
        await headless.close();
      }
    },
  );
});
