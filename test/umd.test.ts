import { readFileSync } from 'node:fs';
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';

// The browser bundle, loaded the way a page loads it: a classic <script> in a real (happy-dom) document.
const bundles = ['dist/crawlable-router.umd.js', 'dist/crawlable-router.umd.min.js'];

// The plain file is the development build (long error texts), the min file the production one.
describe.each(bundles)('%s', (file) => {
  let window: Window;
  afterEach(async () => {
    await window.happyDOM.close();
  });
  // A page at https://example.com/ that loads the bundle with a <script>, as a site would.
  const load = () => {
    window = new Window({
      url: 'https://example.com/',
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    const script = window.document.createElement('script');
    script.textContent = readFileSync(file, 'utf8');
    window.document.head.appendChild(script);
    const api = (window as unknown as { CrawlableRouter: typeof import('../src/umd.js') }).CrawlableRouter;
    return api;
  };

  it('exposes the CrawlableRouter global with the codec, the route table and the router', () => {
    const api = load();
    expect(typeof api.createRouter).toBe('function');
    expect(api.toUglyUrl('https://example.com/#!/q/C++')).toBe('https://example.com/?_escaped_fragment_=/q/C%2B%2B');
    const routes = api.createRoutes([{ path: '/books/:id', name: 'book' }]);
    expect(routes.match(api.toLocation('/?_escaped_fragment_=/books/caf%25C3%25A9') as string)?.params).toEqual({ id: 'café' });
    expect(() => api.toPrettyUrl('/?_escaped_fragment_=%zz')).toThrow(api.CodecError);
  });

  it('drives a router over the page’s own window, from a pretty URL to a clean one and on by a link', async () => {
    window = new Window({
      url: 'https://example.com/app/#!/books/1',
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    const document = window.document;
    document.body.innerHTML = '<main id="outlet"></main><a id="next" href="/app/#!/books/2">next</a>';
    const script = document.createElement('script');
    script.textContent = readFileSync(file, 'utf8');
    document.head.appendChild(script);
    // A second classic script creates the router the way a page would: no window passed in.
    const app = document.createElement('script');
    app.textContent = `
      var routes = CrawlableRouter.createRoutes([
        { path: '/books/:id', title: function (c) { return 'Book ' + c.params.id; }, render: function (c) { return '<h1>' + c.params.id + '</h1>'; } },
      ], { base: '/app/' });
      window.router = CrawlableRouter.createRouter({ routes: routes, outlet: '#outlet' });
      window.started = window.router.start();
    `;
    document.body.appendChild(app);
    const page = window as unknown as { router: import('../src/client/index.js').Router; started: Promise<boolean> };
    expect(await page.started).toBe(true);
    expect(page.router.mode).toBe('history');
    expect([window.location.pathname, window.location.hash, window.history.length]).toEqual(['/app/books/1', '', 1]);
    expect([document.title, document.getElementById('outlet')?.innerHTML]).toEqual(['Book 1', '<h1>1</h1>']);
    document.getElementById('next')?.dispatchEvent(new window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await page.router.settled();
    expect([window.location.pathname, document.title, document.documentElement.dataset['routerState']]).toEqual([
      '/app/books/2',
      'Book 2',
      'settled',
    ]);
    page.router.destroy();
  });

  it('keeps the long error texts in the development file and only short ones in the min file', async () => {
    const api = load();
    const router = api.createRouter({ routes: api.createRoutes([{ path: '/a' }, { path: '/b' }]), links: false, scroll: false });
    router.beforeEach((to) => (to.location === '/a' ? '/b' : '/a'));
    const error = await router.navigate('/a').then(
      () => null,
      (x: Error) => x,
    );
    expect(error?.message).toBe(file.endsWith('.min.js') ? 'redirect loop' : 'navigation redirected more than 10 times, last to "/b"');
    router.destroy();
  });
});
