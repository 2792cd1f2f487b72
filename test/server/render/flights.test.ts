import { describe, expect, it } from 'vitest';
import { createFlights, isAbandoned } from '../../../src/server/render/flights.js';

describe('createFlights', () => {
  it('shares one piece of work among the requests that join it', async () => {
    const flights = createFlights<number>();
    let starts = 0;
    const start = async () => (++starts, 42);
    expect(await Promise.all([flights.join('a', start), flights.join('a', start)])).toEqual([42, 42]);
    expect(starts).toBe(1);
    expect(flights.size).toBe(0);
  });

  it('lets a request leave at once, and aborts the work only when the last one has left', async () => {
    const flights = createFlights<string>();
    let signal!: AbortSignal;
    let finish!: (value: string) => void;
    const start = (s: AbortSignal) => ((signal = s), new Promise<string>((resolve) => (finish = resolve)));
    const one = new AbortController();
    const two = new AbortController();
    const first = flights.join('a', start, one.signal);
    const second = flights.join('a', start, two.signal);
    await Promise.resolve();
    one.abort(new Error('first left'));
    await expect(first).rejects.toThrow('first left');
    expect(signal.aborted).toBe(false);
    two.abort(new Error('second left'));
    await expect(second).rejects.toThrow('second left');
    expect(signal.aborted).toBe(true);
    expect(isAbandoned(signal.reason)).toBe(true);
    expect(flights.size).toBe(0);
    // A request after the abandonment starts fresh work.
    const third = flights.join('a', async () => 'fresh');
    finish('late');
    expect(await third).toBe('fresh');
  });

  it('refuses a request whose client has already gone', async () => {
    const flights = createFlights<number>();
    let started = false;
    await expect(flights.join('a', async () => ((started = true), 1), AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(started).toBe(false);
  });
});
