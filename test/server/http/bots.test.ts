import { describe, expect, it } from 'vitest';
import { defaultIsBot } from '../../../src/server/http/bots.js';
import { costRatio } from '../../cost.js';

describe('defaultIsBot', () => {
  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Twitterbot/1.0',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'WhatsApp/2.23.20.0 A',
    'TelegramBot (like TwitterBot)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    // A search engine's headless renderer, signed as a crawler: it indexes what it gets.
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36 (compatible; Yeti/1.1; +https://naver.me/spd)',
  ])('knows %s for a bot', (agent) => {
    expect(defaultIsBot(agent)).toBe(true);
  });

  it.each([
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
    // A prerender service runs the app as a browser does.
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36 Prerender (+https://github.com/prerender/prerender)',
  ])('knows %s for a browser', (agent) => {
    expect(defaultIsBot(agent)).toBe(false);
  });

  it('takes no header for a browser, and reads a long one quickly and only in part', () => {
    expect(defaultIsBot(null)).toBe(false);
    const long = 'Mozilla/5.0 ' + '(a;'.repeat(1_000_000) + ' Googlebot';
    expect(defaultIsBot(long)).toBe(false);
    // Only in part: a 3 MB header costs what a 4 kB one does (1x measured; read whole, 3 MB is
    // hundreds of times the work), where a bound of 50 ms failed on a loaded machine.
    const short = 'Mozilla/5.0 ' + '(a;'.repeat(1365) + ' Googlebot';
    expect(
      costRatio(
        () => defaultIsBot(long),
        () => defaultIsBot(short),
        { repeat: 100 },
      ),
    ).toBeLessThan(10);
  });
});
