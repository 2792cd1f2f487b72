// The outlet is named by a compound CSS selector (`#app`, `main.content`, `[data-outlet]`): enough to
// point at one element of a shell, small enough to match against parse5's tree without a CSS engine.

import { SnapshotError } from '../errors.js';

/** An element as the matcher sees it: parse5's lower-case tag name and attributes. */
export interface SelectorElement {
  tagName: string;
  attrs: ReadonlyArray<{ name: string; value: string }>;
}

type Test = (element: SelectorElement) => boolean;

const NAME = '[A-Za-z_][\\w-]*';
const PART = new RegExp(`#(${NAME})|\\.(${NAME})|\\[\\s*(${NAME})\\s*(?:=\\s*(?:"([^"]*)"|'([^']*)'|(${NAME}))\\s*)?\\]`, 'y');
const TAG = new RegExp(`(${NAME}|\\*)`, 'y');

/** An attribute's value, or undefined when the element has none by that name. */
export function attr(element: SelectorElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

/**
 * Compiles a compound selector (a tag, `#id`, `.class`, `[attr]`, `[attr=value]`, in any mix, with
 * no combinators) into a predicate; throws `SnapshotError` BAD_OPTION for anything else.
 */
export function compileSelector(selector: string): Test {
  const tests: Test[] = [];
  const text = selector.trim();
  TAG.lastIndex = 0;
  const tag = TAG.exec(text);
  let at = 0;
  if (tag) {
    const name = (tag[1] as string).toLowerCase();
    if (name !== '*') tests.push((e) => e.tagName === name);
    at = TAG.lastIndex;
  }
  while (at < text.length) {
    PART.lastIndex = at;
    const m = PART.exec(text);
    if (!m) {
      throw new SnapshotError(
        'BAD_OPTION',
        `outlet selector ${JSON.stringify(selector)} is not a compound selector (tag, #id, .class, [attr], [attr=value]): cannot read it at index ${at}`,
      );
    }
    at = PART.lastIndex;
    const [, id, cls, name, dq, sq, bare] = m;
    if (id !== undefined) tests.push((e) => attr(e, 'id') === id);
    else if (cls !== undefined) tests.push((e) => (attr(e, 'class') ?? '').split(/[\t\n\f\r ]+/).includes(cls));
    else {
      const key = (name as string).toLowerCase();
      const value = dq ?? sq ?? bare;
      tests.push(value === undefined ? (e) => attr(e, key) !== undefined : (e) => attr(e, key) === value);
    }
  }
  if (tests.length === 0 && !tag) throw new SnapshotError('BAD_OPTION', `outlet selector ${JSON.stringify(selector)} is empty`);
  return (element) => tests.every((test) => test(element));
}
