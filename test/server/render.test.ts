import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../src/routes.js';
import { canonicalLink, hooksRenderer, type RenderJob } from '../../src/server/render.js';
import { parseShell } from '../../src/server/shell.js';

const settings = { origin: 'https://example.com', base: '/', mode: 'hashbang' as const };
const shell = parseShell('<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app">shell</div></body></html>', { outlet: '#app', links: { ...settings, page: 'https://example.com/' } });
const routes = createRoutes(
  [
    { path: '/plain' },
    { path: '/titled', title: 'A "title" <b>', render: () => '<a href="?_escaped_fragment_=/plain">p</a>' },
    { path: '/data/:id', load: async ({ params, signal }) => ({ id: params.id, aborted: signal.aborted }), title: ({ data }) => `Data ${(data as { id: string }).id}`, render: ({ data }) => `<pre>${JSON.stringify(data)}</pre>` },
  ],
  { notFound: { title: 'Missing', render: () => '<h1>404</h1>' } },
);

function job(location: string): RenderJob {
  const match = routes.resolve(location);
  return { location, url: `https://example.com/#!${location}`, canonical: `https://example.com/#!${location}`, match, notFound: !match || match.notFound, settings, signal: new AbortController().signal };
}

describe('hooksRenderer', () => {
  it.each([
    ['/plain', '<!DOCTYPE html><html><head><title>Shell</title><link rel="canonical" href="https://example.com/#!/plain"></head><body><div id="app">shell</div></body></html>'],
    ['/titled', '<!DOCTYPE html><html><head><title>A &quot;title&quot; &lt;b&gt;</title><link rel="canonical" href="https://example.com/#!/titled"></head><body><div id="app"><a href="/#!/plain">p</a></div></body></html>'],
    ['/data/7', '<!DOCTYPE html><html><head><title>Data 7</title><link rel="canonical" href="https://example.com/#!/data/7"></head><body><div id="app"><pre>{"id":"7","aborted":false}</pre></div></body></html>'],
    ['/nope', '<!DOCTYPE html><html><head><title>Missing</title></head><body><div id="app"><h1>404</h1></div></body></html>'],
  ])('renders %s with its hooks into the shell', async (location, html) => {
    expect((await hooksRenderer(shell).render(job(location))).html).toBe(html);
  });

  it('stops after load when the signal was aborted meanwhile', async () => {
    const controller = new AbortController();
    const slow = createRoutes([{ path: '/x', load: async () => controller.abort(new Error('timed out')), render: () => 'never' }]);
    const match = slow.resolve('/x');
    await expect(hooksRenderer(shell).render({ ...job('/x'), match, notFound: false, signal: controller.signal })).rejects.toThrow('timed out');
  });

  it('renders the bare shell with no canonical link when nothing matches and there is no notFound route', async () => {
    const bare = { ...job('/nope'), match: null, notFound: true };
    expect((await hooksRenderer(shell).render(bare)).html).toBe('<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app">shell</div></body></html>');
    expect(canonicalLink(bare)).toBe('');
  });
});
