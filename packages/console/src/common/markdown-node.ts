/** Every tag a Markdown tree may hold: chosen by the console's code, never by the text it renders. */
export type MarkdownTag =
  | 'a'
  | 'blockquote'
  | 'br'
  | 'code'
  | 'del'
  | 'div'
  | 'em'
  | 'h3'
  | 'h4'
  | 'h5'
  | 'h6'
  | 'hr'
  | 'input'
  | 'li'
  | 'ol'
  | 'p'
  | 'pre'
  | 'span'
  | 'strong'
  | 'table'
  | 'tbody'
  | 'td'
  | 'th'
  | 'thead'
  | 'tr'
  | 'ul';

/** An element of rendered text: a known tag, attributes this console set, its children. */
export interface MarkdownElement {
  readonly tag: MarkdownTag;
  readonly props: Readonly<Record<string, string | number | boolean>>;
  readonly children: readonly MarkdownNode[];
}

/** A node of rendered text: a string (always shown as text, never parsed as HTML) or an element. */
export type MarkdownNode = string | MarkdownElement;
