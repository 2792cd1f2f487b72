import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { redirect } from '../../../src/routes/outcome.js';
import { createRoutes } from '../../../src/routes/table.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';
import { escapeHtml } from '../../../src/server/html/escape.js';
import { errorPage } from '../../../src/server/http/pages.js';

describe('errorPage', () => {
  it.each([
    [400, 'bad "%zz" in "<img onerror=x>"', '400 Bad Request'],
    [500, '</script><script>alert(1)</script>', '500 Internal Server Error'],
    [504, 'slow', '504 Gateway Timeout'],
    // limitClient's refusal: its page named '429 Error', which reads as a fault of the server.
    [429, 'later', '429 Too Many Requests'],
    [503, 'busy', '503 Service Unavailable'],
  ])('writes a %i page with the message escaped', (status, message, title) => {
    const page = errorPage(status, message);
    expect(page).toContain(`<title>${title}</title>`);
    expect(page).toContain(escapeHtml(message));
    expect(page).not.toContain('<img');
    expect(page).not.toContain('</script><script>');
  });
});

describe('the pages the library writes, through the handler', () => {
  // The shell's language, else English: a validator (and a screen reader) needs one on every page.
  const shell = (lang: string) =>
    `<!DOCTYPE html>\n<html${lang}><head><meta charset="utf-8"><title>App</title></head><body><main id="app"></main></body></html>\n`;
  const routes = createRoutes([
    { path: '/', render: () => 'home' },
    { path: '/old', redirect: '/' },
    { path: '/moved', load: () => Promise.reject(redirect('/', 302)) },
    { path: '/broken', load: () => Promise.reject(new Error('down')) },
    { path: '/slow', load: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) },
  ]);

  it.each([
    [' lang="fr-CA"', 'fr-CA'],
    ['', 'en'],
    [' lang=" "', 'en'],
    [" lang='\"><script>x</script>'", '&quot;&gt;&lt;script&gt;x&lt;/script&gt;'],
  ])('writes 301, 302, 400, 500 and 504 pages as valid HTML with <html lang> (shell <html%s>)', async (attr, lang) => {
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com', shell: shell(attr), timeoutMs: 200, onError: () => {} });
    const bot = { 'User-Agent': 'Googlebot/2.1' };
    for (const [target, status] of [
      ['/old', 301],
      ['/?_escaped_fragment_=/moved', 302],
      ['/?_escaped_fragment_=%zz', 400],
      ['/?_escaped_fragment_=/broken', 500],
      ['/?_escaped_fragment_=/slow', 504],
    ] as const) {
      const response = await handler.fetch(new Request('http://127.0.0.1' + target, { headers: bot }));
      expect(response?.status).toBe(status);
      const html = (await response?.text()) ?? '';
      expect(html).toMatch(new RegExp(`^<!DOCTYPE html>\\n<html lang="${lang.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
      const errors: string[] = [];
      parse(html, { onParseError: (error) => errors.push(error.code) });
      expect(errors).toEqual([]);
    }
  });

  it('renders a 404 into the default shell, which says it is English', async () => {
    const handler = createSnapshotHandler({ routes, origin: 'https://example.com' });
    const response = await handler.fetch(new Request('http://127.0.0.1/?_escaped_fragment_=/nowhere'));
    expect(response?.status).toBe(404);
    expect(await response?.text()).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
  });
});
