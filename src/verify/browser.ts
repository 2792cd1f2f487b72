// The no-cloaking check's browser: Debian's Chromium driven by playwright-core (an optional peer
// dependency, imported only here), never a browser that a tool downloads for itself.

import { STATE_ATTRIBUTE } from '../contract/settled.js';
import type { BrowserContext, Page } from 'playwright-core';
import type { TextReader } from './crawl.js';

/** Options of `chromiumTextReader`. */
export interface ChromiumOptions {
  /** The Chromium binary. Default `CHROMIUM_PATH` from the environment, else `/usr/bin/chromium`. */
  executablePath?: string;
  /** How long a page may take to load, settle and be read, in milliseconds. Default 15000. */
  timeoutMs?: number;
}

/** Flags for a headless Chromium that makes no connection of its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Starts Chromium and returns a reader of pages' visible text: with JavaScript, after the page has
 * loaded and its router (if any) has settled; without JavaScript, as a crawler's snapshot renders.
 */
export async function chromiumTextReader(options: ChromiumOptions = {}): Promise<TextReader> {
  const { executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', timeoutMs = 15_000 } = options;
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    throw new Error('verify --browser needs the playwright-core package: npm install --save-dev playwright-core');
  }
  const browser = await playwright.chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
  // Service workers are blocked: their requests would not pass through the routes below. Downloads
  // are refused: Playwright accepts them by default, and a page starting endless ones filled the disk.
  const withJs = await browser.newContext({ javaScriptEnabled: true, serviceWorkers: 'block', acceptDownloads: false });
  const withoutJs = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block', acceptDownloads: false });
  // Every page that is not one of ours is a popup (window.open, links and forms aimed at _blank), a
  // page's or a popup's, whose own popups Playwright reports on nobody once it is closed. Popups
  // have no routes of their own: the context's abort all they ask for (a page's own routes come
  // first). A page's are closed as they open; a context's are closed as they open while none of
  // ours is being opened in that context (which makes a page Playwright reports before it is ours),
  // and the ones that opened meanwhile after a read in it.
  const ours = new WeakSet<Page>();
  // How many pages of ours each context is opening.
  const opening = new Map<BrowserContext, number>();
  const count = (context: BrowserContext, by: number) => opening.set(context, (opening.get(context) ?? 0) + by);
  const close = (popup: Page) => void popup.close().catch(() => {});
  const closeStray = (page: Page) => opening.get(page.context()) || ours.has(page) || close(page);
  for (const context of [withJs, withoutJs]) {
    await context.route('**/*', (route) => route.abort('blockedbyclient'));
    await context.routeWebSocket(/./, (socket) => socket.close());
    context.on('page', closeStray);
  }
  // Each page may reach only the origin of the URL it was asked to read: any other request (the
  // page's own scripts, images, frames, WebSockets) is aborted before it leaves Chromium.
  const origins = new WeakMap<Page, string>();
  const open = async (context: BrowserContext): Promise<Page> => {
    count(context, 1);
    const page = await context.newPage().finally(() => count(context, -1));
    ours.add(page);
    page.on('popup', close);
    const allowed = (url: string) => URL.canParse(url) && new URL(url).origin === origins.get(page);
    await page.route('**/*', (route) => (allowed(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
    await page.routeWebSocket(/./, (socket) => (allowed(socket.url().replace(/^ws/, 'http')) ? socket.connectToServer() : socket.close()));
    return page;
  };
  // Pages are reused: a new page per URL costs more than the load itself.
  const idle = new Map<BrowserContext, Page[]>([
    [withJs, []],
    [withoutJs, []],
  ]);
  return {
    async visibleText(url, { javaScript, timeoutMs: within = timeoutMs }) {
      const context = javaScript ? withJs : withoutJs;
      const page = idle.get(context)?.pop() ?? (await open(context));
      origins.set(page, new URL(url).origin);
      let reuse = false;
      // The whole read has timeoutMs: Playwright's evaluate has no time limit of its own, so a page
      // whose script loops once loaded held verify for ever. Closing the page stops its script.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${url} did not load and settle within ${within} ms`)), within);
      });
      try {
        const text = await Promise.race([read(page, url, javaScript, within), late]);
        reuse = true;
        return text;
      } finally {
        clearTimeout(timer);
        if (reuse) idle.get(context)?.push(page);
        else await page.close();
        context.pages().forEach(closeStray);
      }
    },
    async close() {
      await browser.close();
    },
  };

  /** The visible text of `url` in `page`, once it has loaded and settled. */
  async function read(page: Page, url: string, javaScript: boolean, timeoutMs: number): Promise<string> {
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    if (javaScript) {
      // A page with the router says when it is done (see the client's settled signal); one
      // without it is done when its network has been quiet for a moment.
      const routed = await page.evaluate((name) => document.documentElement.hasAttribute(name), STATE_ATTRIBUTE);
      if (routed)
        await page.waitForFunction((name) => document.documentElement.getAttribute(name) === 'settled', STATE_ATTRIBUTE, {
          timeout: timeoutMs,
        });
      else await page.waitForLoadState('networkidle', { timeout: timeoutMs });
    }
    return page.evaluate(() => document.body?.innerText ?? '');
  }
}
