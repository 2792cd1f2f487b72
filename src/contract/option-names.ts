// A misspelt option is a first-try failure that nothing reports: `cleanURLs: 'all'` is an option
// nobody reads, so the default stands, silently. A name that is no option but one in another case,
// or one without its unit (`timeout` for `timeoutMs`), is named with the option meant; any other
// unknown name is left alone (an app may spread a config object of its own). Internal: no DOM, no Node.

/** What is wrong with the first option name of `options` that is a slip of one of `known`'s, or null. */
export function misspeltOption(options: object, known: Record<string, unknown>): string | null {
  for (const name of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(known, name)) continue;
    const folded = name.toLowerCase();
    const meant = Object.keys(known).find((option) => [folded, folded + 'ms'].includes(option.toLowerCase()));
    if (meant !== undefined) return `${JSON.stringify(name)} is no option; did you mean ${JSON.stringify(meant)}?`;
  }
  return null;
}
