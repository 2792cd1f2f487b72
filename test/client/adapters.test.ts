import fc from 'fast-check';
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdapter, windowNav } from '../../src/client/adapters.js';
import { uglyState } from '../../src/url/codec.js';
import { FRAGMENT_API, NO_API, PATH_API } from '../../src/client/steps.js';
import { toUrl, type UrlMode } from '../../src/index.js';
import { normalizeLocation } from '../../src/url/location.js';
import { modes, setup, type Setup } from './fixture.js';

const adapters = { history: createAdapter('history', '/app/', uglyState), hashbang: createAdapter('hashbang', '/app/', uglyState) };

describe('the history adapter', () => {
  it.each([
    ['https://example.com/app/books/1', '/books/1', true],
    ['/app/books/1?tab=x#reviews', '/books/1?tab=x#reviews', true],
    ['/app', '/', true],
    ['/app/#!/books/1', '/books/1', false],
    ['/app/books/9#!/books/1', '/books/1', false],
    ['/app/?_escaped_fragment_=/books/1', '/books/1', false],
    ['/app/books/1?_escaped_fragment_=', '/books/1', false],
    ['/app/#!//evil.test/x', '/evil.test/x', false],
  ])('reads %s as %s (in its form: %s)', (href, loc, ok) => {
    expect(adapters.history.read(href, '/elsewhere')).toEqual({ loc, ok });
  });

  it.each([
    ['/other/books/1'],
    ['/application'],
    ['/app/?_escaped_fragment_=%zz'],
    ['/app/?_escaped_fragment_=%C3'],
    ['/app/?a&_escaped_fragment_=x&b'],
  ])('reads %s as no state of the app', (href) => {
    expect(adapters.history.read(href, null)).toBeNull();
  });
});

describe('the hashbang adapter', () => {
  it.each([
    ['/app/#!/books/1', null, '/books/1', true],
    ['https://example.com/app/#!', null, '/', true],
    ['/app/#!key=value', null, '/?key=value', true],
    ['/app/index.html#!/books/1', null, '/books/1', true],
    ['/app/books/1', null, '/books/1', false],
    ['/app/', null, '/', false],
    ['/app/?_escaped_fragment_=/books/1', null, '/books/1', false],
    ['/app/#reviews', null, '/#reviews', false],
    // A plain anchor attaches to the state shown, replacing its anchor.
    ['/app/#reviews', '/books/1?x=1', '/books/1?x=1#reviews', false],
    ['/app/#top', '/books/1#reviews', '/books/1#top', false],
    ['/app/#"><img onerror=x>', '/books/1', '/books/1#%22%3E%3Cimg%20onerror=x%3E', false],
  ])('reads %s (showing %s) as %s (in its form: %s)', (href, shown, loc, ok) => {
    expect(adapters.hashbang.read(href, shown)).toEqual({ loc, ok });
  });

  it.each([['/other/#!/books/1'], ['/app/?_escaped_fragment_=%zz']])('reads %s as no state of the app', (href) => {
    expect(adapters.hashbang.read(href, null)).toBeNull();
  });
});

describe.each(modes)('the %s adapter', (mode) => {
  const adapter = adapters[mode];
  const params = { seed: 20_240_611, numRuns: 300 };
  const anyLocation = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => normalizeLocation('/' + s));

  it('writes the URL toUrl gives for its mode', () => {
    expect(adapter.url('/books/42?x=1#top')).toBe(toUrl('/books/42?x=1#top', { base: '/app/', mode }));
  });

  it('reads back every location it writes, in its own form', () => {
    fc.assert(
      fc.property(anyLocation, (loc) => {
        expect(adapter.read('https://example.com' + adapter.url(loc), null)).toEqual({ loc, ok: true });
      }),
      params,
    );
  });

  it('writes every location inside the base on the origin', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const url = adapter.url(normalizeLocation(text));
        expect(url.startsWith('/app/')).toBe(true);
        expect(url).not.toMatch(/^\/app\/[/\\]/);
      }),
      params,
    );
  });
});

