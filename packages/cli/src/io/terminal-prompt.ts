import type { Readable, Writable } from 'node:stream';
import { LineReader } from './line-reader.js';

/** Carriage return, then erase the line: the cursor is back at its start. */
const ERASE_LINE = '\r\u001b[2K';

/**
 * One question at a time on a terminal, with other output kept above it: a whole line printed
 * while a question waits erases the question, and the question is drawn again below the line.
 */
export class TerminalPrompt {
  readonly #lines: LineReader;
  readonly #output: Writable;
  /** The question waiting for its answer, while one does. */
  #open: string | undefined;

  constructor(input: Readable, output: Writable) {
    this.#lines = new LineReader(input);
    this.#output = output;
  }

  /**
   * Shows `question` and resolves with the line typed; undefined, the question erased, when
   * `signal` aborts first or the input ended (or the prompt was closed).
   */
  async ask(question: string, signal?: AbortSignal): Promise<string | undefined> {
    if (signal?.aborted || this.#lines.ended) return undefined;
    this.#open = question;
    this.#output.write(question);
    const answer = await this.#lines.next(signal);
    this.#open = undefined;
    if (answer === undefined) this.#output.write(ERASE_LINE);
    return answer;
  }

  /** Writes a line between questions. */
  say(line: string): void {
    this.#output.write(`${line}\n`);
  }

  /** Writes `text` with `write`: above the waiting question when it is whole lines. */
  above(text: string, write: (text: string) => void): void {
    if (this.#open === undefined || !text.endsWith('\n')) {
      write(text);
      return;
    }
    write(`${ERASE_LINE}${text}`);
    this.#output.write(this.#open);
  }

  /** Asks nothing more: a waiting question gets undefined, and the input is no longer read. */
  close(): void {
    this.#lines.close();
  }
}
