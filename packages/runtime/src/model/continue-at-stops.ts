import { createParser } from '@agentstep/protocol';
import type { ModelPart } from './model.js';

/** How one provider request ended. */
export interface RequestEnd {
  /** A stop sequence ended it (rather than the model, or the token limit). */
  stopped: boolean;
  /** The stop sequence that fired, when the provider says which. */
  sequence?: string | undefined;
}

/**
 * One provider request of a step. With a non-empty `prefill` (the step's output so far), the
 * request continues that text as the start of the assistant's message.
 */
export type ProviderRequest = (prefill: string) => AsyncGenerator<ModelPart, RequestEnd>;

const CLOSER = '</execute>';
const END = '<end>';

/** Continuations one step may take, so a model that keeps stopping cannot loop forever. */
export const MAX_CONTINUATIONS = 3;

/**
 * A step's output from one or more provider requests (A7). When a stop sequence fires:
 * - inside a JSON string of an `<execute>` body, the text was data, not a marker: the swallowed
 *   sequence is put back and generation continues from there (up to {@link MAX_CONTINUATIONS});
 * - with an `<execute>` block open, the `</execute>` the provider swallowed is restored;
 * - anywhere else (`<end>`, prose), the output simply ends.
 * Stopping the iteration early closes the provider's stream.
 */
export async function* continueAtStops(send: ProviderRequest): AsyncGenerator<ModelPart> {
  const parser = createParser();
  let output = '';
  for (let continuations = 0; ; continuations++) {
    const iterator = send(output);
    let end: RequestEnd;
    try {
      for (let next = await iterator.next(); ; next = await iterator.next()) {
        if (next.done) {
          end = next.value;
          break;
        }
        if (typeof next.value === 'string') {
          output += next.value;
          parser.push(next.value);
        }
        yield next.value;
      }
    } finally {
      await iterator.return?.({ stopped: false });
    }
    const at = end.stopped ? parser.position() : 'done';
    if (at === 'execute-string' && continuations < MAX_CONTINUATIONS) {
      const swallowed = end.sequence ?? CLOSER;
      output += swallowed;
      parser.push(swallowed);
      yield swallowed;
      continue;
    }
    if (at === 'execute' && end.sequence !== END) yield CLOSER;
    return;
  }
}
