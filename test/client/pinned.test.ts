import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launch } from '../demo/chromium.js';
import { openFileDeepLink, sandboxedHost, walkFile, walkSandboxedFrame, writeFileApp, type Driver, type PageDriver } from './pinned-app.js';

// Where pushState to another path is refused, in real Chromium: a page opened from file:// and a
// sandboxed srcdoc frame (opaque origin). `auto` must choose `#!` there, and every write, link click
// and back/forward must stay on that very document. The app and both scenarios are pinned-app.ts's,
// which firefox.test.ts walks in Firefox.

let dir: string;
let file: string;
let browser: Browser;
let page: Page;
/** Console errors and warnings, and uncaught errors, of the page. */
let logged: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crawlable-router-pinned-'));
  file = writeFileApp(dir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  page = await browser.newPage();
  logged = [];
  page.on('console', (message) => void (['error', 'warning', 'assert'].includes(message.type()) && logged.push(message.text())));
  page.on('pageerror', (error) => void logged.push(error.message));
});
afterEach(() => page.close());

/** The app's document in `frame`, through playwright-core. */
function driver(frame: () => Frame): Driver {
  return {
    run: (f) => frame().evaluate(f),
    until: async (f, arg) => void (await frame().waitForFunction(f, arg)),
    click: (text) => frame().getByRole('link', { name: text, exact: true }).click(),
  };
}

/** The top page, with the browser's back and forward. */
function pageDriver(): PageDriver {
  return {
    ...driver(() => page.mainFrame()),
    goto: async (url) => void (await page.goto(url)),
    back: async () => void (await page.goBack()),
    forward: async () => void (await page.goForward()),
  };
}

describe('a page opened from file://', () => {
  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the file, logging nothing', async () => {
    await walkFile(pageDriver(), file);
    expect(logged).toEqual([]);
  });

  it('reads the state a #! link to the file names, logging nothing', async () => {
    await openFileDeepLink(pageDriver(), file);
    expect(logged).toEqual([]);
  });
});

describe('a sandboxed srcdoc frame (allow-scripts, no allow-same-origin)', () => {
  let host: Awaited<ReturnType<typeof sandboxedHost>>;
  beforeAll(async () => {
    host = await sandboxedHost();
  });
  afterAll(() => host.close());

  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the frame’s document', async () => {
    await page.goto(host.url);
    await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow !== null);
    await walkSandboxedFrame({ ...driver(() => page.frames()[1] as Frame), topUrl: () => page.url() }, host.url);
  });
});
