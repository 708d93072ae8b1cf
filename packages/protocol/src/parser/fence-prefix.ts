const WHITESPACE = /\s/;
const INFO = /[\w+.-]/;

type State = 'blank' | 'ticks' | 'info' | 'text';

/**
 * Decides, one character at a time, whether a prose fragment so far could still turn out to be only
 * whitespace and code-fence markers (A5): three backticks and an info string, separated by
 * whitespace, or the start of one. Once it cannot, it stays decided. Linear in the text, unlike
 * testing the whole fragment again at each chunk.
 */
export class FencePrefix {
  #state: State = 'blank';
  #ticks = 0;

  /** Feeds the next text; true while the fragment may still be only fences. */
  push(text: string): boolean {
    for (let at = 0; at < text.length && this.#state !== 'text'; at++) this.#step(text.charAt(at));
    return this.#state !== 'text';
  }

  #step(char: string): void {
    if (this.#state === 'blank') {
      if (char === '`') [this.#state, this.#ticks] = ['ticks', 1];
      else if (!WHITESPACE.test(char)) this.#state = 'text';
    } else if (this.#state === 'ticks') {
      if (char !== '`') this.#state = 'text';
      else if (++this.#ticks === 3) this.#state = 'info';
    } else if (WHITESPACE.test(char)) this.#state = 'blank';
    else if (!INFO.test(char)) this.#state = 'text';
  }
}
