import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Reads an input stream one line at a time, on demand: lines that arrive before anyone asks are
 * kept for the next ask (readline's own `question` drops them). Reading starts with the first ask.
 */
export class LineReader {
  readonly #input: Readable;
  readonly #buffered: string[] = [];
  #lines: Interface | undefined;
  #waiting: ((line: string | undefined) => void) | undefined;
  #ended = false;

  constructor(input: Readable) {
    this.#input = input;
  }

  /**
   * The next line, without its line break; undefined once the input ended, the reader was closed,
   * or `signal` aborted (the line that arrives later is kept for the next ask).
   */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const line = this.#buffered.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended || signal?.aborted) return Promise.resolve(undefined);
    this.#start();
    return new Promise((resolve) => {
      const waiter = (answer: string | undefined) => {
        signal?.removeEventListener('abort', abandon);
        resolve(answer);
      };
      const abandon = () => {
        if (this.#waiting === waiter) this.#answer(undefined);
      };
      signal?.addEventListener('abort', abandon, { once: true });
      this.#waiting = waiter;
    });
  }

  /** Whether the input ended or the reader was closed: every ask answers undefined. */
  get ended(): boolean {
    return this.#ended && this.#buffered.length === 0;
  }

  /** Stops reading: a pending ask gets undefined, and the input is left paused. */
  close(): void {
    this.#ended = true;
    this.#lines?.close();
    this.#answer(undefined);
  }

  #start(): void {
    if (this.#lines !== undefined) return;
    // terminal: false keeps the terminal's own line editing and Ctrl-C (SIGINT to the process).
    this.#lines = createInterface({
      input: this.#input,
      terminal: false,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    this.#lines.on('line', (line) => {
      if (this.#waiting === undefined) this.#buffered.push(line);
      else this.#answer(line);
    });
    this.#lines.on('close', () => {
      this.#ended = true;
      this.#answer(undefined);
    });
  }

  #answer(line: string | undefined): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(line);
  }
}
