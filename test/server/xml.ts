// A strict XML reader for the tests (saxes: well-formedness errors throw, unlike a browser's lenient
// DOMParser): the tree as nested { name, attributes, text, children }.
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

/** Parses a whole document; throws on anything that is not well-formed XML. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] };
    stack[stack.length - 1]?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    const top = stack[stack.length - 1];
    if (top) top.text += text;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}
