// The two engines the client's browser tests run in, behind one small interface: Debian's Chromium
// through playwright-core, and Debian's Firefox ESR through puppeteer-core over WebDriver BiDi
// (Playwright drives only its own patched Firefox, which no test may download). A test names what it
// does to a tab (go to a URL, run a function in the page, click, go back) and runs unchanged in both.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page as ChromiumPage } from 'playwright-core';
import puppeteer, { type Browser as FirefoxBrowser, type Page as FirefoxPage } from 'puppeteer-core';
import { launch as launchChromium } from '../demo/chromium.js';
import { LIVENESS_MS } from '../liveness.js';

/** The engines, in the order the tests run them. */
export const BROWSERS = ['chromium', 'firefox'] as const;
export type BrowserName = (typeof BROWSERS)[number];
/** A key held down through a click. */
export type Modifier = 'Control' | 'Shift';

/** A tab, and what the tests do to it. Every wait is for liveness only (LIVENESS_MS unless given). */
export interface Tab {
  /** Loads `url` as the address bar does and waits for its load event. */
  goto(url: string): Promise<void>;
  /** Runs `f` in the page (serialized, as a browser driver does) and gives its result. */
  evaluate<R>(f: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(f: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Waits until `f(arg)` is truthy in the page. */
  waitForFunction<A>(f: (arg: A) => unknown, arg?: A, timeout?: number): Promise<void>;
  /** Runs `f(arg)` in every document this tab loads from now on, before its own scripts. */
  addInitScript<A>(f: (arg: A) => void, arg: A): Promise<void>;
  /** Clicks the first element `selector` matches as a user does, at `position` in it when given. */
  click(selector: string, options?: { position?: { x: number; y: number }; modifiers?: Modifier[] }): Promise<void>;
  /** Clicks, as a user does, the `<a>` whose text is exactly `text`. */
  clickLink(text: string, modifiers?: Modifier[]): Promise<void>;
  /**
   * The browser's own back and forward buttons; each waits for the traversal it starts (in Firefox,
   * puppeteer hears no traversal off an entry a fragment change made: such a back never returns).
   */
  goBack(): Promise<void>;
  goForward(): Promise<void>;
  title(): Promise<string>;
  /** Makes this the tab in front, as the one a user clicks in is (Firefox opens no window for a modified click in a tab behind). */
  bringToFront(): Promise<void>;
  close(): Promise<void>;
  /** Calls `listener` with each uncaught error's text. */
  onError(listener: (text: string) => void): void;
  /** Calls `listener` with each console error's text (a failed request's among them). */
  onConsoleError(listener: (text: string) => void): void;
  /** Calls `listener` with the URL of each request the page makes. */
  onRequest(listener: (url: string) => void): void;
  /** Calls `listener` with the URL of each document any of the page's frames navigates to. */
  onDocument(listener: (url: string) => void): void;
}

/** One browser of a test file: its tabs, and the windows a click opens. */
export interface Session {
  newTab(): Promise<Tab>;
  /** Runs `action` (a Ctrl- or Shift-click) and waits until it has opened another tab or window, which it closes. */
  opensWindow(action: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Launches `name` headless; a browser that is missing fails with the command that installs it. */
export function launch(name: BrowserName): Promise<Session> {
  return name === 'chromium' ? chromium() : firefox();
}

async function chromium(): Promise<Session> {
  const browser = await launchChromium();
  // One context for the file: the modules of dist/ load once for all its tabs.
  const context = await browser.newContext().catch(async (error: unknown) => {
    await browser.close();
    throw error;
  });
  return {
    newTab: async () => chromiumTab(await context.newPage()),
    async opensWindow(action) {
      const [opened] = await Promise.all([context.waitForEvent('page', { timeout: LIVENESS_MS }), action()]);
      await opened.close();
    },
    close: () => browser.close(),
  };
}

function chromiumTab(page: ChromiumPage): Tab {
  page.setDefaultTimeout(LIVENESS_MS);
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: <R, A>(f: (arg: A) => R | Promise<R>, arg?: A) => page.evaluate(f as never, arg) as Promise<R>,
    waitForFunction: async (f, arg, timeout = LIVENESS_MS) => void (await page.waitForFunction(f as never, arg, { timeout })),
    addInitScript: async (f, arg) => void (await page.addInitScript(f as never, arg)),
    // At a position: an `<img usemap>`'s area is clicked through the image, which Playwright's
    // actionability check takes for a click on something else, so it is not checked there.
    click: (selector, options = {}) => page.click(selector, { ...options, force: options.position !== undefined }),
    clickLink: (text, modifiers) => page.getByRole('link', { name: text, exact: true }).click(modifiers ? { modifiers } : {}),
    goBack: async () => void (await page.goBack()),
    goForward: async () => void (await page.goForward()),
    title: () => page.title(),
    bringToFront: () => page.bringToFront(),
    close: () => page.close(),
    onError: (listener) => void page.on('pageerror', (error) => listener(error.message)),
    onConsoleError: (listener) => void page.on('console', (message) => void (message.type() === 'error' && listener(message.text()))),
    onRequest: (listener) => void page.on('request', (request) => listener(request.url())),
    onDocument: (listener) => void page.on('framenavigated', (frame) => listener(frame.url())),
  };
}

/** Debian's Firefox ESR (scripts/system-deps.mjs installs it before the tests), or FIREFOX_PATH. */
export const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

/**
 * Keeps Firefox off the network, beyond the prefs of puppeteer's profile and those Firefox's remote
 * agent sets for automation (updates, telemetry, Safe Browsing, captive portal, pointed at dummy
 * hosts or off). Measured with strace: without these firefox-esr 153 still looks up
 * firefox.settings.services.mozilla.com, since a release build ignores the remote-settings server
 * pref unless MOZ_DISABLE_NONLOCAL_CONNECTIONS is set (which also refuses any connection off the
 * machine); with them it connects to nothing but puppeteer and the tests' servers on 127.0.0.1 and
 * resolves no name.
 */
const QUIET = {
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  'network.dns.disabled': true,
};

/** Headless Firefox on a fresh profile in `profile`, which the caller removes. A missing Firefox fails, never skips. */
export async function launchFirefox(profile: string, prefs: Record<string, unknown> = {}): Promise<FirefoxBrowser> {
  if (!existsSync(FIREFOX))
    throw new Error(`Firefox is missing at ${FIREFOX}: apt-get update && apt-get install -y firefox-esr (or set FIREFOX_PATH)`);
  return puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    extraPrefsFirefox: { ...QUIET, ...prefs },
    env: { ...process.env, MOZ_DISABLE_NONLOCAL_CONNECTIONS: '1' },
    timeout: LIVENESS_MS,
    protocolTimeout: LIVENESS_MS,
  });
}

async function firefox(): Promise<Session> {
  const profile = mkdtempSync(join(tmpdir(), 'crawlable-router-firefox-profile-'));
  let browser: FirefoxBrowser;
  try {
    browser = await launchFirefox(profile);
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    newTab: async () => firefoxTab(await browser.newPage()),
    async opensWindow(action) {
      const known = new Set(browser.targets());
      const [target] = await Promise.all([
        browser.waitForTarget((t) => t.type() === 'page' && !known.has(t), { timeout: LIVENESS_MS }),
        action(),
      ]);
      await (await target.page())?.close();
    },
    async close() {
      try {
        await browser.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/** `text` as an XPath string literal (XPath 1 has no escapes: a text holding both quotes is refused). */
function xpathText(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  throw new Error(`clickLink: a link text holding both quotes is not supported: ${text}`);
}

function firefoxTab(page: FirefoxPage): Tab {
  page.setDefaultTimeout(LIVENESS_MS);
  /** Runs `act` with `modifiers` held down. */
  async function holding(modifiers: Modifier[] = [], act: () => Promise<void>) {
    for (const key of modifiers) await page.keyboard.down(key);
    try {
      await act();
    } finally {
      for (const key of modifiers) await page.keyboard.up(key);
    }
  }
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: <R, A>(f: (arg: A) => R | Promise<R>, arg?: A) => page.evaluate(f as never, arg) as Promise<R>,
    waitForFunction: async (f, arg, timeout = LIVENESS_MS) => void (await page.waitForFunction(f as never, { timeout }, arg)),
    addInitScript: async (f, arg) => void (await page.evaluateOnNewDocument(f as never, arg)),
    // A locator waits for the element and for it to stand still, as Playwright's click does.
    click: (selector, { position, modifiers } = {}) =>
      holding(modifiers, () => page.locator(selector).click(position ? { offset: position } : {})),
    // A link (an `<a>` with an href) named by its text, spaces trimmed and collapsed, as Playwright's role query reads it.
    clickLink: (text, modifiers) =>
      holding(modifiers, () => page.locator(`::-p-xpath(//a[@href][normalize-space(.) = ${xpathText(text)}])`).click()),
    goBack: async () => void (await page.goBack()),
    goForward: async () => void (await page.goForward()),
    title: () => page.title(),
    bringToFront: () => page.bringToFront(),
    close: () => page.close(),
    onError: (listener) => void page.on('pageerror', (error) => listener(error instanceof Error ? error.message : String(error))),
    onConsoleError: (listener) => void page.on('console', (message) => void (message.type() === 'error' && listener(message.text()))),
    onRequest: (listener) => void page.on('request', (request) => listener(request.url())),
    onDocument: (listener) => void page.on('framenavigated', (frame) => listener(frame.url())),
  };
}
