import { readFileSync } from 'node:fs';
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';

// The browser bundle, loaded the way a page loads it: a classic <script> in a real (happy-dom) document.
const bundles = ['dist/crawlable-router.umd.js', 'dist/crawlable-router.umd.min.js'];

describe.each(bundles)('%s', (file) => {
  let window: Window;
  afterEach(async () => {
    await window.happyDOM.close();
  });

  it('exposes the CrawlableRouter global with the codec and the route table', () => {
    window = new Window({ url: 'https://example.com/', settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true } });
    const script = window.document.createElement('script');
    script.textContent = readFileSync(file, 'utf8');
    window.document.head.appendChild(script);
    const api = (window as unknown as { CrawlableRouter: typeof import('../src/index.js') }).CrawlableRouter;
    expect(api.toUglyUrl('https://example.com/#!/q/C++')).toBe('https://example.com/?_escaped_fragment_=/q/C%2B%2B');
    const routes = api.createRoutes([{ path: '/books/:id', name: 'book' }]);
    expect(routes.match(api.toLocation('/?_escaped_fragment_=/books/caf%25C3%25A9') as string)?.params).toEqual({ id: 'café' });
    expect(() => api.toPrettyUrl('/?_escaped_fragment_=%zz')).toThrow(api.CodecError);
  });
});
