import { Window } from 'happy-dom';
import { createMemoryHistory } from 'history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IGNORE } from '../../src/client/links.js';
import { createRouter } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';
import { costRatio } from '../cost.js';
import { modes, setup, type Setup } from './fixture.js';

// Every link rule, in both modes. A click is dispatched on the <a> itself: happy-dom runs an
// anchor's navigation while a click on its child is still bubbling, before document listeners.
describe.each(modes)('links in %s mode', (mode) => {
  let t: Setup;
  afterEach(async () => {
    vi.restoreAllMocks();
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  /** Clicks the first `a` in `html`; returns whether the router took the click over. */
  type Init = { button?: number; ctrlKey?: boolean; metaKey?: boolean; shiftKey?: boolean; altKey?: boolean };
  type Clickable = NonNullable<ReturnType<Setup['document']['querySelector']>>;

  async function click(html: string, init: Init = {}, before?: (a: Clickable) => void) {
    t.document.getElementById('after')!.innerHTML = html;
    const a = t.document.querySelector('#after a')!;
    before?.(a);
    let prevented = false;
    // Stands in for the browser's default action, which happy-dom would run as a navigation.
    const record = (event: { defaultPrevented: boolean; preventDefault(): void }) => (
      (prevented = event.defaultPrevented),
      event.preventDefault()
    );
    t.window.addEventListener('click', record);
    a.dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0, ...init }));
    t.window.removeEventListener('click', record);
    await t.flush();
    return prevented;
  }

  /** Watches scrollIntoView where the router calls it: on the element's prototype (a form's field may shadow its own). */
  const scrolls = () => vi.spyOn(t.window.HTMLElement.prototype, 'scrollIntoView');

  async function start() {
    t = setup(mode);
    await t.router.start();
    await t.router.navigate('/books/1');
  }

  it.each([
    ['a clean href', '<a href="/app/books/2">x</a>', '/books/2'],
    ['a #! href', '<a href="/app/#!/books/3">x</a>', '/books/3'],
    ['a bare #! href', '<a href="#!/books/4?x=C++">x</a>', '/books/4?x=C++'],
    ['a #! href with a query form', '<a href="#!key=value">x</a>', '/?key=value'],
    ['an ugly href', '<a href="/app/?_escaped_fragment_=/books/5%23reviews">x</a>', '/books/5#reviews'],
    ['an absolute same-origin href', '<a href="https://example.com/app/books/6">x</a>', '/books/6'],
    ['the base without its slash', '<a href="/app">x</a>', '/'],
    ['target=_self', '<a href="/app/books/8" target="_self">x</a>', '/books/8'],
    ['target=_SELF', '<a href="/app/books/9" target="_SELF">x</a>', '/books/9'],
    ['rel=noopener', '<a href="/app/books/10" rel="noopener">x</a>', '/books/10'],
    ['a clean href with an anchor', '<a href="/app/books/11#reviews">x</a>', '/books/11#reviews'],
    ['a non-ASCII href', '<a href="/app/q/café">x</a>', '/q/caf%C3%A9'],
    ['a hostile href', '<a href="/app/q/%22%3E%3Cimg%20onerror%3Dx%3E">x</a>', '/q/%22%3E%3Cimg%20onerror%3Dx%3E'],
    ['an href with %zz', '<a href="/app/q/%zz">x</a>', '/q/%25zz'],
    ['an href with ../', '<a href="/app/books/../q/up">x</a>', '/q/up'],
  ])('routes %s', async (_, html, location) => {
    await start();
    expect(await click(html)).toBe(true);
    expect(t.router.current?.location).toBe(location);
    expect(t.address()).toBe(t.urlOf(location));
  });

  it('hands what a clicked link’s navigation threw to onError, or to the window’s reportError', async () => {
    const boom = new Error('guard failed');
    const errors: unknown[] = [];
    t = setup(mode, { onError: (x) => errors.push(x) });
    await t.router.start();
    t.router.beforeEach((to) => {
      if (to.location === '/books/2') throw boom;
    });
    expect(await click('<a href="/app/books/2">x</a>')).toBe(true);
    expect([errors, t.router.current?.location]).toEqual([[boom], '/']);
    t.router.destroy();
    // Without onError, a browser's window reports it as uncaught (window.onerror), never as a rejection.
    t = setup(mode);
    const reported = vi.fn();
    Object.assign(t.window, { reportError: reported });
    await t.router.start();
    t.router.beforeEach(() => {
      throw boom;
    });
    await click('<a href="/app/books/2">x</a>');
    expect(reported.mock.calls).toEqual([[boom]]);
  });

  it.each([
    ['target=_blank', '<a href="/app/books/2" target="_blank">x</a>'],
    ['a named target', '<a href="/app/books/2" target="side">x</a>'],
    ['download', '<a href="/app/books/2" download>x</a>'],
    ['rel=external', '<a href="/app/books/2" rel="external">x</a>'],
    ['rel with external among others', '<a href="/app/books/2" rel="noopener External">x</a>'],
    ['the opt-out attribute', `<a href="/app/books/2" ${IGNORE}>x</a>`],
    ['another origin', '<a href="https://evil.test/app/books/2">x</a>'],
    ['a protocol-relative other origin', '<a href="//evil.test/app/books/2">x</a>'],
    ['another scheme on the same host', '<a href="http://example.com/app/books/2">x</a>'],
    ['another port', '<a href="https://example.com:8443/app/books/2">x</a>'],
    ['javascript:', '<a href="javascript:alert(1)">x</a>'],
    ['JavaScript: with spaces', '<a href=" JavaScript:alert(1)">x</a>'],
    ['mailto:', '<a href="mailto:a@example.com">x</a>'],
    ['a blob: URL of this origin', '<a href="blob:https://example.com/app/0b7c">x</a>'],
    ['a data: URL', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
    ['a path outside the base', '<a href="/other/books/2">x</a>'],
    ['a path that only starts like the base', '<a href="/application">x</a>'],
    ['a malformed ugly URL', '<a href="/app/?_escaped_fragment_=%zz">x</a>'],
    ['an <a> without href', '<a>x</a>'],
  ])('leaves %s to the browser', async (_, html) => {
    await start();
    expect(await click(html)).toBe(false);
    expect(t.router.current?.location).toBe('/books/1');
    expect(t.window.history.length).toBe(2);
  });

  it("leaves a link with no target to the browser where the document's <base target> names another, and routes it with _self", async () => {
    await start();
    const base = t.document.createElement('base');
    base.setAttribute('target', '_blank');
    t.document.head.append(base);
    expect(await click('<a href="/app/books/2">x</a>')).toBe(false);
    expect(t.router.current?.location).toBe('/books/1');
    expect(await click('<a href="/app/books/3" target="_self">x</a>')).toBe(true);
    expect(t.router.current?.location).toBe('/books/3');
    // The first <base> with a target is the document's: a later one does not count.
    base.before(Object.assign(t.document.createElement('base'), { target: '_self' }));
    expect(await click('<a href="/app/books/4">x</a>')).toBe(true);
    expect(t.router.current?.location).toBe('/books/4');
  });

  it.each([
    ['the middle button', { button: 1 }],
    ['the right button', { button: 2 }],
    ['ctrl', { ctrlKey: true }],
    ['meta', { metaKey: true }],
    ['shift', { shiftKey: true }],
    ['alt', { altKey: true }],
  ])('leaves a click with %s to the browser', async (_, init) => {
    await start();
    expect(await click('<a href="/app/books/2">x</a>', init)).toBe(false);
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('resolves a relative href against the document’s <base>, the same in both modes', async () => {
    await start();
    const base = t.document.createElement('base');
    base.setAttribute('href', '/app/');
    t.document.head.appendChild(base);
    expect(await click('<a href="books/7">x</a>')).toBe(true);
    expect(t.router.current?.location).toBe('/books/7');
  });

  it('leaves a click that another listener already prevented', async () => {
    await start();
    await click('<a href="/app/books/2">x</a>', {}, (a) => a.addEventListener('click', (event) => event.preventDefault()));
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('scrolls for a plain #anchor and changes neither the URL nor the state', async () => {
    await start();
    const target = t.document.getElementById('reviews')!;
    const scrolled = scrolls();
    const guard = vi.fn(() => true);
    t.router.beforeEach(guard);
    expect(await click('<a href="#reviews">x</a>')).toBe(true);
    expect(scrolled.mock.contexts).toEqual([target]);
    expect(t.router.current?.location).toBe('/books/1');
    expect(t.address()).toBe(t.urlOf('/books/1'));
    expect(t.window.history.length).toBe(2);
    expect(guard).not.toHaveBeenCalled();
  });

  it.each([
    ['a space before it', '<a href=" #reviews">x</a>'],
    ['a tab and a newline around it', '<a href="&#9;#reviews&#10;">x</a>'],
  ])('reads an anchor href with %s as the URL parser does: a plain #anchor', async (_, html) => {
    await start();
    const scrolled = scrolls();
    expect(await click(html)).toBe(true);
    expect(scrolled.mock.contexts).toEqual([t.document.getElementById('reviews')]);
    expect([t.router.current?.location, t.address(), t.window.history.length]).toEqual(['/books/1', t.urlOf('/books/1'), 2]);
  });

  it('reads a #! href split by a tab as the URL parser does: the state it names', async () => {
    await start();
    expect(await click('<a href="#&#9;!/books/7">x</a>')).toBe(true);
    expect([t.router.current?.location, t.address()]).toEqual(['/books/7', t.urlOf('/books/7')]);
  });

  it('reads a click on a link holding a 64 kB run of spaces in linear time', async () => {
    // The URL parser's stripping was `[\0- ]+$`, which V8 retries at each character of a run that
    // does not end the href: seconds of a frozen tab for one click on such a link (user content).
    await start();
    const run = ' '.repeat(65_536);
    // Links the router reads and leaves to the browser (target=_blank), their hrefs holding runs of spaces.
    const href = (spaces: string) => `/app/q/a${spaces}b${spaces}`;
    t.document.getElementById('after')!.innerHTML =
      `<a target="_blank" href="${href(run)}">x</a><a target="_blank" href="${href(' '.repeat(8_192))}">y</a>`;
    const [long, short] = [...t.document.querySelectorAll('#after a')];
    let read = 0;
    const onClick = () => read++;
    t.document.addEventListener('click', onClick);
    const clickOn = (a: typeof long & object) => () =>
      a.dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }));
    // A run 8 times longer costs 8 times as much, not 64 (3 s a click before).
    expect(costRatio(clickOn(long!), clickOn(short!), { runs: 5, baselineRepeat: 8 })).toBeLessThan(24);
    // Every click reached the document, where the router reads it.
    expect(read).toBe(5 * 9);
    t.document.removeEventListener('click', onClick);
    expect(await click(`<a href="${run}/app/q/a${run}b${run}">x</a>`)).toBe(true);
    expect(t.router.current?.location).toBe(`/q/a${'%20'.repeat(65_536)}b`);
  });

  it('scrolls to a named element for a percent-encoded #anchor', async () => {
    await start();
    t.document.getElementById('outlet')!.innerHTML += '<a name="café">c</a>';
    const named = t.document.getElementsByName('café')[0]!;
    const scrolled = scrolls();
    expect(await click('<a href="#caf%C3%A9">x</a>')).toBe(true);
    expect(scrolled.mock.contexts).toEqual([named]);
  });

  it('routes an SVG <a> by href and by xlink:href', async () => {
    await start();
    const svg = (attr: string, to: string) => `<svg><a ${attr}="${to}"><text>x</text></a></svg>`;
    for (const [attr, to, location] of [
      ['href', '/app/books/20', '/books/20'],
      ['xlink:href', '/app/#!/books/21', '/books/21'],
    ]) {
      t.document.getElementById('after')!.innerHTML = svg(attr as string, to as string);
      t.document
        .querySelector('#after text')!
        .dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
      await t.flush();
      expect(t.router.current?.location).toBe(location);
    }
  });

  it('routes a link inside an open shadow root through composedPath()', async () => {
    await start();
    const host = t.document.getElementById('after')!;
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = '<a href="/app/books/30">in the shadow</a>';
    const a = root.querySelector('a')!;
    a.dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }));
    await t.flush();
    expect(t.router.current?.location).toBe('/books/30');
    expect(t.address()).toBe(t.urlOf('/books/30'));
  });

  // The browser acts on the nearest element of a click's path that has an activation behaviour of
  // its own (HTML's activation target): a control inside a link takes the click from it. Measured in
  // Chromium: a form's submit, image or reset button submits or resets the form, a checkbox or radio
  // toggles, a file or color input opens its picker, a label activates its control and a details'
  // summary opens it, and the link is not followed. Routing the link there dropped the form's POST.
  describe('a click on a control inside a link', () => {
    /** Clicks `#in` inside `html`; returns whether the router took the click over. */
    async function clickIn(html: string) {
      t.document.getElementById('after')!.innerHTML = html;
      // happy-dom follows a link as the click bubbles through it, before document listeners, and
      // whatever the control inside it: that stand-in for the browser is left out (window.open).
      vi.spyOn(t.window, 'open').mockReturnValue(null);
      let prevented = false;
      const record = (event: { defaultPrevented: boolean; preventDefault(): void }) => (
        (prevented = event.defaultPrevented),
        event.preventDefault()
      );
      t.window.addEventListener('click', record);
      t.document
        .getElementById('in')!
        .dispatchEvent(new t.window.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }));
      t.window.removeEventListener('click', record);
      await t.flush();
      return prevented;
    }

    it.each([
      [
        'a POST form’s submit button',
        '<form method="post" action="/app/q/sent"><a href="/app/books/2"><button id="in">x</button></a></form>',
      ],
      ['a GET form’s submit input', '<form action="/app/q/sent"><a href="/app/books/2"><input type="submit" id="in"></a></form>'],
      [
        'the text of a form’s submit button',
        '<form action="/app/q/sent"><a href="/app/books/2"><button><b id="in">x</b></button></a></form>',
      ],
      ['a form’s image input', '<form action="/app/q/sent"><a href="/app/books/2"><input type="image" alt="go" id="in"></a></form>'],
      ['a form’s reset button', '<form><a href="/app/books/2"><button type="reset" id="in">x</button></a></form>'],
      ['a checkbox', '<a href="/app/books/2"><input type="checkbox" id="in"></a>'],
      ['a radio button', '<a href="/app/books/2"><input type="radio" id="in"></a>'],
      ['a file input', '<a href="/app/books/2"><input type="file" id="in"></a>'],
      ['a label of a control', '<input type="checkbox" id="box"><a href="/app/books/2"><label for="box" id="in">x</label></a>'],
      ['a details’ summary', '<a href="/app/books/2"><details><summary><i id="in">x</i></summary>more</details></a>'],
    ])('leaves it to the browser on %s, which the browser acts on instead of the link', async (_, html) => {
      await start();
      expect(await clickIn(html)).toBe(false);
      expect([t.router.current?.location, t.window.history.length]).toEqual(['/books/1', 2]);
    });

    it.each([
      ['a button of no form', '<a href="/app/books/2"><button id="in">x</button></a>'],
      ['a form’s button of type button', '<form><a href="/app/books/2"><button type="button" id="in">x</button></a></form>'],
      ['a text input', '<a href="/app/books/2"><input id="in"></a>'],
      ['a label of no control', '<a href="/app/books/2"><label id="in">x</label></a>'],
      ['a link inside a form’s submit button', '<form action="/app/q/sent"><button><a href="/app/books/2" id="in">x</a></button></form>'],
    ])('routes the link on %s, which the browser follows', async (_, html) => {
      await start();
      expect(await clickIn(html)).toBe(true);
      expect(t.router.current?.location).toBe('/books/2');
    });
  });

  it('leaves every click alone with { links: false }', async () => {
    t = setup(mode, { links: false });
    await t.router.start();
    expect(await click('<a href="/app/books/2">x</a>')).toBe(false);
    expect(t.router.current?.location).toBe('/');
  });
});

