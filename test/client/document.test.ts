// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { unshadowed } from '../../src/client/document.js';
import type { RouterDocument } from '../../src/client/dom.js';

it('reads and writes the document’s own members past what the page put on the document itself', () => {
  document.body.innerHTML = '<p id="p">p</p>';
  // What a browser's named elements (`<img name="querySelector">`, `<form name="title">`) do, and a
  // page script may: own properties over the document's members (happy-dom has no named elements).
  const page = document as unknown as Record<string, unknown>;
  page['querySelector'] = () => null;
  Object.defineProperty(document, 'title', { value: 'the page’s', writable: false, configurable: true });
  const doc = unshadowed(document as unknown as RouterDocument);
  expect(doc.querySelector('#p')?.textContent).toBe('p');
  doc.title = 'Read through';
  expect(doc.title).toBe('Read through');
  expect(document.title).toBe('the page’s');
});
