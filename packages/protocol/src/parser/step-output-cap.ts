import { utf8Length } from '../context/cap-content.js';
import type { ParsedEvent } from './parsed-event.js';
import { STEP_CAPS } from './step-caps.js';

/**
 * Keeps one model step's text within {@link STEP_CAPS}' `outputBytes` (decision 0012): counts the
 * UTF-8 bytes of each chunk as it arrives, before the parser reads it, and refuses the chunk that
 * would pass the cap and every one after it. The step's output ends there, with {@link refusal}:
 * an error without a position naming the cap, handled as the cap on events is.
 */
export class StepOutputCap {
  readonly #cap: number;
  #bytes = 0;
  #over = false;

  /** @param cap the UTF-8 bytes a step may stream; @default STEP_CAPS.outputBytes */
  constructor(cap: number = STEP_CAPS.outputBytes) {
    this.#cap = cap;
  }

  /** Whether the step passed the cap: its output is over, and no more text is admitted. */
  get over(): boolean {
    return this.#over;
  }

  /** Whether `chunk` fits within the cap after the text admitted before it. */
  admit(chunk: string): boolean {
    if (this.#over) return false;
    const bytes = utf8Length(chunk);
    if (this.#bytes + bytes > this.#cap) this.#over = true;
    else this.#bytes += bytes;
    return !this.#over;
  }

  /** The error that ends a step cut at the cap: what the model reads in its failure result. */
  refusal(): ParsedEvent {
    return { type: 'error', content: capMessage(this.#cap) };
  }
}

function capMessage(cap: number): string {
  return `This step wrote more than ${cap} bytes of text, the protocol's cap per model step: its output was cut there and only the thoughts and prose it had finished before were kept, so no call of this step ran. Write less in one step: shorter <think> blocks and prose, and large data split over several calls and steps.`;
}