describe('the adapter of a page whose path may not change (file://, a sandboxed frame)', () => {
  const page = 'file:///home/me/app/index.html';
  const pinned = createAdapter('hashbang', '/app/', uglyState, page);

  it('writes the page itself with the state in its #! fragment', () => {
    expect(pinned.url('/books/1?tab=x#reviews')).toBe(page + '#!/books/1?tab=x#reviews');
    expect(pinned.url('/?k=v')).toBe(page + '#!k=v');
    expect(createAdapter('hashbang', '/', uglyState, 'about:srcdoc').url('/')).toBe('about:srcdoc#!/');
  });

  it.each([
    [page + '#!/books/1', { loc: '/books/1', ok: true }],
    [page + '#!k=v', { loc: '/?k=v', ok: true }],
    [page, { loc: '/', ok: false }],
    [page + '#reviews', { loc: '/#reviews', ok: false }],
    ['file:///home/me/app/other.html#!/books/1', null],
    ['file:///home/me/app/#!/books/1', null],
    ['/app/#!/books/1', null],
  ])('reads %s as %j', (href, reading) => {
    expect(pinned.read(href, null)).toEqual(reading);
  });

  it('reads a plain #anchor as an anchor on the state shown', () => {
    expect(pinned.read(page + '#reviews', '/books/1')).toEqual({ loc: '/books/1#reviews', ok: false });
  });

  it('round-trips every location through the page', () => {
    fc.assert(
      fc.property(fc.webPath(), fc.option(fc.webQueryParameters()), (path, query) => {
        const loc = normalizeLocation(path + (query === null ? '' : '?' + query));
        expect(pinned.read(pinned.url(loc), null)).toEqual({ loc, ok: true });
      }),
    );
  });
});

describe('windowNav: the window as the router writes, reads and probes it', () => {
  let window: Window;
  const open = (url = 'https://example.com/app/') => (window = new Window({ url }));
  afterEach(async () => {
    vi.restoreAllMocks();
    await window.happyDOM.close();
  });

  it('pushes and replaces entries with their state through the History API', () => {
    const win = open();
    const nav = windowNav(win, '/app/');
    nav.write('/app/#!/a', { key: 'k1', idx: 1, state: { n: 1 } }, false, '/a');
    expect([win.location.href, win.history.length]).toEqual(['https://example.com/app/#!/a', 2]);
    expect(nav.entry()).toEqual({ key: 'k1', idx: 1, state: { n: 1 } });
    nav.write('/app/b', { key: 'k2', idx: 1 }, true, '/b');
    expect([win.location.href, win.history.length]).toEqual(['https://example.com/app/b', 2]);
    expect(nav.entry()).toEqual({ key: 'k2', idx: 1 });
  });

  it('falls back to location.assign and location.replace without the History API', () => {
    const win = open();
    Object.defineProperty(win.history, 'pushState', { value: undefined });
    const assign = vi.spyOn(win.location, 'assign').mockImplementation(() => undefined);
    const replace = vi.spyOn(win.location, 'replace').mockImplementation(() => undefined);
    const nav = windowNav(win, '/app/');
    expect(nav.api).toBe(NO_API);
    nav.write('/app/#!/a', { key: 'k', idx: 0 }, false, '/a');
    nav.write('/app/#!/b', { key: 'k', idx: 0 }, true, '/b');
    expect(assign.mock.calls).toEqual([['/app/#!/a']]);
    expect(replace.mock.calls).toEqual([['/app/#!/b']]);
  });

  it('turns a write refused at run time into the #! form of the same state on this very page, never another document', () => {
    const win = open('https://example.com/app/books/1?x=1#top');
    const nav = windowNav(win, '/app/');
    expect(nav.api).toBe(PATH_API);
    const assign = vi.spyOn(win.location, 'assign').mockImplementation(() => undefined);
    const replace = vi.spyOn(win.location, 'replace').mockImplementation(() => undefined);
    vi.spyOn(win.history, 'pushState').mockImplementation(() => {
      throw new Error('SecurityError: too many calls');
    });
    vi.spyOn(win.history, 'replaceState').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    nav.write('/app/c', { key: 'k', idx: 0 }, false, '/c');
    nav.write('/app/d?q=1', { key: 'k', idx: 0 }, true, '/d?q=1');
    expect(assign.mock.calls).toEqual([['https://example.com/app/books/1?x=1#!/c']]);
    expect(replace.mock.calls).toEqual([['https://example.com/app/books/1?x=1#!/d?q=1']]);
  });

  it.each([
    [null, null],
    [
      { key: 'k', idx: 0 },
      { key: 'k', idx: 0 },
    ],
    [{ key: 'k' }, null],
    [{ idx: 1 }, null],
    ['a string', null],
    [{ key: 1, idx: 1 }, null],
  ])('reads the entry %j as %j', (state, entry) => {
    const win = open();
    win.history.replaceState(state, '');
    expect(windowNav(win, '/app/').entry()).toEqual(entry);
  });

  it('probes with a replaceState to another path under base and back: any path where it works, only the fragment where that alone may change, none without pushState', () => {
    const win = open('https://example.com/app/books/1?x=1#top');
    win.history.replaceState({ kept: true }, '');
    const replace = vi.spyOn(win.history, 'replaceState');
    expect(windowNav(win, '/app/').api).toBe(PATH_API);
    expect(replace.mock.calls.map((call) => call[2])).toEqual(['/app/-', 'https://example.com/app/books/1?x=1#top']);
    expect([win.location.href, win.history.state]).toEqual(['https://example.com/app/books/1?x=1#top', { kept: true }]);
    // What file:// and sandboxed frames do: the same URL may be written, another path may not.
    replace.mockImplementation((_state, _title, url) => {
      if (url !== win.location.href) throw new Error('SecurityError: cannot be created in a document with origin null');
    });
    expect(windowNav(win, '/app/').api).toBe(FRAGMENT_API);
    expect(win.location.href).toBe('https://example.com/app/books/1?x=1#top');
    replace.mockRestore();
    Object.defineProperty(win.history, 'pushState', { value: undefined });
    expect(windowNav(win, '/app/').api).toBe(NO_API);
  });

  it.each(['file:///home/me/app/index.html', 'about:blank'])(
    'gives a page of no http(s) URL (%s) its fragment without a probe, even where one would pass',
    (url) => {
      const win = open(url);
      // Firefox with its file-URL policy relaxed lets the probe pass: the file's path is still no location.
      const replace = vi.spyOn(win.history, 'replaceState').mockImplementation(() => undefined);
      expect(windowNav(win, '/').api).toBe(FRAGMENT_API);
      expect(replace).not.toHaveBeenCalled();
    },
  );
});

