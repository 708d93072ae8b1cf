import { type BlockKind, CLOSERS } from './markers.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;
const EXECUTE_CLOSER = CLOSERS.execute;

/**
 * Answers "does this block ever close?" for text that is complete (the stream has ended), so the
 * A10 fallback decides each opener in constant amortized time instead of rescanning the tail once
 * per unclosed opener, which is quadratic on inputs like `<think><think><think>…`.
 */
export class FinalCloserIndex {
  readonly #text: string;
  readonly #plainSearches = new Map<string, { from: number; at: number }>();
  #executeCloses: Int32Array | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  /** Whether a block of `kind` whose body starts at `from` has its closer in the text. */
  closes(kind: BlockKind, from: number): boolean {
    return kind === 'execute' ? this.#executeClose(from) >= 0 : this.#plainClose(CLOSERS[kind], from) >= 0;
  }

  /** First `closer` at or after `from`; queries come in increasing `from`, so each search resumes. */
  #plainClose(closer: string, from: number): number {
    const last = this.#plainSearches.get(closer);
    if (last && from >= last.from && (last.at < 0 || last.at >= from)) return last.at;
    const at = this.#text.indexOf(closer, from);
    this.#plainSearches.set(closer, { from, at });
    return at;
  }

  /**
   * Where a JSON-string-aware scan that starts outside a string at `from` meets `</execute>` (A5),
   * or -1. One backward pass computes the answer for every start position.
   */
  #executeClose(from: number): number {
    this.#executeCloses ??= executeClosesFromEveryPosition(this.#text);
    return this.#executeCloses[from] ?? -1;
  }
}

function executeClosesFromEveryPosition(text: string): Int32Array {
  const outside = new Int32Array(text.length + 1).fill(-1);
  let inString = -1;
  let escaped = -1;
  for (let at = text.length - 1; at >= 0; at--) {
    const code = text.charCodeAt(at);
    const outsideNext = outside[at + 1] ?? -1;
    const closesHere = code === LESS_THAN && text.startsWith(EXECUTE_CLOSER, at);
    const nextOutside = closesHere ? at : code === QUOTE ? inString : outsideNext;
    const nextInString = code === BACKSLASH ? escaped : code === QUOTE ? outsideNext : inString;
    escaped = inString;
    inString = nextInString;
    outside[at] = nextOutside;
  }
  return outside;
}
