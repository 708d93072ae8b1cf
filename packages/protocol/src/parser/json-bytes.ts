const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Control characters `JSON.stringify` writes as two characters (`\b \t \n \f \r`); the rest take six. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * The UTF-8 bytes of `JSON.stringify(value)` for a value `JSON.parse` made, counted without writing
 * the JSON out: a call's size is checked before its text is written, and only once. Recursive: the
 * caller bounds the depth (`BATCH_CAPS.depth`).
 */
export function jsonBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return 4;
  // Brackets or braces, and a comma between items.
  if (Array.isArray(value))
    return value.reduce((sum: number, item) => sum + itemBytes(item), 1 + Math.max(value.length, 1));
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => isWritten(item));
    const inner = entries.reduce((sum, [key, item]) => sum + stringBytes(key) + 1 + jsonBytes(item), 0);
    return 1 + Math.max(entries.length, 1) + inner;
  }
  // Not something JSON.parse makes (undefined, a function): as JSON.stringify writes it, if at all.
  return (JSON.stringify(value) as string | undefined)?.length ?? 0;
}

/** An array's item: what JSON.stringify leaves out of an object is `null` in an array. */
function itemBytes(item: unknown): number {
  return isWritten(item) ? jsonBytes(item) : 4;
}

function isWritten(item: unknown): boolean {
  return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
}

/** A string's JSON: its quotes, its escapes, and its other characters in UTF-8. */
function stringBytes(text: string): number {
  let bytes = 2;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20) bytes += SHORT_ESCAPES.has(code) ? 2 : 6;
    else if (code < 0x80) bytes += code === QUOTE || code === BACKSLASH ? 2 : 1;
    else if (code < 0x800) bytes += 2;
    else if (code < 0xd800 || code > 0xdfff) bytes += 3;
    else if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(at + 1))) {
      bytes += 4;
      at++;
    } else bytes += 6; // a lone surrogate is written as \uXXXX
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
