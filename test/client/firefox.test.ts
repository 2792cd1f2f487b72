import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIVENESS_MS } from '../liveness.js';
import { launchFirefox } from './browsers.js';
import { openFileDeepLink, sandboxedHost, walkFile, walkSandboxedFrame, writeFileApp, type Driver, type PageDriver } from './pinned-app.js';

// The scenarios of pinned.test.ts (pinned-app.ts) in Debian's Firefox ESR, driven by puppeteer-core
// over WebDriver BiDi. Firefox logs a refused replaceState to another file as a security error, and
// with `security.fileuri.strict_origin_policy` off lets it pass (where history mode then wrote
// file:///books/1): `auto` must choose `#!` without trying, under either policy, and log nothing.
// And a sandboxed srcdoc frame (an opaque origin) must stay on its own document.

/** The app's document in `frame`, through puppeteer-core. */
function frameDriver(frame: Frame): Driver {
  return {
    run: (f) => frame.evaluate(f),
    until: async (f, arg) => void (await frame.waitForFunction(f, {}, arg)),
    click: (text) => frame.locator(`::-p-xpath(//a[. = ${JSON.stringify(text)}])`).click(),
  };
}

/** The page, through puppeteer-core. */
function driver(page: Page): PageDriver {
  return {
    ...frameDriver(page.mainFrame()),
    goto: async (url) => void (await page.goto(url)),
    back: async () => void (await page.goBack()),
    forward: async () => void (await page.goForward()),
  };
}

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crawlable-router-firefox-app-'));
  file = writeFileApp(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Firefox's own default is on; puppeteer's profile and the remote agent turn it off, so the first
// case sets it back explicitly.
describe.each([
  { policy: 'Firefox’s default file-URL policy', strict: true },
  { policy: 'security.fileuri.strict_origin_policy off', strict: false },
])('a page opened from file:// in Firefox, $policy', ({ strict }) => {
  let profile: string;
  let browser: Browser;
  let page: Page;
  /** Console errors and warnings, and uncaught errors, of the page. */
  let logged: string[];
  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'crawlable-router-firefox-profile-'));
    browser = await launchFirefox(profile, { 'security.fileuri.strict_origin_policy': strict });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  });
  beforeEach(async () => {
    page = await browser.newPage();
    page.setDefaultTimeout(LIVENESS_MS);
    logged = [];
    page.on('console', (message) => void (['error', 'warn', 'assert'].includes(message.type()) && logged.push(message.text())));
    page.on('pageerror', (error) => void logged.push(error instanceof Error ? error.message : String(error)));
  });
  afterEach(() => page.close());

  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the file, logging nothing', async () => {
    await walkFile(driver(page), file);
    expect(logged).toEqual([]);
  });

  it('reads the state a #! link to the file names, logging nothing', async () => {
    await openFileDeepLink(driver(page), file);
    expect(logged).toEqual([]);
  });

  // Else the two cases would test one policy: what a page that does try the write meets.
  it(`runs with the policy ${strict ? 'on: a replaceState to another file is refused' : 'off: a replaceState to another file passes'}`, async () => {
    await page.goto(file);
    const write = await page.evaluate(() => {
      const here = location.href;
      try {
        history.replaceState(history.state, '', '/-');
      } catch {
        return 'refused';
      }
      history.replaceState(history.state, '', here);
      return 'passed';
    });
    expect(write).toBe(strict ? 'refused' : 'passed');
  });
});

describe('a sandboxed srcdoc frame (allow-scripts, no allow-same-origin) in Firefox', () => {
  let host: Awaited<ReturnType<typeof sandboxedHost>>;
  let profile: string;
  let browser: Browser;
  beforeAll(async () => {
    host = await sandboxedHost();
    profile = mkdtempSync(join(tmpdir(), 'crawlable-router-firefox-profile-'));
    browser = await launchFirefox(profile);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    await host?.close();
  });

  it('chooses #!, navigates, routes link clicks and back/forward, never leaving the frame’s document', async () => {
    const page = await browser.newPage();
    try {
      page.setDefaultTimeout(LIVENESS_MS);
      await page.goto(host.url);
      await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow !== null);
      const frame = page.frames()[1] as Frame;
      await walkSandboxedFrame({ ...frameDriver(frame), topUrl: () => page.url() }, host.url);
    } finally {
      await page.close();
    }
  });
});
