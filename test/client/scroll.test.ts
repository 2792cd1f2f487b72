import { Window } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScroll, scrollToAnchor } from '../../src/client/scroll.js';
import { POP, PUSH, REPLACE } from '../../src/client/steps.js';
import { esc, modes, setup, type Setup } from './fixture.js';

describe('createScroll and scrollToAnchor', () => {
  let window: Window;
  const open = () => {
    window = new Window({ url: 'https://example.com/' });
    window.document.body.innerHTML = '<h2 id="a">a</h2><a name="b">b</a><p id="caf&eacute;">c</p>';
    return window;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    await window.happyDOM.close();
  });

  it.each([
    ['a', 'h2'],
    ['b', 'a'],
    ['café', 'p'],
    ['missing', null],
    ['', null],
  ])('scrolls to the element the anchor %j names (%s)', (anchor, tag) => {
    const win = open();
    const spy = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    expect(scrollToAnchor(win.document, anchor)).toBe(tag !== null);
    expect(spy.mock.contexts.map((el) => (el as { localName: string }).localName)).toEqual(tag ? [tag] : []);
  });

  it.each([
    [PUSH, 'k', '', [0, 0]],
    [REPLACE, 'k', '', [5, 300]],
    [POP, 'saved', '', [7, 70]],
    [POP, 'unknown', '', [5, 300]],
  ] as const)('for kind %i, entry %s, anchor %j scrolls to %j', (kind, key, anchor, at) => {
    const win = open();
    const scroll = createScroll(win, win.document);
    win.scrollTo(7, 70);
    scroll.save('saved');
    win.scrollTo(5, 300);
    scroll.apply(kind, key, anchor);
    expect([win.scrollX, win.scrollY]).toEqual(at);
  });

  it('calls scrollTo only to move: a window already at the position is left alone (jsdom logs every call as not implemented)', () => {
    const win = open();
    const scroll = createScroll(win, win.document);
    scroll.save('top');
    win.scrollTo(0, 200);
    scroll.save('down');
    win.scrollTo(0, 0);
    const spy = vi.spyOn(win, 'scrollTo');
    scroll.apply(PUSH, 'new', '');
    scroll.apply(POP, 'top', '');
    expect(spy).not.toHaveBeenCalled();
    scroll.apply(POP, 'down', '');
    expect(spy.mock.calls).toEqual([[0, 200]]);
    scroll.apply(PUSH, 'new', '');
    expect(spy.mock.calls).toEqual([
      [0, 200],
      [0, 0],
    ]);
    expect(win.scrollY).toBe(0);
  });

  it('prefers the saved position over the anchor on back/forward, and the anchor over the top otherwise', () => {
    const win = open();
    const spy = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    const scroll = createScroll(win, win.document);
    win.scrollTo(0, 90);
    scroll.save('k');
    scroll.apply(POP, 'k', 'a');
    expect(spy).not.toHaveBeenCalled();
    win.scrollTo(0, 40);
    scroll.apply(PUSH, 'k', 'a');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(win.scrollY).toBe(40);
  });

  it('takes scroll restoration over on start and gives it back on stop', () => {
    const win = open();
    const scroll = createScroll(win, win.document);
    scroll.start();
    expect(win.history.scrollRestoration).toBe('manual');
    scroll.stop();
    expect(win.history.scrollRestoration).toBe('auto');
  });
});

