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
  /** The static edges as `[text, node, …]`, when few enough to compare in place (set once built). */
  edges: (string | Node)[] | null;
}

function node(): Node {
  return { statics: new Map(), param: null, terminal: [], tail: [], prefixed: new Map(), edges: null };
}

/** Where the segment of `path` that starts at `from` ends: its next `/`, or the end. */
function segmentEnd(path: string, from: number): number {
  const end = path.indexOf('/', from);
  return end < 0 ? path.length : end;
}

/** Builds the index over patterns given as token lists, in declaration order. */
export function createIndex(patterns: readonly (readonly Token[])[], sensitive: boolean) {
  const root = node();
  const key = sensitive ? (text: string) => text : (text: string) => text.toLowerCase();
  // The longest known text a tail's segment starts with: a path segment is looked up by its
  // prefixes up to this length only, or a 64 kB segment would cost 64 k lookups of growing keys.
  let longestPrefix = 0;

  // Each pattern goes down the tree one `/` segment at a time, as far as the index can read it.
  patterns.forEach((tokens, id) => {
    let at = root;
    // The tokens of the segment being read; null before the pattern's first `/`.
    let segment: Token[] | null = null;
    // Takes the edge of the segment read: true when the pattern goes on from the node reached,
    // false when it stopped at `at` as a tail (or as a tail filed by its segment's known text).
    const step = (): boolean => {
      if (segment === null) return true;
      const first = segment[0];
      if (segment.length === 1 && first?.type === 'param') at = at.param ??= node();
      else if (segment.length === 1 && first?.type === 'text') {
        const k = key(first.value);
        let next = at.statics.get(k);
        if (!next) at.statics.set(k, (next = node()));
        at = next;
      } else if (first?.type === 'text') {
        const k = key(first.value);
        longestPrefix = Math.max(longestPrefix, k.length);
        const ids = at.prefixed.get(k);
        if (ids) ids.push(id);
        else at.prefixed.set(k, [id]);
        return false;
      } else {
        // An empty segment, or one that starts with a param and is not all of it: a tail here.
        at.tail.push(id);
        return false;
      }
      return true;
    };
    for (let t = 0; t < tokens.length; t++) {
      const token = tokens[t] as Token;
      if (token.type === 'text') {
        const pieces = token.value.split('/');
        for (let i = 0; i < pieces.length; i++) {
          if (i > 0) {
            if (!step()) return;
            segment = [];
          } else if (segment === null) {
            if (pieces[0] !== '') return root.tail.push(id);
            continue;
          }
          const piece = pieces[i] as string;
          if (piece !== '') segment.push({ type: 'text', value: piece });
        }
      } else if (segment === null) return root.tail.push(id);
      else if (token.type === 'param') segment.push(token);
      else {
        // Wildcards and groups may span segments: the index stops here. A group that opens with
        // `/` (`/docs{/:lang}`) leaves the segment before it whole when the pattern ends there or
        // goes on with `/`; else the segment goes on after the group (`/feed{/:lang}.xml` is
        // `/feed.xml` without it) and is filed by its known text.
        const first = token.type === 'group' ? token.tokens[0] : undefined;
        const next = tokens[t + 1];
        if (
          first?.type === 'text' &&
          first.value.startsWith('/') &&
          segment.length > 0 &&
          (!next || (next.type === 'text' && next.value.startsWith('/')))
        ) {
          if (step()) at.tail.push(id);
        } else {
          segment.push(token);
          step();
        }
        return;
      }
    }
    // A pattern ending in `/` ends at the segment before: the trailing slash is the regexp's to test.
    if ((segment === null || segment.length > 0) && !step()) return;
    at.terminal.push(id);
  });

  // A node with a few static edges and no prefixed tails compares the path's text with each edge
  // in place: no slice, no hash of it (a node with none, as `/res/:id` past a param, looks nothing
  // up). A case-insensitive table looks its segment up lower-cased.
  const seal = (at: Node): void => {
    if (at.prefixed.size === 0 && at.statics.size <= (sensitive ? 8 : 0)) at.edges = [...at.statics].flat();
    at.statics.forEach(seal);
    if (at.param) seal(at.param);
  };
  seal(root);

  // Walks the path's segments in place (no split): `from` is the index after a `/`. A node with a
  // static edge and a param edge walks the static one first, by recursion; a single way on is a loop.
  // A segment's end is looked for only where an edge needs it: a static edge that matches ends there.
  function walk(at: Node, path: string, from: number, out: number[]): void {
    for (;;) {
      for (let i = 0; i < at.tail.length; i++) out.push(at.tail[i] as number);
      // Past the end, or just after a trailing slash (optional in every pattern, path-to-regexp's `trailing`).
      if (from >= path.length) {
        for (let i = 0; i < at.terminal.length; i++) out.push(at.terminal[i] as number);
        return;
      }
      let end = -1;
      let next: Node | undefined;
      const edges = at.edges;
      if (edges) {
        for (let i = 0; i < edges.length && !next; i += 2) {
          const text = edges[i] as string;
          const stop = from + text.length;
          if (path.startsWith(text, from) && (stop === path.length || path.charCodeAt(stop) === 47)) {
            next = edges[i + 1] as Node;
            end = stop;
          }
        }
      } else {
        end = segmentEnd(path, from);
        const segment = key(path.slice(from, end));
        for (let n = 1, most = at.prefixed.size && Math.min(segment.length, longestPrefix); n <= most; n++) {
          const ids = at.prefixed.get(segment.slice(0, n));
          if (ids) for (const id of ids) out.push(id);
        }
        next = at.statics.get(segment);
      }
      if (next && at.param) walk(next, path, end + 1, out);
      else if (next) {
        at = next;
        from = end + 1;
        continue;
      }
      if (!at.param) return;
      at = at.param;
      from = (end < 0 ? segmentEnd(path, from) : end) + 1;
    }
  }

  /** The ids of every pattern that may match `path` (a canonical path), in declaration order. */
  return function candidates(path: string): number[] {
    const out: number[] = [];
    walk(root, path, 1, out);
    return out.length > 1 ? out.sort((a, b) => a - b) : out;
  };
}
