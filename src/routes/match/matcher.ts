// A segment index in front of the pattern regexps (src/routes/pattern/syntax.ts): it only narrows which compiled
// patterns are tested, so matching keeps path-to-regexp's semantics exactly while a table of a thousand routes costs a
// walk of the path's segments and a regexp test or two, not a thousand tests.
//
// Each pattern is cut into `/` segments. Leading segments that are plain text become static edges,
// a segment that is one whole `:param` becomes the param edge; the pattern ends at a node as a
// `terminal`; a last group opening with `/` is read as two patterns, one that ends before it and one
// that reads on into it. At the first segment the index cannot read exactly (a wildcard, any other
// group, text mixed with a param, an empty segment) the pattern stops there as a `tail`: it is
// tested whenever a path's walk passes that node.
//
// Most patterns the index reads exactly (`exact`): every segment plain text or one whole `:param`,
// with no trailing `/`, and at most a last group of such segments (`/docs{/:lang}`) or a last
// wildcard of whole segments (`/files/*path`). A canonical path whose walk reaches such a pattern is
// matched by its regexp, and each param is the path segment at the param's place: the match needs
// no regexp (`readParams`, segment-params.ts). The fuzz tests hold both readings to path-to-regexp's own match().

import type { Params } from '../params.js';
import { decodeParam, regexpParams, type CompiledRoute, type CreateMatcher } from '../pattern/compile.js';
import { record } from '../../url/record.js';
import { readParams, segmentEnd, type Reading } from './segment-params.js';
import { isParam, type Token } from '../pattern/syntax.js';

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

