/** Default cap on one result's content in the model's context (B6): 16 KiB of UTF-8. */
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024;

/**
 * A result's content as the model sees it (B6): unchanged when its UTF-8 size is within
 * `maxBytes`, else its first `maxBytes` (as text) followed by a marker saying how much was cut and
 * how to read the rest. The stored event always keeps the whole output.
 */
export function capContent(content: unknown, maxBytes: number): unknown {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  if (text === undefined || !exceeds(text, maxBytes)) return content;
  const kept = prefixWithin(text, maxBytes);
  return `${kept}\n${truncationMarker(utf8Length(kept), utf8Length(text))}`;
}

function truncationMarker(keptBytes: number, totalBytes: number): string {
  const cut = totalBytes - keptBytes;
  return (
    `[truncated: ${cut} of ${totalBytes} bytes cut, the first ${keptBytes} shown. ` +
    'The full output is kept in the session log; to see more, ask for a smaller part of it.]'
  );
}

function exceeds(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  return text.length * 3 > maxBytes && utf8Length(text) > maxBytes;
}

/** UTF-8 byte length without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at += unitsAt(text, at)) bytes += bytesAt(text, at);
  return bytes;
}

/** The longest prefix of whole characters whose UTF-8 size is at most `maxBytes`. */
function prefixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let at = 0;
  while (at < text.length && bytes + bytesAt(text, at) <= maxBytes) {
    bytes += bytesAt(text, at);
    at += unitsAt(text, at);
  }
  return text.slice(0, at);
}

function isPairAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length;
}

function unitsAt(text: string, at: number): number {
  return isPairAt(text, at) ? 2 : 1;
}

/** UTF-8 size of the character at `at`; a lone surrogate counts as its 3-byte replacement. */
function bytesAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return isPairAt(text, at) ? 4 : 3;
}
