import type { FilePage } from './workspace.js';

/** The bytes a UTF-8 character may take beyond its first; what a reader asks for past `limit`. */
export const UTF8_TAIL_BYTES = 3;

/**
 * The page of `bytes` (read from the file at `offset`: `limit` bytes and up to
 * {@link UTF8_TAIL_BYTES} more) that holds whole characters only: it starts past a character the
 * offset fell inside and ends at the last character boundary within `limit`, or after the first
 * character when that alone is longer, so paging always moves on.
 */
export function utf8Page(bytes: Uint8Array, offset: number, limit: number, size: number): FilePage {
  const start = boundaryAfter(bytes, 0);
  let end = Math.min(limit, bytes.length);
  if (offset + end < size) {
    const before = boundaryBefore(bytes, end);
    end = before > start ? before : boundaryAfter(bytes, end);
  }
  end = Math.max(end, start);
  const next = offset + end;
  return {
    content: Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8'),
    offset: offset + start,
    size,
    ...(next < size ? { nextOffset: next } : {}),
  };
}

/** `index` moved forward past continuation bytes (at most a character's tail). */
function boundaryAfter(bytes: Uint8Array, index: number): number {
  let at = index;
  while (at < bytes.length && at - index < UTF8_TAIL_BYTES && continues(bytes[at])) at++;
  return at;
}

/** `index` moved back to the first byte of the character it falls inside; itself if none is near. */
function boundaryBefore(bytes: Uint8Array, index: number): number {
  let at = index;
  while (at > 0 && index - at < UTF8_TAIL_BYTES && continues(bytes[at])) at--;
  return continues(bytes[at]) ? index : at;
}

/** A byte that continues a character rather than starting one (`10xxxxxx`). */
function continues(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
