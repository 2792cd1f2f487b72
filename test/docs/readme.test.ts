import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The front page stays a front page: the quick start and the list of documents, the detail on the pages it links.
describe('the README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('stays within 12,000 bytes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12_000);
  });

  it('gives the two quick-start commands as they are run', () => {
    expect(readme).toMatch(/^npm ci && npm run demo\b/m);
    expect(readme).toMatch(/^npm ci && npm test\b/m);
  });
});
