// The server's own read of a page process's snapshot. The page process wrote it with happy-dom's
// objects, which the page's scripts could have replaced (a wrapped `getAttribute` decides what the
// serialiser sees), so what the renderer promises of every snapshot is checked here, on the HTML
// parsed again with parse5, in the server: none of the router's settled attributes on `<html>`,
// no meta fragment tag, no canonical link in a state that is not 200, and `noindex` in a noindex
// route's state. A page process that breaks one is not believed: its render fails.
//
// The page process chooses the bytes, so the read must cost the server little whatever they are.
// parse5's own tree of 5 MiB shaped for it (`<b>` repeated, which nests and fills the list of
// formatting elements) held the server's event loop 4 to 9 s and took 1 GB of memory (a server
// whose heap limit was 512 MB died of it). So the facts are read as the parse creates each element (every
// element of the tree is created once, template contents too), the parse keeps no tree (an element
// knows only its parent, which foster parenting asks for; no child list, text or comment is kept),
// and a snapshot nested deeper than MAX_SNAPSHOT_DEPTH is refused: happy-dom cannot write one (its
// own walks run out of stack a few thousand deep).

import { defaultTreeAdapter, parse, type DefaultTreeAdapterMap, type Token, type TreeAdapter } from 'parse5';
import { headKey, isCanonicalLink, isFragmentMeta } from '../../contract/head.js';
import { REDIRECT_ATTRIBUTE, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../../contract/settled.js';
import { ROBOTS_KEY } from '../noindex.js';

/** What the check needs of the render: its status, and whether its route is noindex. */
export interface Checked {
  status: number;
  noindex?: boolean;
}

/**
 * The deepest a snapshot may nest its elements. An honest page process never sends one this deep:
 * happy-dom's walks (its `querySelectorAll`, which the serialiser runs) run out of stack first,
 * past 3,200 deep and before 3,500 (measured with happy-dom 21), and Chromium's parser nests no deeper than 512.
 */
export const MAX_SNAPSHOT_DEPTH = 8192;

type Tree = DefaultTreeAdapterMap;
type Node = Tree['parentNode'] | Tree['childNode'];

/** Too deep: the parse stops at once. */
class TooDeep extends Error {}

/** The first rule `html` breaks for a render of `job`, or null when it keeps them all. */
export function checkSnapshot(html: string, job: Checked): string | null {
  // Each element that breaks a rule, with the rule, and each robots meta that says noindex, as the
  // parse creates them: what counts is whether it is in the document once the parse is over (a
  // `<frameset>` takes the body out of it), as the tree read before this one did.
  const breaking: Array<[Node, string]> = [];
  const noindex: Node[] = [];
  const depths = new WeakMap<Node, number>();
  // A template's contents hang from the template, as the tree walked before reads them.
  const hosts = new WeakMap<Node, Node>();
  const see = (element: Tree['element']) => {
    const tag = element.tagName;
    if (tag !== 'html' && tag !== 'meta' && tag !== 'link') return;
    const read = (name: string) => element.attrs.find((a: Token.Attribute) => a.name === name)?.value;
    if (tag === 'html' && [STATE_ATTRIBUTE, STATUS_ATTRIBUTE, REDIRECT_ATTRIBUTE].some((name) => read(name) !== undefined))
      breaking.push([element, 'the router’s settled attributes are left on <html>']);
    else if (isFragmentMeta(tag, read)) breaking.push([element, 'a meta fragment tag is left in']);
    else if (job.status !== 200 && isCanonicalLink(tag, read)) breaking.push([element, `a ${job.status} state has a canonical link`]);
    else if (headKey(tag, read) === ROBOTS_KEY && /\b(noindex|none)\b/i.test(read('content') ?? '')) noindex.push(element);
  };
  // An element the adoption agency moves into a copy of a formatting element it has just made waits
  // here for that copy to be placed: its depth is the copy's, unknown until then (never 0).
  const waiting = new WeakMap<Node, Node[]>();
  const deepen = (node: Node, depth: number) => {
    const todo: Array<[Node, number]> = [[node, depth]];
    for (let next = todo.pop(); next; next = todo.pop()) {
      const [at, deep] = next;
      if (deep > MAX_SNAPSHOT_DEPTH) throw new TooDeep(`it nests elements more than ${MAX_SNAPSHOT_DEPTH} deep`);
      depths.set(at, deep);
      // A template's contents are as deep as the template: nesting templates nests too.
      const content = (at as Partial<Tree['template']>).content;
      if (content) depths.set(content, deep);
      for (const child of waiting.get(at) ?? [])
        if ((child as { parentNode?: Node | null }).parentNode === at) todo.push([child, deep + 1]);
      waiting.delete(at);
    }
  };
  const place = (parent: Node, node: Node) => {
    (node as { parentNode: Node | null }).parentNode = parent;
    // Only an element holds others (a comment is placed, never a parent).
    if (!('tagName' in node)) return;
    const depth = depths.get(parent);
    if (depth !== undefined || !('tagName' in parent)) return deepen(node, (depth ?? 0) + 1);
    const held = waiting.get(parent);
    if (held) held.push(node);
    else waiting.set(parent, [node]);
  };
  // Whether each node is in the document, found once: the walk up from an element stops at the
  // first node whose answer is known, so that many elements below one deep node cost one walk.
  const known = new WeakMap<Node, boolean>();
  const inDocument = (node: Node) => {
    const path: Node[] = [];
    let answer = false;
    for (let at: Node | null | undefined = node; at; at = hosts.get(at) ?? (at as { parentNode?: Node | null }).parentNode) {
      const found = known.get(at);
      if (found !== undefined) {
        answer = found;
        break;
      }
      if (at.nodeName === '#document') {
        answer = true;
        break;
      }
      // Provisionally out, so that a walk that came round to a node of its own path ends.
      known.set(at, false);
      path.push(at);
    }
    for (const at of path) known.set(at, answer);
    return answer;
  };
  const adapter: TreeAdapter<Tree> = {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      const element = defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
      see(element);
      return element;
    },
    setTemplateContent(template, content) {
      defaultTreeAdapter.setTemplateContent(template, content);
      hosts.set(content, template);
    },
    // A later `<html>` tag adds its attributes to the root element (a `<body>` tag's go to the body).
    adoptAttributes(recipient, attrs) {
      defaultTreeAdapter.adoptAttributes(recipient, attrs);
      see(recipient);
    },
    appendChild: place,
    insertBefore: (parent, node) => place(parent, node),
    detachNode: (node) => void ((node as { parentNode: Node | null }).parentNode = null),
    insertText() {},
    insertTextBefore() {},
  };
  try {
    parse(html, { treeAdapter: adapter });
  } catch (error) {
    if (error instanceof TooDeep) return error.message;
    throw error;
  }
  const broken = breaking.find(([element]) => inDocument(element));
  if (broken) return broken[1];
  return job.noindex && !noindex.some(inDocument) ? 'a noindex route’s state says no noindex' : null;
}
