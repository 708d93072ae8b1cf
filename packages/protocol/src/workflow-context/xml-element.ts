import { openTag } from './open-tag.js';

/**
 * The open tag, a newline, `body` (which ends with its own newline), and `</tag>`, both tags at
 * `indent`, with no newline after the closing tag.
 */
export function xmlElement(
  tag: string,
  attributes: Readonly<Record<string, string>>,
  body: string,
  indent = '',
): string {
  return `${indent}${openTag(tag, attributes)}\n${body}${indent}</${tag}>`;
}
