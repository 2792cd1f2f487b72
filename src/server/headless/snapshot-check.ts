// The server's own read of a page process's snapshot. The page process wrote it with happy-dom's
// objects, which the page's scripts could have replaced (a wrapped `getAttribute` decides what the
// serialiser sees), so what the renderer promises of every snapshot is checked here, on the HTML
// parsed again with parse5, in the server: none of the router's settled attributes on `<html>`,
// no meta fragment tag, no canonical link in a state that is not 200, and `noindex` in a noindex
// route's state. A page process that breaks one is not believed: its render fails.

import { parse } from 'parse5';
import { headKey, isCanonicalLink, isFragmentMeta } from '../../contract/head.js';
import { REDIRECT_ATTRIBUTE, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../contract/settled.js';
import { walkElements } from '../html/links.js';
import { attr } from '../html/selector.js';
import { ROBOTS_KEY } from '../noindex.js';

/** What the check needs of the render: its status, and whether its route is noindex. */
export interface Checked {
  status: number;
  noindex?: boolean;
}

/** The first rule `html` breaks for a render of `job`, or null when it keeps them all. */
export function checkSnapshot(html: string, job: Checked): string | null {
  let wrong: string | null = null;
  let noindex = false;
  walkElements(parse(html), (element) => {
    if (wrong) return;
    const read = (name: string) => attr(element, name);
    if (element.tagName === 'html' && [STATE_ATTRIBUTE, STATUS_ATTRIBUTE, REDIRECT_ATTRIBUTE].some((name) => read(name) !== undefined))
      wrong = 'the router’s settled attributes are left on <html>';
    else if (isFragmentMeta(element.tagName, read)) wrong = 'a meta fragment tag is left in';
    else if (job.status !== 200 && isCanonicalLink(element.tagName, read)) wrong = `a ${job.status} state has a canonical link`;
    else if (headKey(element.tagName, read) === ROBOTS_KEY && /\b(noindex|none)\b/i.test(read('content') ?? '')) noindex = true;
  });
  return wrong ?? (job.noindex && !noindex ? 'a noindex route’s state says no noindex' : null);
}
