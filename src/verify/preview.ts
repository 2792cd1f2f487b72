// What a link preview (a chat app, a social network) shows for a state: its Open Graph tags. A page
// that has them and names no image gets a card with no picture, which works but shows less than it
// could: a warning, never a problem.

import type { PageFacts } from './page.js';
import type { Warning } from './problems.js';

/** MISSING_OG_IMAGE for the page of the state at `url` when it has og: tags and no og:image, else null. */
export function previewWarning(url: string, facts: PageFacts): Warning | null {
  if (!facts.og || facts.ogImage) return null;
  return {
    code: 'MISSING_OG_IMAGE',
    message: `the page of ${url} has Open Graph tags but no og:image: a link preview shows it without a picture`,
  };
}
