import { Lexer, type Token, type Tokens } from 'marked';
import { highlightCode } from './highlight-code.js';
import type { MarkdownElement, MarkdownNode, MarkdownTag } from './markdown-node.js';
import { safeHref } from './safe-href.js';

// GFM (tables, strikethrough, bare URLs, task lists); `breaks` keeps each line the text broke
// on its own line, as the console showed answers before Markdown and as chat UIs do.
const LEXER_OPTIONS = { gfm: true, breaks: true } as const;

/** An answer's `#` sits under the page's own h1 and h2: Markdown headings start at h3. */
const HEADING_TAGS: readonly MarkdownTag[] = ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'];

/**
 * What a block that may scroll sideways inside its card (a code block, a table) carries: a place in
 * the tab order, so a keyboard can scroll it too (axe's scrollable-region-focusable).
 */
const KEYBOARD_SCROLLABLE = { tabIndex: 0 } as const;

/** What every rendered link carries: a new tab that cannot reach back into the console. */
const LINK_PROPS = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * `text` read as Markdown (GFM) and built into elements from the lexer's tokens. Raw HTML in the
 * text is shown as the text it is; links keep only http, https and mailto targets (open in a new
 * tab, `rel="noopener noreferrer"`), others become their text; images become links to them; fenced
 * code of a known language is highlighted.
 */
export function markdownTree(text: string): MarkdownNode[] {
  return blocks(Lexer.lex(text, LEXER_OPTIONS));
}

const element = (
  tag: MarkdownTag,
  children: readonly MarkdownNode[],
  props: MarkdownElement['props'] = {},
): MarkdownElement => ({ tag, props, children });

function blocks(tokens: readonly Token[]): MarkdownNode[] {
  return tokens.flatMap(block);
}

function block(token: Token): MarkdownNode[] {
  switch (token.type) {
    case 'space':
    case 'def':
      return [];
    case 'paragraph':
      return [element('p', inline((token as Tokens.Paragraph).tokens))];
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading;
      return [element(HEADING_TAGS[depth - 1] ?? 'h6', inline(tokens))];
    }
    case 'code':
      return [codeBlock(token as Tokens.Code)];
    case 'blockquote':
      return [element('blockquote', blocks((token as Tokens.Blockquote).tokens))];
    case 'list':
      return [list(token as Tokens.List)];
    case 'table':
      return [table(token as Tokens.Table)];
    case 'hr':
      return [element('hr', [])];
    case 'html':
      // Raw HTML is never markup here: it shows as the characters the text holds.
      return [element('p', [(token as Tokens.HTML).text], { class: 'raw-html' })];
    case 'checkbox':
      return [checkbox((token as Tokens.Checkbox).checked), ' '];
    case 'text': {
      // A tight list item's text: inline tokens without a paragraph around them.
      const { tokens, text } = token as Tokens.Text;
      return tokens ? inline(tokens) : [decodeEntities(text)];
    }
    default:
      return 'raw' in token && typeof token.raw === 'string' ? [token.raw] : [];
  }
}

function codeBlock({ text, lang }: Tokens.Code): MarkdownElement {
  // The info string's first word names the language (```ts title="x" → ts).
  const language = lang?.trim().split(/\s+/)[0] || undefined;
  const props = language ? { class: `hljs language-${language.replace(/[^\w+#.-]/g, '')}` } : {};
  return element('pre', [element('code', highlightCode(text, language), props)], KEYBOARD_SCROLLABLE);
}

function list({ ordered, start, items }: Tokens.List): MarkdownElement {
  const props = ordered && typeof start === 'number' && start !== 1 ? { start } : {};
  return element(ordered ? 'ol' : 'ul', items.map(listItem), props);
}

function listItem(item: Tokens.ListItem): MarkdownElement {
  return element('li', blocks(item.tokens), item.task ? { class: 'task' } : {});
}

const checkbox = (checked: boolean) =>
  element('input', [], {
    type: 'checkbox',
    checked,
    disabled: true,
    'aria-label': checked ? 'done' : 'not done',
  });

/**
 * A table scrolling inside its card (a keyboard stop, so keys scroll it too); alignment by class, as
 * the console's CSP allows no inline style.
 */
function table({ header, rows }: Tokens.Table): MarkdownElement {
  const cell = (tag: 'th' | 'td') => (cell: Tokens.TableCell) =>
    element(tag, inline(cell.tokens), cell.align ? { class: `align-${cell.align}` } : {});
  return element(
    'div',
    [
      element('table', [
        element('thead', [element('tr', header.map(cell('th')))]),
        element(
          'tbody',
          rows.map((row) => element('tr', row.map(cell('td')))),
        ),
      ]),
    ],
    { class: 'table-scroll', ...KEYBOARD_SCROLLABLE },
  );
}

function inline(tokens: readonly Token[]): MarkdownNode[] {
  return tokens.flatMap(inlineToken);
}

function inlineToken(token: Token): MarkdownNode[] {
  switch (token.type) {
    case 'text': {
      const { tokens, text } = token as Tokens.Text;
      return tokens ? inline(tokens) : [decodeEntities(text)];
    }
    case 'escape':
      return [decodeEntities((token as Tokens.Escape).text)];
    case 'strong':
      return [element('strong', inline((token as Tokens.Strong).tokens))];
    case 'em':
      return [element('em', inline((token as Tokens.Em).tokens))];
    case 'del':
      return [element('del', inline((token as Tokens.Del).tokens))];
    case 'codespan':
      return [element('code', [(token as Tokens.Codespan).text])];
    case 'br':
      return [element('br', [])];
    case 'link':
      return [link(token as Tokens.Link)];
    case 'image':
      return [image(token as Tokens.Image)];
    case 'checkbox':
      return [checkbox((token as Tokens.Checkbox).checked), ' '];
    case 'html':
      return [(token as Tokens.Tag).text];
    default:
      return 'raw' in token && typeof token.raw === 'string' ? [token.raw] : [];
  }
}

function link({ href, title, tokens }: Tokens.Link): MarkdownNode {
  const children = inline(tokens);
  const safe = safeHref(decodeEntities(href));
  if (safe === undefined) return element('span', children, { class: 'unsafe-link' });
  return element('a', children, title ? { href: safe, title, ...LINK_PROPS } : { href: safe, ...LINK_PROPS });
}

/** An image as a link to it: a page of answers loads nothing the model named. */
function image({ href, text }: Tokens.Image): MarkdownNode {
  const label = `🖼 ${decodeEntities(text) || 'image'}`;
  const safe = safeHref(decodeEntities(href));
  return safe === undefined ? label : element('a', [label], { href: safe, ...LINK_PROPS });
}

/** The named character references an answer commonly holds; others stay as written. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  middot: '·',
  times: '×',
  deg: '°',
};

/** The lexer leaves character references (`&amp;`, `&#39;`) in text as written: this decodes them. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (reference, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name] ?? reference;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : '\ufffd';
  });
}
