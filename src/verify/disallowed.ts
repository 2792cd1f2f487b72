// A URL robots.txt disallows is not fetched, as crawlers honour it: a DISALLOWED warning, never a
// problem, since a site may mean it (an admin area, a search page, `optOut` of the scheme).

import type { Warning } from './problems.js';
import { decidingRule, type RobotsRule } from './robots.js';

/**
 * DISALLOWED when `rules` keep a crawler from `url`, naming the rule, else null. `of` says what the
 * URL is when it is not the state's own (`the snapshot of https://e.com/`), `then` what follows.
 */
export function disallowedWarning(rules: readonly RobotsRule[], url: string, of = '', then = 'not fetched'): Warning | null {
  const rule = decidingRule(rules, url);
  if (rule === null || rule.allow) return null;
  return {
    code: 'DISALLOWED',
    message: `robots.txt disallows ${url}${of ? `, ${of},` : ''} for Googlebot (Disallow: ${rule.pattern}): ${then}`,
  };
}