describe.each(modes)('scrolling in %s mode', (mode) => {
  let t: Setup;
  afterEach(async () => {
    vi.restoreAllMocks();
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  it('goes to the top on a new entry and back to the saved positions on back and forward', async () => {
    t = setup(mode);
    await t.router.start();
    t.window.scrollTo(0, 400);
    await t.router.navigate('/books/1');
    expect(t.window.scrollY).toBe(0);
    t.window.scrollTo(0, 150);
    await t.router.navigate('/books/2');
    expect(t.window.scrollY).toBe(0);
    t.window.scrollTo(0, 30);
    const steps: [() => void, number][] = [
      [() => t.router.back(), 150],
      [() => t.router.back(), 400],
      [() => t.router.forward(), 150],
      [() => t.router.go(1), 30],
    ];
    for (const [step, y] of steps) {
      step();
      await t.flush();
      expect(t.window.scrollY).toBe(y);
    }
  });

  it('keeps the position on a replace', async () => {
    t = setup(mode);
    await t.router.start();
    t.window.scrollTo(0, 250);
    await t.router.navigate('/books/1', { replace: true });
    expect(t.window.scrollY).toBe(250);
  });

  it('scrolls to the anchor’s element when the location has one, on navigate and on start', async () => {
    t = setup(mode, { url: t0Url(mode, '/books/3#reviews') });
    const spy = vi.spyOn(t.window.HTMLElement.prototype, 'scrollIntoView');
    await t.router.start();
    expect(spy.mock.contexts.map((el) => (el as { id: string }).id)).toEqual(['reviews']);
    await t.router.navigate('/books/4#reviews');
    expect(spy).toHaveBeenCalledTimes(2);
    expect(t.router.current?.hash).toBe('reviews');
  });

  it('scrolls once the subscribers have drawn: an app that draws the state in a microtask after its subscriber (React’s useSyncExternalStore) gets its anchor', async () => {
    t = setup(mode, { outlet: null, routes: [{ path: '/drawn/:id' }] });
    const page = t.document.getElementById('outlet') as unknown as HTMLElement;
    t.router.subscribe(({ params }) => {
      queueMicrotask(
        () => (page.innerHTML = params.id ? `<h1>${esc(String(params.id))}</h1><h2 id="n${esc(String(params.id))}">Notes</h2>` : ''),
      );
    });
    const spy = vi.spyOn(t.window.HTMLElement.prototype, 'scrollIntoView');
    await t.router.start();
    await t.router.navigate('/drawn/1#n1');
    expect(spy.mock.contexts.map((el) => (el as { id: string }).id)).toEqual(['n1']);
  });

  it('scrolls in the order the states committed: a subscriber that moves to an anchor at once ends at the anchor, and back finds the state it left at the top', async () => {
    t = setup(mode);
    await t.router.start();
    const off = t.router.subscribe((c) => void (c.location === '/books/1' && (off(), t.router.navigate('/books/1#reviews'))));
    vi.spyOn(t.window.HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => t.window.scrollTo(0, 900));
    t.window.scrollTo(0, 400);
    await t.router.navigate('/books/1');
    await t.flush();
    expect([t.router.current?.location, t.window.scrollY]).toEqual(['/books/1#reviews', 900]);
    t.router.back();
    await t.flush();
    expect([t.router.current?.location, t.window.scrollY]).toEqual(['/books/1', 0]);
  });

  it('scrolls two states committed in one task once the second is drawn: its anchor is found', async () => {
    t = setup(mode, { outlet: null, routes: [{ path: '/drawn/:id' }] });
    const page = t.document.getElementById('outlet') as unknown as HTMLElement;
    t.router.subscribe(({ params }) => {
      queueMicrotask(() => (page.innerHTML = `<h2 id="n${esc(String(params.id))}">Notes</h2>`));
    });
    await t.router.start();
    const spy = vi.spyOn(t.window.HTMLElement.prototype, 'scrollIntoView');
    await Promise.all([t.router.navigate('/drawn/1'), t.router.navigate('/drawn/2#n2')]);
    await t.flush();
    expect(spy.mock.contexts.map((el) => (el as { id: string }).id)).toEqual(['n2']);
  });

  it('leaves scrolling to the browser with { scroll: false }', async () => {
    t = setup(mode, { scroll: false });
    await t.router.start();
    expect(t.window.history.scrollRestoration).toBe('auto');
    t.window.scrollTo(0, 400);
    await t.router.navigate('/books/1');
    expect(t.window.scrollY).toBe(400);
  });
});

/** The start URL of a location in a mode (a visitor following a link in that form). */
function t0Url(mode: 'history' | 'hashbang', loc: string) {
  return mode === 'history' ? '/app' + loc : '/app/#!' + loc;
}