describe.each(modes)('moving between URL forms in %s mode', (mode) => {
  let t: Setup;
  afterEach(async () => {
    vi.restoreAllMocks();
    t.router.destroy();
    await t.window.happyDOM.close();
  });
  const other: UrlMode = mode === 'history' ? 'hashbang' : 'history';

  const locations = ['/books/42', '/q/caf%C3%A9?x=C++', '/books/7#reviews', '/?key=value'];
  const forms: [string, string, string][] = locations.flatMap((loc): [string, string, string][] => {
    const rows: [string, string, string][] = [
      ['clean', toUrl(loc, { base: '/app/' }), loc],
      ['pretty', toUrl(loc, { base: '/app/', mode: 'hashbang' }), loc],
      ['ugly', '/app/?_escaped_fragment_=' + loc.replace(/%/g, '%25').replace(/#/g, '%23'), loc],
    ];
    // The meta-tag form names the clean URL itself; a crawler sends no anchor.
    if (!loc.includes('#'))
      rows.push(['meta-tag ugly', toUrl(loc, { base: '/app/' }) + (loc.includes('?') ? '&' : '?') + '_escaped_fragment_=', loc]);
    return rows;
  });

  it.each(forms)('moves a visitor who lands on the %s URL %s to this mode’s URL without a new entry', async (_, url, loc) => {
    t = setup(mode, { url });
    expect(await t.router.start()).toBe(true);
    expect(t.router.current?.location).toBe(loc);
    expect(t.address()).toBe(t.urlOf(loc));
    expect(t.window.history.length).toBe(1);
  });

  it.each([
    ['/app/?_escaped_fragment_=%zz'],
    ['/app/?_escaped_fragment_=a&_escaped_fragment_=b'],
    ['/other/books/1'],
    ['/other/#!/books/1'],
  ])('leaves a page at %s alone: not a state of this app', async (url) => {
    t = setup(mode, { url });
    expect(await t.router.start()).toBe(false);
    expect(t.router.current).toBeNull();
    expect(t.address()).toBe(url);
    expect(t.outlet()).toBe('');
    await expect(t.router.settled()).resolves.toBeUndefined();
  });

  it.each([
    ['!/books/7', '/books/7'],
    ['!/q/caf%C3%A9', '/q/caf%C3%A9'],
    ['!key=value', '/?key=value'],
  ])('moves a later #%s in the address bar to this mode’s URL; the browser’s own entry is the only new one', async (hash, loc) => {
    t = setup(mode);
    await t.router.start();
    await t.router.navigate('/books/1');
    t.window.location.hash = hash;
    await t.flush();
    expect(t.router.current?.location).toBe(loc);
    expect(t.address()).toBe(t.urlOf(loc));
    expect(t.window.history.length).toBe(3);
    t.router.back();
    await t.flush();
    expect(t.router.current?.location).toBe('/books/1');
    expect(t.address()).toBe(t.urlOf('/books/1'));
  });

  it('moves a later URL in the other mode’s form, reached by a traversal, in place', async () => {
    t = setup(mode);
    await t.router.start();
    t.window.history.pushState(null, '', toUrl('/books/9', { base: '/app/', mode: other }));
    t.window.history.pushState(null, '', '/app/elsewhere-then-back');
    t.window.history.back();
    await t.flush();
    expect(t.router.current?.location).toBe('/books/9');
    expect(t.address()).toBe(t.urlOf('/books/9'));
    expect(t.window.history.state).toMatchObject({ key: expect.any(String), idx: expect.any(Number) });
  });

  it('moves a pasted 10 kB #! fragment like any other', async () => {
    t = setup(mode);
    await t.router.start();
    const term = 'ü%zz'.repeat(2500);
    t.window.location.hash = `!/q/${term}`;
    await t.flush();
    expect(t.router.current?.params['term']).toBe(term);
    expect(t.address()).toBe(t.urlOf(t.router.current?.location as string));
    expect(t.window.history.length).toBe(2);
  });

  it('reads a traversal to a clean URL with an anchor, pushed by someone else, as that URL’s state', async () => {
    t = setup(mode);
    await t.router.start();
    t.window.history.pushState(null, '', '/app/books/9#reviews');
    t.window.history.pushState(null, '', '/app/elsewhere-then-back');
    t.window.history.back();
    await t.flush();
    expect(t.router.current?.location).toBe('/books/9#reviews');
    expect(t.address()).toBe(t.urlOf('/books/9#reviews'));
  });

  it('treats a plain #anchor typed in the address bar as an anchor on the state shown', async () => {
    t = setup(mode);
    await t.router.start();
    await t.router.navigate('/books/1');
    t.window.location.hash = 'reviews';
    await t.flush();
    expect(t.router.current?.location).toBe('/books/1#reviews');
    expect(t.address()).toBe(t.urlOf('/books/1#reviews'));
    expect(t.loads).toEqual(['1']);
  });

  it.each([
    ['//evil.test/x', '/evil.test/x'],
    ['/\\evil.test/x', '/%5Cevil.test/x'],
    ['/\\/evil.test/x', '/%5C/evil.test/x'],
    ['javascript:alert(1)', '/javascript:alert(1)'],
    ['https://evil.test/x', '/https:/evil.test/x'],
    ['/../../x', '/x'],
  ])('keeps navigate(%j) on the origin and inside the base', async (to, loc) => {
    t = setup(mode);
    await t.router.start();
    await t.router.navigate(to);
    expect(t.router.current?.location).toBe(loc);
    expect(t.window.location.origin).toBe('https://example.com');
    expect(t.address()).toBe(t.urlOf(loc));
  });

  it.each([['!//evil.test/x'], ['!/\\evil.test'], ['!/%2F%2Fevil.test'], ['!javascript:alert(1)']])(
    'keeps a pasted #%s on the origin and inside the base',
    async (hash) => {
      t = setup(mode);
      await t.router.start();
      t.window.location.hash = hash;
      await t.flush();
      expect(t.window.location.origin).toBe('https://example.com');
      expect(t.address().startsWith('/app/')).toBe(true);
      expect(t.address()).toBe(t.urlOf(t.router.current?.location as string));
    },
  );
});
