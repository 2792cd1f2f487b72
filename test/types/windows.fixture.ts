// Type fixtures for createRouter's `window` and `outlet`, compiled by `npm run typecheck`: the test
// DOMs' own types fit as they are, with no cast (happy-dom's and jsdom's classes are not the DOM's).
// A line marked `@ts-expect-error` must be an error. Never run.
import { Browser, GlobalWindow, Window as HappyWindow } from 'happy-dom';
import { JSDOM } from 'jsdom';
import { createRouter, type RouterWindow } from '../../src/client/index.js';
import { createRoutes } from '../../src/index.js';

const routes = createRoutes([{ path: '/' }]);

// happy-dom: its Window, its GlobalWindow, a browser page's window, and an element of its document as the outlet.
export const happy = (window = new HappyWindow()) => [
  createRouter({ routes, window }),
  createRouter({ routes, window: new GlobalWindow() }),
  createRouter({ routes, window: new Browser().newPage().mainFrame.window }),
  createRouter({ routes, window, outlet: window.document.querySelector('main') }),
];

// jsdom: a JSDOM's window, and an element of its document as the outlet.
export const jsdom = ({ window } = new JSDOM('<main></main>')) => [
  createRouter({ routes, window }),
  createRouter({ routes, window, outlet: window.document.querySelector('main') }),
];

// Each part the router uses is required: a window without its history, or whose document cannot
// make elements, is refused.
export const refused = (window: RouterWindow) => [
  // @ts-expect-error: no history
  createRouter({ routes, window: { ...window, history: undefined } }),
  // @ts-expect-error: a document that cannot make the head's tags
  createRouter({ routes, window: { ...window, document: { ...window.document, createElement: undefined } } }),
  // @ts-expect-error: an outlet that is no element
  createRouter({ routes, window, outlet: { innerHTML: '' } }),
];
