const NON_WHITESPACE = /\S/;

/**
 * Streams a text as deltas whose concatenation is the trimmed text: leading whitespace is dropped
 * and trailing whitespace is held until more text follows it. Linear in the input.
 */
export class TrimmedDeltas {
  #started = false;
  #pendingWhitespace = '';

  /** The part of `text` that can be emitted now ('' when nothing can). */
  push(text: string): string {
    if (!NON_WHITESPACE.test(text)) {
      if (this.#started) this.#pendingWhitespace += text;
      return '';
    }
    const body = this.#started ? text : text.trimStart();
    this.#started = true;
    const trimmed = body.trimEnd();
    const delta = this.#pendingWhitespace + trimmed;
    this.#pendingWhitespace = body.slice(trimmed.length);
    return delta;
  }
}
