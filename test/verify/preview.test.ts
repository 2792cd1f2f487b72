import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/verify/crawl.js';
import { readPage } from '../../src/verify/page.js';
import { previewWarning } from '../../src/verify/preview.js';
import { listen, type Running } from '../server/helpers.js';

describe('previewWarning', () => {
  it.each<[string, head: string, code: string | null]>([
    ['og: tags and no og:image', '<meta property="og:title" content="T"><meta property="og:type" content="book">', 'MISSING_OG_IMAGE'],
    ['only og:site_name, as a table’s defaults may give every state', '<meta property="og:site_name" content="Books">', 'MISSING_OG_IMAGE'],
    ['an empty og:image', '<meta property="og:title" content="T"><meta property="og:image" content="">', 'MISSING_OG_IMAGE'],
    ['an og:image', '<meta property="og:title" content="T"><meta property="og:image" content="https://e.com/i.png">', null],
    ['no og: tag at all, which previews read otherwise', '<title>T</title><meta name="twitter:card" content="summary">', null],
  ])('warns of a page with %s: %s', (_, head, code) => {
    expect(previewWarning('https://e.com/#!/a', readPage(`<html><head>${head}</head></html>`))?.code ?? null).toBe(code);
  });
});

// Pages with and without og: tags and images, one of them a #! state's snapshot, one a 404.
const pages: Record<string, [number, string]> = {
  '/': [200, '<title>Home</title><meta property="og:title" content="Home">'],
  '/with-image': [200, '<title>I</title><meta property="og:title" content="I"><meta property="og:image" content="/i.png">'],
  '/no-og': [200, '<title>N</title>'],
  '/gone': [404, '<title>Gone</title><meta property="og:title" content="Gone">'],
  '/?_escaped_fragment_=/snap': [200, '<title>S</title><link rel="canonical" href="/snap"><meta property="og:title" content="S">'],
};

describe('verify on pages with og: tags and no og:image', () => {
  let server: Running;
  let report: VerifyReport;
  beforeAll(async () => {
    server = await listen((req, res) => {
      const [status, head] = pages[req.url ?? ''] ?? [404, ''];
      const links =
        req.url === '/' ? '<a href="/with-image">i</a> <a href="/no-og">n</a> <a href="/gone">g</a> <a href="/#!/snap">s</a>' : '';
      res.writeHead(status, { 'content-type': 'text/html' }).end(`<!doctype html><html><head>${head}</head><body>${links}</body></html>`);
    });
    report = await verify(`${server.base}/`, { agents: false });
  });
  afterAll(() => server.close());

  it.each<[path: string, warnings: string[]]>([
    ['/', ['MISSING_OG_IMAGE']],
    ['/with-image', []],
    ['/no-og', []],
    // A page not found is shown by no preview.
    ['/gone', []],
    ['/#!/snap', ['MISSING_OG_IMAGE']],
  ])('warns for %s: %j', (path, expected) => {
    expect(report.states.find((s) => s.url === server.base + path)?.warnings.map((w) => w.code)).toEqual(expected);
  });

  it('counts the warnings apart: they are no problem', () => {
    expect(report.states.flatMap((s) => s.problems)).toEqual([]);
    expect(report).toMatchObject({ problems: 0, warnings: 2 });
    expect(report.states[0]?.warnings[0]?.message).toBe(
      `the page of ${server.base}/ has Open Graph tags but no og:image: a link preview shows it without a picture`,
    );
  });
});
