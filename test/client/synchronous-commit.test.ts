import { afterEach, describe, expect, it } from 'vitest';
import { STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../src/contract/settled.js';
import { modes, setup, type Setup } from './fixture.js';

// The router's pipeline stays synchronous until it must await (the comment above `run` in
// src/client/router.ts): a navigation to a route with no guard and no load commits in the call
// that starts it. `router.current`, the address bar, the view, the subscribers and the settled
// outcome are the new state's before any microtask has run, so `settled()` has nothing to wait for
// and a headless render of such a page is settled at once. Each check below runs before the test
// awaits anything.
describe.each(modes)('a navigation with no guard and no load, in %s mode', (mode) => {
  let t: Setup;
  const root = () => t.document.documentElement;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  it('commits the first state in the start() call and says settled with its status', async () => {
    t = setup(mode, { url: '/app/q/first' });
    const started = t.router.start();
    expect(t.router.current?.location).toBe('/q/first');
    expect(t.outlet()).toBe('<h1>first</h1>{}');
    expect([root().getAttribute(STATE_ATTRIBUTE), root().getAttribute(STATUS_ATTRIBUTE)]).toEqual(['settled', '200']);
    expect(await started).toBe(true);
  });

  it('commits in the navigate() call: current, the address bar, the view, the subscribers and the settled outcome', async () => {
    t = setup(mode);
    await t.router.start();
    const seen: string[] = [];
    t.router.subscribe((current) => seen.push(current.location));
    const done = t.router.navigate('/q/now?x=1');
    expect(t.router.current?.location).toBe('/q/now?x=1');
    expect(seen).toEqual(['/q/now?x=1']);
    expect(t.address()).toBe(t.urlOf('/q/now?x=1'));
    expect(t.document.title).toBe('Search now');
    expect([root().getAttribute(STATE_ATTRIBUTE), root().getAttribute(STATUS_ATTRIBUTE)]).toEqual(['settled', '200']);
    // Nothing is in flight: settled() is a promise already resolved.
    let idle = false;
    void t.router.settled().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(true);
    expect(await done).toBe(true);
  });

  it('commits a location no route matches in the call, settled with 404', async () => {
    t = setup(mode);
    await t.router.start();
    const done = t.router.navigate('/nowhere');
    expect(t.router.current).toMatchObject({ location: '/nowhere', notFound: true });
    expect([root().getAttribute(STATE_ATTRIBUTE), root().getAttribute(STATUS_ATTRIBUTE)]).toEqual(['settled', '404']);
    expect(await done).toBe(true);
  });

  it('commits a change of anchor alone in the call, even on a route that loads', async () => {
    t = setup(mode);
    await t.router.start();
    await t.router.navigate('/books/1');
    const done = t.router.navigate('/books/1#reviews');
    expect(t.router.current?.location).toBe('/books/1#reviews');
    expect(root().getAttribute(STATE_ATTRIBUTE)).toBe('settled');
    expect(await done).toBe(true);
    expect(t.loads).toEqual(['1']);
  });
});
