import type { SourcePosition } from './workflow-spec-problems.js';

/** A read position in a text that keeps its 1-based line and column as it moves. */
export class SourceScanner {
  index = 0;
  line = 1;
  column = 1;

  constructor(readonly text: string) {}

  /** Whether the whole text has been read. */
  get done(): boolean {
    return this.index >= this.text.length;
  }

  /** The character `offset` places ahead, or `''` past the end. */
  peek(offset = 0): string {
    return this.text.charAt(this.index + offset);
  }

  /** Whether the unread text starts with `prefix`. */
  startsWith(prefix: string): boolean {
    return this.text.startsWith(prefix, this.index);
  }

  /** Reads `count` characters (fewer at the end) and returns them. */
  advance(count: number): string {
    const read = this.text.slice(this.index, this.index + count);
    for (const character of read) {
      if (character === '\n') {
        this.line += 1;
        this.column = 1;
      } else {
        this.column += character.length;
      }
    }
    this.index += read.length;
    return read;
  }

  /** Reads characters while `test` accepts them and returns them. */
  advanceWhile(test: (character: string) => boolean): string {
    let end = this.index;
    while (end < this.text.length && test(this.text.charAt(end))) end += 1;
    return this.advance(end - this.index);
  }

  /** Where the next character is. */
  position(): SourcePosition {
    return { line: this.line, column: this.column };
  }
}
