import { describe, expect, it } from 'vitest';
import type { MarkdownElement, MarkdownNode } from './markdown-node.js';
import { markdownTree } from './markdown-tree.js';

/** Every element of `nodes`, depth first. */
function elements(nodes: readonly MarkdownNode[]): MarkdownElement[] {
  return nodes.flatMap((node) => (typeof node === 'string' ? [] : [node, ...elements(node.children)]));
}

/** The text `nodes` show, as a reader sees it. */
function textOf(nodes: readonly MarkdownNode[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : textOf(node.children))).join('');
}

const tagsOf = (markdown: string) => elements(markdownTree(markdown)).map((element) => element.tag);

describe('markdownTree', () => {
  it.each([
    ['**bold**', ['p', 'strong']],
    ['*it* and ~~gone~~', ['p', 'em', 'del']],
    ['# Title', ['h3']],
    ['#### Deep', ['h6']],
    ['- one\n- two', ['ul', 'li', 'li']],
    ['3. three\n4. four', ['ol', 'li', 'li']],
    ['> quoted', ['blockquote', 'p']],
    ['a\nb', ['p', 'br']],
    ['---', ['hr']],
    ['use `x<y`', ['p', 'code']],
    [
      '| a | b |\n|---|--:|\n| 1 | 2 |',
      ['div', 'table', 'thead', 'tr', 'th', 'th', 'tbody', 'tr', 'td', 'td'],
    ],
  ])('builds %j into %j', (markdown, tags) => {
    expect(tagsOf(markdown)).toEqual(tags);
  });

  it('keeps an ordered list’s start and a table cell’s alignment', () => {
    const [list] = elements(markdownTree('3. three'));
    expect(list?.props).toEqual({ start: 3 });
    const right = elements(markdownTree('| a |\n|--:|\n| 1 |')).find((element) => element.tag === 'td');
    expect(right?.props).toEqual({ class: 'align-right' });
  });

  it.each([
    '<img src=x onerror=alert(1)>',
    'before <script>alert(1)</script> after',
    '<div onclick="alert(1)">block</div>',
    '<a href="javascript:alert(1)">x</a>',
  ])('shows the raw HTML in %j as text, never as an element', (markdown) => {
    const tree = markdownTree(markdown);
    expect(elements(tree).map((element) => element.tag)).not.toContain('a');
    expect(elements(tree).every((element) => element.tag === 'p')).toBe(true);
    expect(textOf(tree)).toContain('<');
  });

  it('opens http, https and mailto links in a new tab that cannot reach the console', () => {
    const links = elements(
      markdownTree('[site](https://example.com/a?b=1) <mail@example.com> www.example.org'),
    ).filter((element) => element.tag === 'a');
    expect(links.map((link) => link.props)).toEqual([
      { href: 'https://example.com/a?b=1', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'mailto:mail@example.com', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'http://www.example.org/', target: '_blank', rel: 'noopener noreferrer' },
    ]);
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x]( JAVASCRIPT:alert(1))',
    '[x](data:text/html,<b>hi</b>)',
    '[x](vbscript:msgbox)',
    '[x](/relative/path)',
    '[x](#/sessions/s1)',
  ])('shows the link %j as its text alone', (markdown) => {
    const tree = markdownTree(markdown);
    expect(elements(tree).map((element) => element.tag)).toEqual(['p', 'span']);
    expect(textOf(tree)).toBe('x');
  });

  it('makes an image a link to it, loading nothing', () => {
    const tree = markdownTree('![a chart](https://example.com/c.png) ![x](javascript:alert(1))');
    expect(tagsOf('![a chart](https://example.com/c.png)')).toEqual(['p', 'a']);
    expect(textOf(tree)).toBe('🖼 a chart 🖼 x');
  });

  it('highlights a fenced block of a known language and leaves others plain', () => {
    const [pre] = markdownTree('```ts\nconst a: number = 1;\n```');
    expect(pre).toMatchObject({
      tag: 'pre',
      children: [{ tag: 'code', props: { class: 'hljs language-ts' } }],
    });
    const spans = elements([pre ?? '']).filter((element) => element.tag === 'span');
    expect(spans.map((span) => span.props.class)).toContain('hljs-keyword');
    expect(textOf([pre ?? ''])).toBe('const a: number = 1;');
    const [plain] = markdownTree('```brainfuck\n+++.\n```');
    expect(elements([plain ?? '']).map((element) => element.tag)).toEqual(['pre', 'code']);
    expect(textOf([plain ?? ''])).toBe('+++.');
  });

  it('makes a code block and a table keyboard stops, so keys scroll them sideways inside their card', () => {
    const [pre] = markdownTree('```\nwide\n```');
    const [table] = markdownTree('| a |\n|---|\n| 1 |');
    expect(pre).toMatchObject({ tag: 'pre', props: { tabIndex: 0 } });
    expect(table).toMatchObject({ tag: 'div', props: { class: 'table-scroll', tabIndex: 0 } });
  });

  it('keeps a language name from reaching the class attribute as anything but a word', () => {
    const [pre] = markdownTree('```x"onmouseover=alert(1)\ncode\n```');
    expect(elements([pre ?? '']).find((element) => element.tag === 'code')?.props).toEqual({
      class: 'hljs language-xonmouseoveralert1',
    });
  });

  it('decodes character references and backslash escapes into the characters they name', () => {
    expect(textOf(markdownTree('a &amp; b &lt;c&gt; &#169; &#x1F600; \\*not em\\* &bogus;'))).toBe(
      'a & b <c> © 😀 *not em* &bogus;',
    );
  });

  it('shows task list items with disabled checkboxes', () => {
    const boxes = elements(markdownTree('- [x] done\n- [ ] to do')).filter(
      (element) => element.tag === 'input',
    );
    expect(boxes.map((box) => box.props.checked)).toEqual([true, false]);
    expect(boxes.every((box) => box.props.disabled === true)).toBe(true);
  });

  it('keeps every character of plain text', () => {
    const word = 'x'.repeat(500);
    expect(textOf(markdownTree(`All done. ${word}`))).toBe(`All done. ${word}`);
  });
});
