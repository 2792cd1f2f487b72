// Real Chromium for the demo's tests: Debian's binary through playwright-core, never a downloaded one.
// A missing browser fails these tests (CI installs it), it never skips them.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../src/verify/browser.js';

/** Debian's Chromium, or CHROMIUM_PATH. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium; throws a clear error when it is not installed. It resolves no host
 * name: the tests' servers are on 127.0.0.1, and a request for any other host fails in the browser.
 */
export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    headless: true,
  });
}
