// robots.txt as crawlers honour it (RFC 9309): the group of the most specific user agent that
// matches (Googlebot's when there is one, else `*`'s, groups of one agent merged), and of its rules
// the longest that matches a URL's path and query wins, Allow over Disallow on a tie. `*` matches
// any run of characters and a final `$` the end of the URL. Every step is a loop over the text or
// the rules, with no regular expression built from the site's patterns: a site chooses its
// robots.txt, and a pattern such as `/*a*a*a*…b` backtracks for ever in a regex.

/** Google reads the first 500 KiB of a robots.txt; the rest is ignored. */
export const ROBOTS_BYTES = 500 * 1024;

/** One Allow or Disallow line of the group that applies. */
export interface RobotsRule {
  /** True for Allow. */
  allow: boolean;
  /** The path pattern, as `normalize` writes it. */
  pattern: string;
}

const UNRESERVED = /[A-Za-z0-9._~-]/;

/**
 * A path as robots.txt compares it (RFC 9309, 2.2.2): every byte outside printable ASCII escaped,
 * escapes in upper case, and an escaped unreserved character (`%62`) written as itself. In a URL
 * (`url` true) a `*` or `$` is escaped too: a pattern's `%2A` matches it, its `*` any run.
 */
function normalize(text: string, url: boolean): string {
  if (!(url ? /[^\x21-\x7e]|[%*$]/ : /[^\x21-\x7e]|%/).test(text)) return text;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code > 0x20 && code < 0x7f && !(url && (char === '*' || char === '$'))) out += char;
    else for (const byte of Buffer.from(char)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}

/** A rule's pattern as matched: a `$` before its end stands for itself, as the URL's `$` is written. */
function patternOf(value: string): string {
  const end = value.endsWith('$') ? '$' : '';
  return normalize(value.slice(0, value.length - end.length).replace(/\$/g, '%24'), false) + end;
}

/** The product token of a User-agent value (`Googlebot/2.1` → `googlebot`), in lower case; `*` stays. */
function productToken(value: string): string {
  if (value.startsWith('*')) return '*';
  let end = 0;
  while (end < value.length && /[A-Za-z_-]/.test(value[end] as string)) end++;
  return value.slice(0, end).toLowerCase();
}

/**
 * The rules of `text` (a robots.txt, its first ROBOTS_BYTES read) for the crawler named `agent`
 * (its product token, such as `Googlebot`): those of every group for that agent, or, when there is
 * none, of every group for `*`; none when neither is there.
 */
export function robotsRules(text: string, agent: string): RobotsRule[] {
  const own = agent.toLowerCase();
  const rules: { [token: string]: RobotsRule[] } = { [own]: [], '*': [] };
  const named = new Set<string>();
  // The agents of the group being read, and whether a rule ended its User-agent lines.
  let group: string[] = [];
  let ruled = false;
  const read = Buffer.byteLength(text) > ROBOTS_BYTES ? Buffer.from(text).subarray(0, ROBOTS_BYTES).toString() : text;
  // A line ends at CR, LF or CRLF (RFC 9309's EOL); a comment at `#`.
  for (const line of read.replace(/^\ufeff/, '').split(/\r\n|\r|\n/)) {
    const hash = line.indexOf('#');
    const content = hash < 0 ? line : line.slice(0, hash);
    const colon = content.indexOf(':');
    if (colon < 0) continue;
    const field = content.slice(0, colon).trim().toLowerCase();
    const value = content.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (ruled) group = [];
      ruled = false;
      const token = productToken(value);
      named.add(token);
      if (token === own || token === '*') group.push(token);
    } else if (field === 'allow' || field === 'disallow') {
      ruled = true;
      // An empty pattern matches nothing (`Disallow:` allows all).
      if (value) for (const token of group) rules[token]?.push({ allow: field === 'allow', pattern: patternOf(value) });
    }
  }
  return (named.has(own) ? rules[own] : rules['*']) ?? [];
}

/**
 * True when `pattern` matches `path` from its start: `*` any run of characters, a final `$` the
 * end. Greedy, each literal run at its first place after the last: linear in the path for each run,
 * never backtracking.
 */
export function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const runs = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = runs[0] as string;
  if (!path.startsWith(first)) return false;
  if (runs.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  for (let i = 1; i < runs.length - 1; i++) {
    const found = path.indexOf(runs[i] as string, at);
    if (found < 0) return false;
    at = found + (runs[i] as string).length;
  }
  const last = runs[runs.length - 1] as string;
  // Unanchored, the last run may stand anywhere after; anchored, it ends the path.
  if (!anchored) return path.indexOf(last, at) >= 0;
  return path.length - last.length >= at && path.endsWith(last);
}

/**
 * The rule that decides `url` (absolute; its path and query are matched), or null when none matches
 * and it is allowed: the longest pattern that matches, an Allow on a tie.
 */
export function decidingRule(rules: readonly RobotsRule[], url: string): RobotsRule | null {
  const { pathname, search } = new URL(url);
  const path = normalize(pathname + search, true);
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    // A rule no longer than the best one cannot win, unless it is an Allow of the same length.
    if (best && (rule.pattern.length < best.pattern.length || (rule.pattern.length === best.pattern.length && !rule.allow))) continue;
    if (matches(rule.pattern, path)) best = rule;
  }
  return best;
}

/** True when `rules` let a crawler fetch `url`. */
export function isAllowed(rules: readonly RobotsRule[], url: string): boolean {
  return decidingRule(rules, url)?.allow ?? true;
}
