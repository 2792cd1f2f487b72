import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { publishSettled } from '../../src/client/settled.js';
import type { LiveWindow, RouterDocument } from '../../src/client/dom.js';
import { SETTLED_EVENT } from '../../src/contract/settled.js';

describe('publishSettled', () => {
  it("marks <html> settled with the status and the redirect, then dispatches the event with the same outcome and a failure's cause", () => {
    const window = new Window();
    const root = window.document.documentElement;
    const seen: unknown[] = [];
    window.addEventListener(SETTLED_EVENT, (event) => {
      // The marks are in place by the time anyone hears the event.
      seen.push([
        (event as unknown as { detail: unknown }).detail,
        root.getAttribute('data-router-state'),
        root.getAttribute('data-router-status'),
      ]);
    });
    publishSettled(window as unknown as LiveWindow, window.document as unknown as RouterDocument, '/books/1', 301, '/books/1', undefined);
    expect(root.getAttribute('data-router-redirect')).toBe('/books/1');
    publishSettled(window as unknown as LiveWindow, window.document as unknown as RouterDocument, '/missing', 404, undefined, undefined);
    expect(root.hasAttribute('data-router-redirect')).toBe(false);
    // What a failed load threw goes with the event only (a headless renderer says it), never into the page.
    const down = new Error('the API is down');
    publishSettled(window as unknown as LiveWindow, window.document as unknown as RouterDocument, '/books/2', 500, undefined, down);
    expect(root.outerHTML).not.toContain('API');
    expect(seen).toEqual([
      [{ location: '/books/1', status: 301, redirect: '/books/1', error: undefined }, 'settled', '301'],
      [{ location: '/missing', status: 404, redirect: undefined, error: undefined }, 'settled', '404'],
      [{ location: '/books/2', status: 500, redirect: undefined, error: down }, 'settled', '500'],
    ]);
  });
});
