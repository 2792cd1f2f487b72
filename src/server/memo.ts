// A bounded memo for what a request's text means when working it out costs more than the rest of
// a cached answer (a User-Agent against the bot list, a target parsed and matched). Crawlers send
// the same few strings again and again; anyone can send new ones, so only short keys are kept, and
// past `max` entries the memo starts over: it never holds more than `max × maxKeyLength` characters.

/** Options of `memoize`. */
export interface MemoOptions {
  /** Most entries kept. */
  max: number;
  /** Longest key kept, in UTF-16 units; longer ones are worked out every time. */
  maxKeyLength: number;
}

/** `fn` with its results kept per key (a throw is not kept). */
export function memoize<T>(fn: (key: string) => T, { max, maxKeyLength }: MemoOptions): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    const found = kept.get(key);
    if (found !== undefined || kept.has(key)) return found as T;
    const value = fn(key);
    if (key.length <= maxKeyLength) {
      if (kept.size >= max) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}
