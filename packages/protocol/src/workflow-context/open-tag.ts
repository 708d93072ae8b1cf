import { escapeXml } from './escape-xml.js';

/**
 * `<tag a="v" b="w">`, attributes in the given order with their values escaped (E2, E9); tag and
 * attribute names are the renderer's own and written as they are.
 */
export function openTag(tag: string, attributes: Readonly<Record<string, string>>): string {
  const attributeText = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  return `<${tag}${attributeText}>`;
}
