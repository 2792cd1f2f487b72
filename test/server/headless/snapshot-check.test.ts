import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { checkSnapshot, MAX_SNAPSHOT_DEPTH } from '../../../src/server/headless/snapshot-check.js';
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

  it('reads the rules where the parse puts them: a second <html> tag, a template, a table, foreign content', () => {
    expect(checkSnapshot(page('', '<html><html data-router-redirect="/x">'), { status: 200 })).toMatch(/settled attributes/);
    expect(checkSnapshot(page('<template><meta name="fragment" content="!"></template>'), { status: 200 })).toMatch(/meta fragment/);
    expect(checkSnapshot(page('') + '<table><link rel="canonical" href="/a"></table>', { status: 404 })).toMatch(/canonical/);
    expect(checkSnapshot(page('') + '<svg><meta name="robots" content="noindex"></svg>', { status: 200, noindex: true })).toBeNull();
    expect(checkSnapshot(page('<!-- <meta name="fragment" content="!"> -->'), { status: 200 })).toBeNull();
    expect(checkSnapshot(page('') + '<textarea><html data-router-state="busy"></textarea>', { status: 200 })).toBeNull();
    // A <frameset> takes the body out of the document, and what it held with it.
    const framed = '<b><link rel="canonical" href="/a"><meta name="robots" content="noindex"><frameset>';
    expect(checkSnapshot(framed, { status: 404 })).toBeNull();
    expect(checkSnapshot(framed, { status: 200, noindex: true })).toMatch(/says no noindex/);
  });

  // A page process owned by its page's script sends what bytes it likes. 5 MiB of `<b>` took parse5's
  // own tree 4 s of the server's event loop and 1 GB (a server with a 512 MB heap limit died of it).
  it('refuses a snapshot of 5 MiB of <b> that nests past MAX_SNAPSHOT_DEPTH, and passes one nested just within it', () => {
    const shaped = page('') + '<b>'.repeat((5 * 1024 * 1024) / 3);
    expect(checkSnapshot(shaped, { status: 200 })).toBe(`it nests elements more than ${MAX_SNAPSHOT_DEPTH} deep`);
    // <html>, <body>, then the rest.
    const within = page('') + '<span>'.repeat(MAX_SNAPSHOT_DEPTH - 2) + '<!-- the deepest -->';
    expect(checkSnapshot(within, { status: 200 })).toBeNull();
    expect(checkSnapshot(within + '<i>', { status: 200 })).toMatch(/nests elements more than/);
  });

  // The adoption agency moves a deep element into a copy of a formatting element it has just made,
  // before that copy is in the tree: the depth taken then was the copy's, none (0).
  it('counts the depth of an element the adoption agency moves into a copy not yet in the tree', () => {
    const deep = '<div>'.repeat(MAX_SNAPSHOT_DEPTH - 100) + '<b><i><div></b>';
    const moved = page('') + deep.repeat(3) + '<meta name="fragment" content="!">';
    expect(checkSnapshot(moved, { status: 200 })).toBe(`it nests elements more than ${MAX_SNAPSHOT_DEPTH} deep`);
  });

  // Each rule-breaking element out of the document (a <frameset> took the body out) was followed up
  // its parents afresh: 150,000 of them 8,000 deep held the event loop 17 s in one 5 MiB snapshot.
  it('follows each parent once for all the elements out of the document that break a rule', () => {
    const framed = '<!DOCTYPE html><html><head></head>' + '<div>'.repeat(2000) + '<meta name="fragment" content="!">'.repeat(2000);
    // The check's maps are read a few times a node it reads, not once a node and parent.
    const reads = vi.spyOn(WeakMap.prototype, 'get');
    try {
      expect(checkSnapshot(framed + '<frameset>', { status: 200 })).toBeNull();
      expect(reads.mock.calls.length).toBeLessThan(50_000);
    } finally {
      reads.mockRestore();
    }
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
