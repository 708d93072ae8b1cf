/** A piece of a message template: literal text, or a JSONPath into the event that fills it in. */
export type MessagePart = { readonly text: string } | { readonly path: string };

/** `<$...>` placeholders, found wherever a `<` opens one. */
const PLACEHOLDER = /<(\$[^<>]*)>/g;

/**
 * The JSONPath syntax both EventBridge input transformers and Pipes evaluate: dot notation (letters,
 * digits, `-`, `_`, `/`) and array indices, at least one step below the event's root.
 */
const EVENT_PATH = /^\$(?:\.[A-Za-z0-9_/-]+|\[\d+\])+$/;

/**
 * Splits a message template such as `'Summarize order <$.detail.orderId>'` into text and
 * placeholders. Throws, naming `where`, on a placeholder that selects no field and on a `<` or `>`
 * outside one, which input templates cannot escape.
 */
export function parseMessageTemplate(template: string, where: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let end = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const path = match[1] ?? '';
    if (!EVENT_PATH.test(path))
      throw new Error(
        `${where} message has the placeholder <${path}>, which selects no field: write a JSONPath in dot notation below the event's root, such as <$.detail.orderId> (letters, digits, "-", "_", "/" and [n] indices).`,
      );
    pushText(parts, template.slice(end, match.index), where);
    parts.push({ path });
    end = match.index + match[0].length;
  }
  pushText(parts, template.slice(end), where);
  return parts;
}

function pushText(parts: MessagePart[], text: string, where: string): void {
  if (text === '') return;
  if (/[<>]/.test(text))
    throw new Error(
      `${where} message has a "<" or ">" outside a placeholder in ${JSON.stringify(text)}: input templates cannot escape them, so use them only around a placeholder such as <$.detail.orderId>.`,
    );
  parts.push({ text });
}

/** The one placeholder a message consists of, when it is nothing else: passed as the field's own JSON value. */
export function wholeField(parts: readonly MessagePart[]): string | undefined {
  const [only] = parts;
  return parts.length === 1 && only && 'path' in only ? only.path : undefined;
}
