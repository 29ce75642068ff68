/** Parses an SVG file strictly as XML (saxes) into a small element tree, for the tests. */
import { SaxesParser } from 'saxes';

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
  children: SvgElement[];
  text: string;
}

export function readSvg(xml: string): SvgElement {
  const parser = new SaxesParser({ xmlns: false });
  const root: SvgElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: SvgElement[] = [root];
  parser.on('opentag', (tag) => {
    const element: SvgElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    stack[stack.length - 1]!.children.push(element);
    stack.push(element);
  });
  parser.on('text', (text) => {
    stack[stack.length - 1]!.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  const [svg] = root.children;
  if (svg?.name !== 'svg') throw new Error('no <svg> root');
  return svg;
}

/** Every element below `element` (depth first) for which `match` holds. */
export function findAll(element: SvgElement, match: (element: SvgElement) => boolean): SvgElement[] {
  const found: SvgElement[] = [];
  const visit = (node: SvgElement) => {
    if (match(node)) found.push(node);
    node.children.forEach(visit);
  };
  element.children.forEach(visit);
  return found;
}

export const byId = (element: SvgElement, id: string) => findAll(element, (node) => node.attributes.id === id)[0];
