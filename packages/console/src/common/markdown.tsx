import { type ComponentChild, h } from 'preact';
import { useMemo } from 'preact/hooks';
import type { MarkdownNode } from './markdown-node.js';
import { markdownTree } from './markdown-tree.js';

/** Longer text is shown as it is: parsing it would hold up the page, and it is rarely an answer. */
export const MARKDOWN_MAX_CHARS = 100_000;

/**
 * `text` rendered as Markdown inside a `div.markdown`: elements built from the parser's tokens (no
 * HTML string ever reaches the DOM), safe links opening in a new tab, highlighted code blocks.
 */
export function Markdown({ text }: { text: string }) {
  const nodes = useMemo(
    () => (text.length > MARKDOWN_MAX_CHARS ? [text] : markdownTree(text)).map(toChild),
    [text],
  );
  return <div class={text.length > MARKDOWN_MAX_CHARS ? 'markdown plain' : 'markdown'}>{nodes}</div>;
}

/** A node as a Preact child: strings stay text nodes, elements become their tag with their props. */
export function toChild(node: MarkdownNode): ComponentChild {
  if (typeof node === 'string') return node;
  return h(node.tag, node.props, ...node.children.map(toChild));
}
