// Who gets a rendered page at a clean URL in `cleanUrls: 'bots'` mode: user agents that run no
// JavaScript. The default list is the `isbot` package (kept up to date by its maintainers against
// real crawler, link-preview and AI-crawler user agents), so this module holds no list of its own.

import { isbot } from 'isbot';
import { memoize } from '../memo.js';

/** Tells whether a request's `User-Agent` (null when it has none) belongs to a bot that runs no JavaScript. */
export type IsBot = (userAgent: string | null) => boolean;

/** Bots name themselves early in the header; a longer one is read only this far so its length costs nothing. */
const MAX_USER_AGENT = 2048;

// Automated browsers the list counts as bots but that run the app as a person's browser does, and
// stand for one (prerender services, Lighthouse, end-to-end tests): they get what browsers get.
const BROWSERS = /HeadlessChrome|Chrome-Lighthouse/;
// Unless it names a crawler the way crawlers sign (`compatible; Yeti/1.1; +https://naver.me/spd`):
// a search engine's own headless renderer indexes what it gets, and gets the snapshot.
const CRAWLER = /\bcompatible;/i;

// The list is one large regular expression (1 to 4 µs a header): verdicts are kept per header
// (crawlers send a handful of distinct ones).
const verdictOf = memoize((head: string) => isbot(head) && (!BROWSERS.test(head) || CRAWLER.test(head)), {
  max: 500,
  maxKeyLength: MAX_USER_AGENT,
});

/**
 * The default `isBot`: the `isbot` package's list, on the header's first 2048 characters, but for
 * headless Chrome and Lighthouse; no header is not a bot.
 */
export function defaultIsBot(userAgent: string | null): boolean {
  return userAgent !== null && verdictOf(userAgent.slice(0, MAX_USER_AGENT));
}
