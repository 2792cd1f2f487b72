import { describe, expect, it } from 'vitest';
import { misspeltOption } from '../../src/contract/option-names.js';

describe('misspeltOption', () => {
  const known = { cleanUrls: 1, timeoutMs: 1, origin: 1 };

  it('names an option given in another case, or without its unit, with the one meant', () => {
    expect(misspeltOption({ origin: 'x', cleanURLs: 'all' }, known)).toBe('"cleanURLs" is no option; did you mean "cleanUrls"?');
    expect(misspeltOption({ TIMEOUT: 5 }, known)).toBe('"TIMEOUT" is no option; did you mean "timeoutMs"?');
  });

  it('leaves known names, and unknown names that are no slip of one, alone', () => {
    expect(misspeltOption({ origin: 'x', cleanUrls: 'all', appName: 'shop', constructor: 1 }, known)).toBeNull();
    expect(misspeltOption({}, known)).toBeNull();
  });
});
