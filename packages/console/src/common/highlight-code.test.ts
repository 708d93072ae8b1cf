import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MAX_CHARS, highlightCode, highlightsLanguage } from './highlight-code.js';
import type { MarkdownNode } from './markdown-node.js';

const textOf = (nodes: readonly MarkdownNode[]): string =>
  nodes.map((node) => (typeof node === 'string' ? node : textOf(node.children))).join('');

const classesOf = (nodes: readonly MarkdownNode[]): string[] =>
  nodes.flatMap((node) =>
    typeof node === 'string' ? [] : [String(node.props.class), ...classesOf(node.children)],
  );

describe('highlightCode', () => {
  it.each(['ts', 'typescript', 'js', 'json', 'sh', 'bash', 'py', 'yaml', 'yml', 'sql', 'diff', 'html'])(
    'highlights %s',
    (language) => {
      expect(highlightsLanguage(language)).toBe(true);
    },
  );

  it('wraps tokens in spans with highlight.js classes and keeps every character', () => {
    const code = '{"a": [1, true, "x<y"]}';
    const nodes = highlightCode(code, 'json');
    expect(textOf(nodes)).toBe(code);
    expect(classesOf(nodes)).toEqual(
      expect.arrayContaining(['hljs-attr', 'hljs-number', 'hljs-literal', 'hljs-string']),
    );
  });

  it.each([
    ['an unknown language', 'cobol'],
    ['no language', undefined],
  ])('leaves code of %s as one string', (_, language) => {
    expect(highlightCode('MOVE A TO B.', language)).toEqual(['MOVE A TO B.']);
  });

  it('leaves code over its length limit as one string', () => {
    const code = `[${'1,'.repeat(HIGHLIGHT_MAX_CHARS)}1]`;
    expect(highlightCode(code, 'json')).toEqual([code]);
  });
});