/** Whether `path` holds `text` at `from` (startsWith, without the call). */
function holds(path: string, from: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (path.charCodeAt(from + i) !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Builds the index over patterns given as token lists, in declaration order. Each list starts with
 * text that starts with `/`, as every pattern compileRoute accepts does.
 */
export function createIndex(patterns: readonly (readonly Token[])[], sensitive: boolean) {
  const root = node();
  const key = sensitive ? (text: string) => text : (text: string) => text.toLowerCase();
  // The longest known text a tail's segment starts with: a path segment is looked up by its
  // prefixes up to this length only, or a 64 kB segment would cost 64 k lookups of growing keys.
  let longestPrefix = 0;

  // Each pattern goes down the tree one `/` segment at a time, as far as the index can read it.
  // Gives how its params are read from a path that reaches it, where the index reads it exactly.
  const exact = patterns.map((all, id): Reading | null => {
    let tokens = all;
    let at = root;
    // The tokens of the segment being read; null before the pattern's first `/`.
    let segment: Token[] | null = null;
    // The segments taken so far, each whole-segment param's place among them, and whether a last
    // group was read into (a path then may or may not have the group's segments).
    let depth = 0;
    let grouped = false;
    const reading: Reading = { names: [], at: [], rest: false };
    // Takes the edge of the segment read: true when the pattern goes on from the node reached,
    // false when it stopped at `at` as a tail (or as a tail filed by its segment's known text).
    const step = (): boolean => {
      if (segment === null) return true;
      const first = segment[0];
      if (segment.length === 1 && isParam(first, 'param')) {
        at = at.param ??= node();
        reading.names.push(first.name);
        reading.at.push(depth);
      } else if (typeof first !== 'string') {
        // An empty segment, or one that starts with a param and is not all of it: a tail here.
        at.tail.push(id);
        return false;
      } else {
        const k = key(first);
        // Text and more (`p:id.:ext`): a tail filed by its known text. Text alone: a static edge.
        if (segment.length > 1) {
          longestPrefix = Math.max(longestPrefix, k.length);
          if (!at.prefixed.get(k)?.push(id)) at.prefixed.set(k, [id]);
          return false;
        }
        const next = at.statics.get(k) ?? node();
        at.statics.set(k, next);
        at = next;
      }
      depth++;
      return true;
    };
    for (let t = 0; t < tokens.length; t++) {
      const token = tokens[t] as Token;
      if (typeof token === 'string') {
        const pieces = token.split('/');
        for (let i = 0; i < pieces.length; i++) {
          if (i > 0) {
            if (!step()) return null;
            segment = [];
          } else if (segment === null) continue;
          const piece = pieces[i] as string;
          if (piece !== '') segment.push(piece);
        }
        // Every pattern starts with text that starts with `/` (compileRoute refuses any other path), and
        // so does a last group read into: a param, a wildcard or a group is always inside a segment.
      } else if (isParam(token, 'param')) (segment as Token[]).push(token);
      else {
        // Wildcards and groups may span segments. A group that opens with `/` (`/docs{/:lang}`)
        // leaves the segment before it whole when the pattern ends there or goes on with `/`; else
        // the segment goes on after the group (`/feed{/:lang}.xml` is `/feed.xml` without it) and
        // is filed by its known text.
        const group = Array.isArray(token) ? token : [];
        const first = group[0];
        const next = tokens[t + 1];
        if (
          typeof first === 'string' &&
          first.startsWith('/') &&
          (segment as Token[]).length > 0 &&
          (!next || (typeof next === 'string' && next.startsWith('/')))
        ) {
          if (!step()) return null;
          if (next) return (at.tail.push(id), null);
          // A last group is read as path-to-regexp reads it, as two patterns: one ends here, the
          // other reads on into the group. A path takes one or the other by its number of segments.
          at.terminal.push(id);
          tokens = group;
          t = -1;
          segment = null;
          grouped = true;
          continue;
        }
        if (isParam(token, 'wildcard') && !next && (segment as Token[]).length === 0 && !grouped) {
          // A last wildcard of whole segments (`/files/*path`) takes the rest of a path that goes on.
          at.tail.push(id);
          reading.names.push(token.name);
          reading.at.push(depth);
          reading.rest = true;
          return reading;
        }
        (segment as Token[]).push(token);
        step();
        return null;
      }
    }
    // A pattern ending in `/` ends at the segment before: the trailing slash is the regexp's to test.
    if ((segment === null || segment.length > 0) && !step()) return null;
    at.terminal.push(id);
    return segment !== null && segment.length > 0 ? reading : null;
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

  // The ids a walk finds, written over the last walk's, so that a match allocates no array of its
  // own. It grows to the most any walk finds, and stays.
  const found: number[] = [];
  let count = 0;

  // Walks the path's segments in place (no split): `from` is the index after a `/`. A node with a
  // static edge and a param edge walks the static one first, by recursion; a single way on is a loop.
  // A segment's end is looked for only where an edge needs it: a static edge that matches ends there.
  function walk(at: Node, path: string, from: number): void {
    for (;;) {
      for (let i = 0; i < at.tail.length; i++) found[count++] = at.tail[i] as number;
      // Past the end, or just after a trailing slash (optional in every pattern, path-to-regexp's `trailing`).
      if (from >= path.length) {
        for (let i = 0; i < at.terminal.length; i++) found[count++] = at.terminal[i] as number;
        return;
      }
      let end = -1;
      let next: Node | undefined;
      const edges = at.edges;
      if (edges) {
        for (let i = 0; i < edges.length && !next; i += 2) {
          const text = edges[i] as string;
          const stop = from + text.length;
          if ((stop === path.length || path.charCodeAt(stop) === 47) && holds(path, from, text)) {
            next = edges[i + 1] as Node;
            end = stop;
          }
        }
      } else {
        end = segmentEnd(path, from);
        const segment = key(path.slice(from, end));
        for (let n = 1, most = at.prefixed.size && Math.min(segment.length, longestPrefix); n <= most; n++) {
          const ids = at.prefixed.get(segment.slice(0, n));
          if (ids) for (const id of ids) found[count++] = id;
        }
        next = at.statics.get(segment);
      }
      if (next && at.param) walk(next, path, end + 1);
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

  /** Walks `path` (a canonical path): the ids of every pattern that may match it are then `found[0..count)`, in declaration order. */
  function collect(path: string): number {
    count = 0;
    walk(root, path, 1);
    // In place, by insertion: a walk finds a few ids, most often one.
    for (let i = 1; i < count; i++) {
      const id = found[i] as number;
      let j = i;
      for (; j > 0 && (found[j - 1] as number) > id; j--) found[j] = found[j - 1] as number;
      found[j] = id;
    }
    return count;
  }

  return {
    collect,
    found: found as readonly number[],
    exact,
  };
}

/** The matcher of a server: the segment index in front of the patterns, each read exactly where it can be. */
export const createMatcher: CreateMatcher = (compiled, sensitive, hit) => {
  const { collect, found, exact } = createIndex(
    compiled.map((c) => c.tokens),
    sensitive,
  );
  return (path, at) => {
    // Nothing below walks again before the loop ends: `found` holds this walk's ids throughout.
    for (let n = 0, count = collect(path); n < count; n++) {
      const id = found[n] as number;
      // A pattern the index reads exactly matches the path its walk reached: no regexp.
      const reading = exact[id];
      let params: Params | null;
      if (reading) {
        if (!readParams(path, reading, (params = record<Params>()), decodeParam)) continue;
      } else if (!(params = regexpParams(compiled[id] as CompiledRoute, path))) continue;
      return hit(id, params, at);
    }
    return null;
  };
};
