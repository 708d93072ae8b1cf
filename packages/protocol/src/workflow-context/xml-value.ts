import { escapeXml } from './escape-xml.js';

/**
 * A data value as E1 writes it between its tags: escaped, unindented, and ending with a newline
 * (one is added only when the text does not end with one, so CRLF and trailing newlines are kept).
 */
export function xmlValue(text: string): string {
  const escaped = escapeXml(text);
  return escaped.endsWith('\n') ? escaped : `${escaped}\n`;
}
