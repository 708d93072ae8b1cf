/**
 * Splits text into chunks of `size` UTF-16 units, moving a cut by one where it would separate a
 * surrogate pair, so every chunk is well-formed text.
 */
export function* splitChunks(text: string, size: number): Generator<string> {
  let from = 0;
  while (from < text.length) {
    let to = Math.min(from + size, text.length);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to++;
    yield text.slice(from, to);
    from = to;
  }
}
