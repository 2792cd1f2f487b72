import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIVENESS_MS } from '../liveness.js';
import { openFileDeepLink, walkFile, writeFileApp, type PageDriver } from './pinned-app.js';

// The file:// scenario of pinned.test.ts (pinned-app.ts) in Debian's Firefox ESR, driven by
// puppeteer-core over WebDriver BiDi. Firefox logs a refused replaceState to another file as a
// security error, and with `security.fileuri.strict_origin_policy` off lets it pass (where history
// mode then wrote file:///books/1): `auto` must choose `#!` without trying, under either policy,
// and log nothing.

/** Debian's Firefox ESR (scripts/system-deps.mjs installs it before the tests), or FIREFOX_PATH. */
const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

/**
 * Keeps Firefox off the network, beyond the prefs of puppeteer's profile and those Firefox's remote
 * agent sets for automation (updates, telemetry, Safe Browsing, captive portal, pointed at dummy
 * hosts or off). Measured with strace: without these firefox-esr 153 still looks up
 * firefox.settings.services.mozilla.com, since a release build ignores the remote-settings server
 * pref unless MOZ_DISABLE_NONLOCAL_CONNECTIONS is set (which also refuses any connection off the
 * machine); with them it connects to nothing but puppeteer on 127.0.0.1 and resolves no name.
 */
const QUIET = {
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  'network.dns.disabled': true,
};

/** Headless Firefox on a fresh profile in `profile`, which the caller removes. A missing Firefox fails, never skips. */
async function launchFirefox(profile: string, prefs: Record<string, unknown>): Promise<Browser> {
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

/** The page, through puppeteer-core. */
function driver(page: Page): PageDriver {
  return {
    run: (f) => page.evaluate(f),
    until: async (f, arg) => void (await page.waitForFunction(f, {}, arg)),
    click: (text) => page.locator(`::-p-xpath(//a[. = ${JSON.stringify(text)}])`).click(),
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
