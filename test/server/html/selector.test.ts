import { describe, expect, it } from 'vitest';
import { SnapshotError } from '../../../src/server/errors.js';
import { compileSelector, type SelectorElement } from '../../../src/server/html/selector.js';

const el = (tagName: string, attrs: Record<string, string> = {}): SelectorElement => ({
  tagName,
  attrs: Object.entries(attrs).map(([name, value]) => ({ name, value })),
});

describe('compileSelector', () => {
  it.each([
    ['#app', el('div', { id: 'app' }), true],
    ['#app', el('div', { id: 'App' }), false],
    ['#app', el('div', { id: 'app x' }), false],
    ['main', el('main'), true],
    ['MAIN', el('main'), true],
    ['main', el('div'), false],
    ['.content', el('div', { class: 'a content b' }), true],
    ['.content', el('div', { class: 'contents' }), false],
    ['[data-outlet]', el('div', { 'data-outlet': '' }), true],
    ['[data-outlet]', el('div'), false],
    ['[DATA-OUTLET]', el('div', { 'data-outlet': '' }), true],
    ['[role=main]', el('div', { role: 'main' }), true],
    ['[role="main"]', el('div', { role: 'main' }), true],
    ["[role='main']", el('div', { role: 'Main' }), false],
    ['[data-x="a b"]', el('div', { 'data-x': 'a b' }), true],
    ['main#app.x[role=main]', el('main', { id: 'app', class: 'x', role: 'main' }), true],
    ['main#app.x[role=main]', el('main', { id: 'app', class: 'y', role: 'main' }), false],
    ['*', el('section'), true],
    ['  #app  ', el('div', { id: 'app' }), true],
  ])('%s against %o is %s', (selector, element, expected) => {
    expect(compileSelector(selector)(element)).toBe(expected);
  });

  it.each(['', 'div > p', 'div p', '#', '.', '#a:hover', '[x=', 'a,b', '#app"><img onerror=x>', '[x="a"b]'])(
    'refuses %j with BAD_OPTION',
    (selector) => {
      expect(() => compileSelector(selector)).toThrow(SnapshotError);
      try {
        compileSelector(selector);
      } catch (error) {
        expect((error as SnapshotError).code).toBe('BAD_OPTION');
        expect((error as SnapshotError).message).toContain(JSON.stringify(selector));
      }
    },
  );
});
