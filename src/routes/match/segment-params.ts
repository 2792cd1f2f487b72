// The params of a pattern the segment index (matcher.ts) reads exactly, read from a path's
// segments where the index found them: no regexp. Internal: no DOM, no Node.

/** Where the segment of `path` that starts at `from` ends: its next `/`, or the end. */
export function segmentEnd(path: string, from: number): number {
  const end = path.indexOf('/', from);
  return end < 0 ? path.length : end;
}

/**
 * How the params of a pattern the index reads exactly are read from a path whose walk reached it:
 * each param's name and the index of its path segment, in order. With `rest`, the last is a
 * wildcard, which takes the segments from its own to the end. Internal.
 */
export interface Reading {
  names: string[];
  at: number[];
  rest: boolean;
}

/**
 * Reads the params of a pattern the index reads exactly (`reading`) from `path`, a canonical path
 * whose walk reached it, into `params`, each decoded by `decode`. A param of a segment the path does
 * not have (an optional group's) is left out; false when the wildcard has none to take.
 */
export function readParams(
  path: string,
  reading: Reading,
  params: Record<string, string | string[] | undefined>,
  decode: (raw: string) => string,
): boolean {
  const { names, at, rest } = reading;
  const last = at.length - 1;
  // `from` is where segment `s` starts, just after its `/`; past the end when the path has no such segment.
  for (let i = 0, from = 1, s = 0; i <= last; i++) {
    for (const want = at[i] as number; s < want; s++) from = segmentEnd(path, from) + 1;
    const wildcard = rest && i === last;
    // An optional group's param is left out; a wildcard with nothing to take fails.
    if (from >= path.length) {
      if (wildcard) return false;
      continue;
    }
    let end = segmentEnd(path, from);
    if (wildcard) {
      const parts: string[] = [decode(path.slice(from, end))];
      while (end < path.length) parts.push(decode(path.slice(end + 1, (end = segmentEnd(path, end + 1)))));
      params[names[i] as string] = parts;
    } else {
      params[names[i] as string] = decode(path.slice(from, end));
      from = end + 1;
      s++;
    }
  }
  return true;
}
