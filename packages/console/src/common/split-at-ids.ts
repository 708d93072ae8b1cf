/** A piece of text: plain, or one of the ids looked for. */
export interface TextPart {
  text: string;
  isId: boolean;
}

/**
 * `text` cut at each of `ids` it names. An id counts only whole: `wf-1.1` is not found inside
 * `wf-1.10`, while a sentence's full stop may follow it (`see session wf-1.3.`).
 */
export function splitAtIds(text: string, ids: readonly string[]): TextPart[] {
  const sought = [...new Set(ids)].filter((id) => id !== '').sort((a, b) => b.length - a.length);
  if (sought.length === 0) return [{ text, isId: false }];
  // No id character before it, none after it (a "." only as a full stop).
  const pattern = new RegExp(`(?<![\\w.-])(${sought.map(escapeRegExp).join('|')})(?![\\w-]|\\.[\\w-])`);
  return text
    .split(pattern)
    .map((part, index) => ({ text: part, isId: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
