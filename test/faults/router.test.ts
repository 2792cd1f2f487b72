import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, modes, setup, type Setup } from '../client/fixture.js';

// Faults in loaders while the client router is busy, each with its defined outcome. Already proved
// in test/client/router.test.ts: a loader that throws (the error view), two racing loaders that
// resolve (the older aborted, only the newer rendered); in test/client/index.test.ts: destroy()
// while a loader never settles (the navigation resolves false, its signal aborts).

type Loader = ReturnType<typeof deferred<string>>;

describe.each(modes)('loader faults in %s mode', (mode) => {
  let t: Setup;
  afterEach(async () => {
    t.router.destroy();
    await t.window.happyDOM.close();
  });

  /** A router whose /slow/:n loaders the test settles by hand, with an error view. */
  async function open() {
    const loaders = new Map<string, Loader>();
    const signals = new Map<string, AbortSignal>();
    t = setup(mode, {
      routes: [
        {
          path: '/slow/:n',
          title: ({ data }) => `Slow ${String(data)}`,
          load: ({ params, signal }) => {
            const d = deferred<string>();
            loaders.set(params['n'] as string, d);
            signals.set(params['n'] as string, signal);
            return d.promise;
          },
          render: ({ data }) => `<p>${String(data)}</p>`,
        },
      ],
      error: { title: 'Error', render: ({ error }) => `<p class="error">${(error as Error).message}</p>` },
    });
    await t.router.start();
    const seen: string[] = [];
    t.router.subscribe((current) => seen.push(`${current.location}${current.error ? ' (error)' : ''}`));
    const loader = (n: string) => loaders.get(n) as Loader;
    return { loader, signals, seen };
  }

  it.each([
    ['fails before the newer one resolves', ['fail 1', 'resolve 2']],
    ['fails after the newer one has committed', ['resolve 2', 'fail 1']],
    ['rejects with the AbortError of its signal', ['abort-fail 1', 'resolve 2']],
  ] as const)('never shows the error of an older loader that %s', async (_, steps) => {
    const { loader, signals, seen } = await open();
    const first = t.router.navigate('/slow/1');
    const second = t.router.navigate('/slow/2');
    expect(signals.get('1')?.aborted).toBe(true);
    for (const step of steps) {
      if (step === 'fail 1') loader('1').reject(new Error('first failed'));
      else if (step === 'abort-fail 1') loader('1').reject(signals.get('1')?.reason);
      else loader('2').resolve('second');
      await Promise.resolve();
    }
    expect(await first).toBe(false);
    expect(await second).toBe(true);
    await t.router.settled();
    expect(t.outlet()).toBe('<p>second</p>');
    expect(t.document.title).toBe('Slow second');
    expect(t.router.current).toMatchObject({ location: '/slow/2', data: 'second' });
    expect(t.router.current?.error).toBeUndefined();
    expect(t.address()).toBe(t.urlOf('/slow/2'));
    expect(seen).toEqual(['/slow/2']);
  });

  it('shows the error of the newer loader, and never the older result that lands after it', async () => {
    const { loader, seen } = await open();
    const first = t.router.navigate('/slow/1');
    const second = t.router.navigate('/slow/2');
    loader('2').reject(new Error('second failed'));
    expect(await second).toBe(true);
    loader('1').resolve('first');
    expect(await first).toBe(false);
    await t.router.settled();
    expect(t.outlet()).toBe('<p class="error">second failed</p>');
    expect(t.document.title).toBe('Error');
    expect(t.address()).toBe(t.urlOf('/slow/2'));
    expect(seen).toEqual(['/slow/2 (error)']);
  });

  it.each([
    ['resolves', (l: Loader) => l.resolve('late')],
    ['rejects', (l: Loader) => l.reject(new Error('late failure'))],
  ])('commits nothing when a loader %s after destroy()', async (_, settle) => {
    const { loader, signals } = await open();
    const listener = vi.fn();
    t.router.subscribe(listener);
    const before = { outlet: t.outlet(), title: t.document.title, address: t.address() };
    const navigation = t.router.navigate('/slow/1');
    t.router.destroy();
    expect(signals.get('1')?.aborted).toBe(true);
    settle(loader('1'));
    expect(await navigation).toBe(false);
    await t.window.happyDOM.waitUntilComplete();
    expect({ outlet: t.outlet(), title: t.document.title, address: t.address() }).toEqual(before);
    expect(t.router.current?.location).toBe('/');
    expect(t.document.documentElement.hasAttribute('data-router-state')).toBe(false);
    expect(listener).not.toHaveBeenCalled();
    await expect(t.router.settled()).resolves.toBeUndefined();
  });
});