// The Navigation API's `navigate` event, in happy-dom (which has no Navigation API): a stand-in
// `window.navigation` receives events shaped as a browser's, so that every rule of what is routed
// and what is left to the browser is checked in both modes. Chromium runs the real thing
// (navigation-api.test.ts).
describe.each(modes)('the navigate event in %s mode', (mode) => {
  let t: Setup;
  let navigation: InstanceType<Setup['window']['EventTarget']>;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  async function start(options: Parameters<typeof setup>[1] = {}) {
    t = setup(mode, options);
    navigation = new t.window.EventTarget();
    Object.assign(t.window, { navigation });
    await t.router.start();
    await t.router.navigate('/books/1');
  }

  /** A navigate event as a browser fires it: a push to `url` of this origin that the page may intercept, unless `init` says otherwise. */
  function fire(url: string, init: Record<string, unknown> = {}, before?: (event: Event) => void) {
    const { sameDocument = false, ...rest } = init;
    const event = new t.window.Event('navigate', { cancelable: true }) as unknown as Event;
    Object.assign(event, {
      canIntercept: true,
      navigationType: 'push',
      formData: null,
      downloadRequest: null,
      sourceElement: null,
      destination: { url: new URL(url, 'https://example.com').href, sameDocument },
      ...rest,
    });
    before?.(event);
    navigation.dispatchEvent(event as never);
    return event.defaultPrevented;
  }

  /** An element of the page, made from `html`. */
  function element(html: string, selector: string) {
    t.document.getElementById('after')!.innerHTML = html;
    return t.document.querySelector(selector);
  }

  it('routes a push it may intercept: an area, a script’s location.assign or navigation.navigate(), as a new entry', async () => {
    await start();
    const length = t.window.history.length;
    expect(fire('/app/books/2', { sourceElement: element('<map><area href="/app/books/2"></map>', 'area') })).toBe(true);
    await t.flush();
    expect([t.router.current?.location, t.address(), t.window.history.length]).toEqual(['/books/2', t.urlOf('/books/2'), length + 1]);
    expect(fire('/app/#!/books/3')).toBe(true);
    await t.flush();
    expect([t.router.current?.location, t.window.history.length]).toEqual(['/books/3', length + 2]);
  });

  it('routes a replace (location.replace) as a replace', async () => {
    await start();
    const length = t.window.history.length;
    expect(fire('/app/books/4', { navigationType: 'replace' })).toBe(true);
    await t.flush();
    expect([t.router.current?.location, t.address(), t.window.history.length]).toEqual(['/books/4', t.urlOf('/books/4'), length]);
  });

  it('routes a GET form with its fields as the query, reading a + of the form as a space and %2B as a plus', async () => {
    await start();
    const form = element('<form action="/app/q/s"><input name="k"><button>go</button></form>', 'form');
    expect(fire('/app/q/s?k=a+b%2Bc#x+y', { sourceElement: form?.querySelector('button') })).toBe(true);
    await t.flush();
    expect([t.router.current?.location, t.router.current?.query]).toEqual(['/q/s?k=a%20b%2Bc#x+y', { k: 'a b+c' }]);
  });

  it('reads a form that is its own source (requestSubmit(), Enter) by its own attributes, beside a field named "form"', async () => {
    await start();
    const form = element('<form action="/app/q/s"><input name="k"><input name="form"></form>', 'form');
    expect(fire('/app/q/s?k=a+b&form=', { sourceElement: form })).toBe(true);
    await t.flush();
    expect(t.router.current?.query).toEqual({ k: 'a b', form: '' });
    const ignored = element(`<form action="/app/q/s" ${IGNORE}><input name="form"></form>`, 'form');
    expect(fire('/app/q/s?form=', { sourceElement: ignored })).toBe(false);
  });

  it('routes a POST form by a formmethod="get" button, whose fields Chromium gives as formData too', async () => {
    await start();
    const button = element('<form method="post" action="/app/q/s"><button formmethod="get">go</button></form>', 'button');
    expect(fire('/app/q/s?k=a+b', { sourceElement: button, formData: {} })).toBe(true);
    await t.flush();
    expect(t.router.current?.query).toEqual({ k: 'a b' });
  });

  it.each([
    ['one it may not intercept (another origin)', { canIntercept: false }],
    ['one in this document (a pushState, the router’s own included; a fragment; a traversal)', { sameDocument: true }],
    ['a traversal', { navigationType: 'traverse', sameDocument: true }],
    ['a reload', { navigationType: 'reload' }],
    ['a POST form', { formData: {} }],
    ['a download', { downloadRequest: '' }],
  ])('leaves %s to the browser', async (_, init) => {
    await start();
    expect(fire('/app/books/2', init)).toBe(false);
    await t.flush();
    expect(t.router.current?.location).toBe('/books/1');
  });

  it.each([
    ['an area with data-router-ignore', `<map><area href="/app/books/2" ${IGNORE}></map>`, 'area'],
    ['an area with rel="external"', '<map><area href="/app/books/2" rel="nofollow EXTERNAL"></map>', 'area'],
    ['an area with a download attribute', '<map><area href="/app/books/2" download></map>', 'area'],
    ['an area with target="_top"', '<map><area href="/app/books/2" target="_top"></map>', 'area'],
    ['a form with target="_parent", by its button', '<form target="_parent"><button>go</button></form>', 'button'],
    ['a form with data-router-ignore', `<form ${IGNORE}><button>go</button></form>`, 'form'],
    // Chromium gives it no formData: its formData follows the form's own method.
    ['a POST by a formmethod="post" button of a GET form', '<form><button formmethod="post">go</button></form>', 'button'],
  ])('leaves %s to the browser', async (_, html, selector) => {
    await start();
    expect(fire('/app/books/2', { sourceElement: element(html, selector) })).toBe(false);
    await t.flush();
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('leaves a URL outside base, and one another listener cancelled, to the browser', async () => {
    await start();
    expect(fire('/elsewhere')).toBe(false);
    expect(fire('/app/books/2', {}, (event) => event.preventDefault())).toBe(true);
    await t.flush();
    expect(t.router.current?.location).toBe('/books/1');
  });

  it('listens to nothing with { links: false }, after destroy(), or on a memory history', async () => {
    await start({ links: false });
    expect(fire('/app/books/2')).toBe(false);
    t.router.destroy();
    await t.window.happyDOM.close();
    await start();
    t.router.destroy();
    expect(fire('/app/books/2')).toBe(false);
    await t.window.happyDOM.close();
    await start({ history: createMemoryHistory({ initialEntries: ['/app/'] }) });
    expect(fire('/app/books/2')).toBe(false);
    expect(t.router.current?.location).toBe('/books/1');
  });
});

describe('the navigate event on a window without pushState', () => {
  it('is not listened to: the router writes with location.assign, which it would take for another script’s, without end', async () => {
    const window = new Window({ url: 'https://example.com/app/books/1' });
    try {
      Object.defineProperty(window.history, 'pushState', { value: undefined });
      const navigation = new window.EventTarget();
      Object.assign(window, { navigation });
      const listen = vi.spyOn(navigation, 'addEventListener');
      const routes = createRoutes([{ path: '/' }, { path: '/books/:id' }], { base: '/app/' });
      const router = createRouter({ routes, base: '/app/', window: window as never });
      expect(router.mode).toBe('hashbang');
      // The move of /app/books/1 to its #! form is a location.replace of another document.
      vi.spyOn(window.location, 'replace').mockImplementation(() => undefined);
      await router.start();
      expect(listen).not.toHaveBeenCalled();
      router.destroy();
    } finally {
      await window.happyDOM.close();
    }
  });
});
