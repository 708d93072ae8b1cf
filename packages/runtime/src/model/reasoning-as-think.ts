import { createPositionTracker } from '@agentstep/protocol';
import type { ModelPart } from './model.js';
import type { ModelUsage } from './model-usage.js';

const OPENER = '<think>';
const CLOSER = '</think>';
/** How a `</think>` inside reasoning is written, so the first real closer still ends the block (A4). */
const ESCAPED_CLOSER = '<\\/think>';

/**
 * A model stream with its native reasoning written as the protocol's `<think>` blocks: each run of
 * reasoning parts becomes one `<think>…</think>` in the text, so the parser stores it as a `think`
 * event and token mode streams it as thinking. A `</think>` inside the reasoning is escaped as
 * `<\/think>`, even when split across parts. Reasoning is written only where the text so far ends
 * in prose; inside an open block (a continuation that reasoned again) it has no place and is left
 * out.
 */
export async function* reasoningAsThink(
  parts: AsyncIterable<ModelPart>,
): AsyncGenerator<string | ModelUsage> {
  // Where the text is, without a second copy of it: the step's own parser keeps what it needs.
  const text = createPositionTracker();
  const thought = new ThinkBlock();
  for await (const part of parts) {
    if (typeof part === 'string') {
      if (part === '') continue;
      yield thought.close() + part;
      text.push(part);
    } else if ('reasoning' in part) {
      if (thought.open || text.position() === 'prose') yield* nonEmpty(thought.write(part.reasoning));
    } else yield part;
  }
  yield* nonEmpty(thought.close());
}

function* nonEmpty(chunk: string): Generator<string> {
  if (chunk !== '') yield chunk;
}

/** One `<think>` block written from reasoning deltas, with `</think>` escaped across deltas. */
class ThinkBlock {
  open = false;
  /** The end of the reasoning so far that may be the start of a `</think>` split across deltas. */
  #held = '';

  /** The text that writes `reasoning` into the block, opening it first if needed. */
  write(reasoning: string): string {
    const opener = this.open ? '' : OPENER;
    this.open = true;
    const escaped = (this.#held + reasoning).replaceAll(CLOSER, ESCAPED_CLOSER);
    const held = heldLength(escaped);
    this.#held = escaped.slice(escaped.length - held);
    return opener + escaped.slice(0, escaped.length - held);
  }

  /** The text that closes the block, if one is open. */
  close(): string {
    if (!this.open) return '';
    const rest = this.#held;
    this.open = false;
    this.#held = '';
    return `${rest}${CLOSER}`;
  }
}

/** How many characters at the end of `text` are a proper prefix of `</think>`. */
function heldLength(text: string): number {
  const at = text.lastIndexOf('<');
  if (at < 0 || text.length - at >= CLOSER.length) return 0;
  return CLOSER.startsWith(text.slice(at)) ? text.length - at : 0;
}
