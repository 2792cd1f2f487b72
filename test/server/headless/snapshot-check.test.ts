import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { checkSnapshot } from '../../../src/server/headless/snapshot-check.js';
import { RENDER_LIVENESS_MS } from '../../liveness.js';

// The server does not take a page process's word for what every snapshot keeps: it reads the HTML again.

const page = (head: string, html = '<html>') => `<!DOCTYPE html>\n${html}<head><title>t</title>${head}</head><body><p>x</p></body></html>`;

describe('checkSnapshot', () => {
  it('passes what an honest page process writes: a 200 with its canonical link, a 404 with none, a noindex state that says so', () => {
    expect(checkSnapshot(page('<link rel="canonical" href="https://example.com/a">'), { status: 200 })).toBeNull();
    expect(checkSnapshot(page(''), { status: 404 })).toBeNull();
    expect(checkSnapshot(page('<meta name="robots" content="nofollow, noindex">'), { status: 200, noindex: true })).toBeNull();
    expect(checkSnapshot(page('<meta name="ROBOTS" content="none">'), { status: 200, noindex: true })).toBeNull();
  });

  it("names the rule a snapshot breaks: settled attributes, a meta fragment tag, a canonical link off 200, a noindex route's state without noindex", () => {
    expect(checkSnapshot(page('', '<html data-router-state="settled">'), { status: 200 })).toMatch(/settled attributes/);
    expect(checkSnapshot(page('', '<html data-router-status="404">'), { status: 200 })).toMatch(/settled attributes/);
    expect(checkSnapshot(page('<meta name="fragment" content="!">'), { status: 200 })).toMatch(/meta fragment/);
    expect(checkSnapshot(page('<link rel="canonical" href="https://example.com/a">'), { status: 404 })).toMatch(
      /404 state has a canonical/,
    );
    expect(checkSnapshot(page('<meta name="robots" content="index">'), { status: 200, noindex: true })).toMatch(/noindex/);
    expect(checkSnapshot(page(''), { status: 200, noindex: true })).toMatch(/noindex/);
  });
});

describe("a page that replaces happy-dom's own methods so that its serialiser leaves what it removes", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cr-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails its render (500, RENDER_FAILED) instead of giving a snapshot that says it is settled', async () => {
    const { createSnapshotHandler, headlessRenderer } =
      (await import('crawlable-router/server')) as typeof import('../../../src/server/index.js');
    mkdirSync(path.join(dir, 'app'));
    // The page's own script, as a DOM-XSS could run it: every element's removeAttribute does nothing.
    const script = `let p = document.documentElement; while (p && !Object.hasOwn(p, 'removeAttribute')) p = Object.getPrototypeOf(p);
      p.removeAttribute = function () {};
      document.documentElement.setAttribute('data-router-state', 'settled');
      document.getElementById('app').textContent = 'drawn';`;
    writeFileSync(
      path.join(dir, 'app', 'index.html'),
      `<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app"></div><script>${script}</script></body></html>`,
    );
    const renderer = headlessRenderer({ root: path.join(dir, 'app'), timeoutMs: RENDER_LIVENESS_MS });
    const errors: unknown[] = [];
    const handler = createSnapshotHandler({
      timeoutMs: RENDER_LIVENESS_MS,
      routes: createRoutes([{ path: '/*rest' }]),
      origin: 'https://example.com',
      renderer,
      cache: false,
      onError: (error) => void errors.push(error),
    });
    try {
      const answer = await handler.fetch(new Request('https://example.com/?_escaped_fragment_=/a'));
      expect(answer?.status).toBe(500);
      expect(errors).toEqual([
        expect.objectContaining({
          code: 'RENDER_FAILED',
          message: expect.stringMatching(/breaks the renderer's rules \(the router’s settled attributes/),
        }),
      ]);
    } finally {
      await renderer.close();
    }
  });
});
