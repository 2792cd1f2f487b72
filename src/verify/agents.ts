// `verify` as today's crawlers: link-preview bots, AI crawlers and search engines fetch a state's
// clean URL and most run no JavaScript. Each state's clean URL is fetched twice, as such a bot and
// as a browser, to report a bot answer with nothing to show (no title or description), a status
// that differs between forms of one state, and answers that differ by agent without saying so in
// `Vary` (a shared cache would then hand one agent's answer to the other).

import { createHash } from 'node:crypto';
import { addProblem, type CleanUrlReport, type Problem } from './problems.js';
import { readPage } from './page.js';

/** The User-Agent of the bot fetch: Google's crawler, which every bot list knows. */
export const BOT_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** The User-Agent of the browser fetch: a desktop Chrome. */
export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** One answer, as the agent check reads it. */
export interface AgentAnswer {
  status: number;
  body: string;
  /** The `Vary` header, or null. */
  vary: string | null;
}

/** The clean URL of a state URL: `https://a.b/app/#!/books/1` → `https://a.b/app/books/1`; a URL without `#!` is its own, without its anchor. */
export function cleanUrlOf(url: string): string {
  const hash = url.indexOf('#');
  if (hash < 0) return url;
  const page = url.slice(0, hash);
  if (url[hash + 1] !== '!') return page;
  const query = page.indexOf('?');
  const path = query < 0 ? page : page.slice(0, query);
  const state = url.slice(hash + 2);
  return path.slice(0, path.lastIndexOf('/')) + (state.startsWith('/') ? state : '/' + state);
}

const varies = (answer: { vary: string | null }) => (answer.vary ?? '').split(',').some((name) => /^\s*(user-agent|\*)\s*$/i.test(name));

/**
 * Fetches the clean URL of a state (crawled at `url` with `status`) as a bot and as a browser with
 * `get(url, userAgent)`, and says what is wrong: EMPTY_FOR_BOTS, STATUS_DIFFERS, MISSING_VARY.
 */
export async function crawlAsAgents(
  url: string,
  status: number,
  get: (url: string, userAgent: string) => Promise<AgentAnswer>,
): Promise<{ clean: CleanUrlReport; problems: Problem[] }> {
  const clean = cleanUrlOf(url);
  // Each answer is read as it comes, and only what is compared kept of it (a digest of the body, not
  // the body nor its links) while the other is awaited.
  const read = async (agent: string) => {
    const { status, vary, body } = await get(clean, agent);
    const { title, description, fragmentMetas } = readPage(body);
    return {
      status,
      vary,
      title,
      description,
      shell: fragmentMetas.length > 0,
      digest: createHash('sha256').update(body).digest('base64'),
    };
  };
  const [bot, browser] = await Promise.all([read(BOT_AGENT), read(BROWSER_AGENT)]);
  const report: CleanUrlReport = {
    url: clean,
    bot: { status: bot.status, title: bot.title, description: bot.description },
    browser: { status: browser.status, shell: browser.shell },
    differ: bot.status !== browser.status || bot.digest !== browser.digest,
  };
  const problems: Problem[] = [];
  if (bot.status === 200 && (!bot.title || !bot.description)) {
    const missing = [bot.title ? '' : 'no <title>', bot.description ? '' : 'no <meta name="description">'].filter(Boolean).join(' and ');
    addProblem(problems, {
      code: 'EMPTY_FOR_BOTS',
      message: `a bot that runs no JavaScript gets ${missing} at ${clean}: link previews and AI crawlers show nothing for it`,
    });
  }
  if (bot.status !== status)
    addProblem(problems, {
      code: 'STATUS_DIFFERS',
      message: `${clean} answers a bot ${bot.status} where ${url} was crawled with ${status}`,
    });
  // A shell answers for a state it has not rendered: only a rendered page's status is the state's.
  else if (!browser.shell && browser.status !== bot.status)
    addProblem(problems, { code: 'STATUS_DIFFERS', message: `${clean} answers a browser ${browser.status} and a bot ${bot.status}` });
  if (report.differ && !(varies(bot) && varies(browser))) {
    addProblem(problems, {
      code: 'MISSING_VARY',
      message: `${clean} answers a bot and a browser differently without Vary: User-Agent on both: a shared cache can give one the other's page`,
    });
  }
  return { clean: report, problems };
}
