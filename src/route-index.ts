// A segment index in front of path-to-regexp: it only narrows which compiled patterns are tested,
// so matching keeps path-to-regexp's semantics exactly while a table of a thousand routes costs a
// walk of the path's segments and a regexp test or two, not a thousand tests.
//
// Each pattern is cut into `/` segments. Leading segments that are plain text become static edges,
// a segment that is one whole `:param` becomes the param edge; the pattern ends at a node as a
// `terminal`. At the first segment the index cannot read exactly (a wildcard, an optional group,
// text mixed with a param, an empty segment) the pattern stops there as a `tail`: it is tested
// whenever a path's walk passes that node.

import type { Token } from 'path-to-regexp';

interface Node {
  statics: Map<string, Node>;
  param: Node | null;
  terminal: number[];
  tail: number[];
  /** Tails whose next segment starts with known text (`p:id.:ext`), by that text. */
  prefixed: Map<string, number[]>;
}

function node(): Node {
  return { statics: new Map(), param: null, terminal: [], tail: [], prefixed: new Map() };
}

type Segment = { kind: 'static'; text: string } | { kind: 'prefix'; text: string } | { kind: 'param' } | { kind: 'other' };

/** Cuts a token list into segments; null when the pattern does not start with `/`. */
function segmentsOf(tokens: readonly Token[]): Segment[] | null {
  const segments: Segment[] = [];
  let current: Token[] | null = null;
  const close = () => {
    if (current === null) return;
    const first = current[0];
    if (first === undefined) segments.push({ kind: 'other' });
    else if (current.length === 1 && first.type === 'param') segments.push({ kind: 'param' });
    else if (current.length === 1 && first.type === 'text') segments.push({ kind: 'static', text: first.value });
    else if (first.type === 'text') segments.push({ kind: 'prefix', text: first.value });
    else segments.push({ kind: 'other' });
  };
  for (const token of tokens) {
    if (token.type !== 'text') {
      if (current === null) return null;
      if (token.type !== 'param') {
        // Wildcards and groups may span segments: the index stops here. A group that opens with
        // `/` (`/docs{/:lang}`) leaves the segment before it whole.
        const first = token.type === 'group' ? token.tokens[0] : undefined;
        if (first?.type === 'text' && first.value.startsWith('/') && current.length > 0) {
          close();
          segments.push({ kind: 'other' });
        } else {
          current.push(token);
          close();
        }
        return segments;
      }
      current.push(token);
      continue;
    }
    const pieces = token.value.split('/');
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) {
        close();
        current = [];
      } else if (current === null) {
        if (pieces[0] !== '') return null;
        continue;
      }
      const piece = pieces[i] as string;
      if (piece !== '') current.push({ type: 'text', value: piece });
    }
  }
  // A pattern ending in `/` ends at the segment before: the trailing slash is the regexp's to test.
  if (current === null || (current as Token[]).length > 0) close();
  return segments;
}

/** Builds the index over patterns given as token lists, in declaration order. */
export function createIndex(patterns: readonly (readonly Token[])[], sensitive: boolean) {
  const root = node();
  const key = sensitive ? (text: string) => text : (text: string) => text.toLowerCase();
  // The longest known text a tail's segment starts with: a path segment is looked up by its
  // prefixes up to this length only, or a 64 kB segment would cost 64 k lookups of growing keys.
  let longestPrefix = 0;

  patterns.forEach((tokens, id) => {
    const segments = segmentsOf(tokens);
    if (segments === null) return root.tail.push(id);
    let at = root;
    for (const segment of segments) {
      if (segment.kind === 'other') return at.tail.push(id);
      if (segment.kind === 'prefix') {
        const k = key(segment.text);
        longestPrefix = Math.max(longestPrefix, k.length);
        const ids = at.prefixed.get(k);
        return ids ? ids.push(id) : at.prefixed.set(k, [id]);
      }
      if (segment.kind === 'param') at = at.param ??= node();
      else {
        const k = key(segment.text);
        let next = at.statics.get(k);
        if (!next) at.statics.set(k, (next = node()));
        at = next;
      }
    }
    at.terminal.push(id);
  });

  // Walks the path's segments in place (no split): `from` is the index after a `/`.
  function walk(at: Node, path: string, from: number, out: number[]): void {
    for (let i = 0; i < at.tail.length; i++) out.push(at.tail[i] as number);
    // Past the end, or just after a trailing slash (optional in every pattern, path-to-regexp's `trailing`).
    if (from >= path.length) {
      for (let i = 0; i < at.terminal.length; i++) out.push(at.terminal[i] as number);
      return;
    }
    let end = path.indexOf('/', from);
    if (end < 0) end = path.length;
    // A node with static edges only past a param (`/res/:id`) has no text to look up: no slice.
    if (at.statics.size + at.prefixed.size > 0) {
      const segment = key(path.slice(from, end));
      for (let n = 1, most = at.prefixed.size && Math.min(segment.length, longestPrefix); n <= most; n++) {
        const ids = at.prefixed.get(segment.slice(0, n));
        if (ids) for (const id of ids) out.push(id);
      }
      const next = at.statics.get(segment);
      if (next) walk(next, path, end + 1, out);
    }
    if (at.param) walk(at.param, path, end + 1, out);
  }

  /** The ids of every pattern that may match `path` (a canonical path), in declaration order. */
  return function candidates(path: string): number[] {
    const out: number[] = [];
    walk(root, path, 1, out);
    return out.length > 1 ? out.sort((a, b) => a - b) : out;
  };
}
