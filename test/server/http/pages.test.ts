import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/server/html/escape.js';
import { errorPage } from '../../../src/server/http/pages.js';

describe('errorPage', () => {
  it.each([
    [400, 'bad "%zz" in "<img onerror=x>"', '400 Bad Request'],
    [500, '</script><script>alert(1)</script>', '500 Internal Server Error'],
    [504, 'slow', '504 Gateway Timeout'],
    // limitClient's refusal: its page named '429 Error', which reads as a fault of the server.
    [429, 'later', '429 Too Many Requests'],
    [503, 'busy', '503 Service Unavailable'],
  ])('writes a %i page with the message escaped', (status, message, title) => {
    const page = errorPage(status, message);
    expect(page).toContain(`<title>${title}</title>`);
    expect(page).toContain(escapeHtml(message));
    expect(page).not.toContain('<img');
    expect(page).not.toContain('</script><script>');
  });
});
