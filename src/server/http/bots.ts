// Who gets a rendered page at a clean URL in `cleanUrls: 'bots'` mode: user agents that run no
// JavaScript. The default list is the `isbot` package (kept up to date by its maintainers against
// real crawler, link-preview and AI-crawler user agents), so this module holds no list of its own.

import { isbot } from 'isbot';

/** Tells whether a request's `User-Agent` (null when it has none) belongs to a bot that runs no JavaScript. */
export type IsBot = (userAgent: string | null) => boolean;

/** Bots name themselves early in the header; a longer one is read only this far so its length costs nothing. */
export const MAX_USER_AGENT = 2048;

// Automated browsers the list counts as bots but that run the app as a person's browser does, and
// stand for one (prerender services, Lighthouse, end-to-end tests): they get what browsers get.
const BROWSERS = /HeadlessChrome|Chrome-Lighthouse/;

// The list is one large regular expression (1 to 4 µs a header): verdicts are kept per header, a
// few hundred at most (crawlers send a handful of distinct ones; past the bound the map starts over).
const VERDICTS_KEPT = 500;
const verdicts = new Map<string, boolean>();

/**
 * The default `isBot`: the `isbot` package's list, on the header's first 2048 characters, but for
 * headless Chrome and Lighthouse; no header is not a bot.
 */
export function defaultIsBot(userAgent: string | null): boolean {
  if (userAgent === null) return false;
  const head = userAgent.slice(0, MAX_USER_AGENT);
  let verdict = verdicts.get(head);
  if (verdict === undefined) {
    verdict = isbot(head) && !BROWSERS.test(head);
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(head, verdict);
  }
  return verdict;
}
