import { createParser, type ParserPosition } from '@agentstep/protocol';
import type { ModelPart } from './model.js';
import type { ModelUsage } from './model-usage.js';

/** How one provider request ended. */
export interface RequestEnd {
  /** A stop sequence ended it (rather than the model, or the token limit). */
  stopped: boolean;
  /** The stop sequence that fired, when the provider says which (Anthropic does). */
  sequence?: string | undefined;
}

/**
 * One provider request of a step, with these stop sequences. With a non-empty `prefill` (the
 * step's output so far), the request continues that text as the start of the assistant's message.
 */
export type ProviderRequest = (
  prefill: string,
  stopSequences: readonly string[],
) => AsyncGenerator<ModelPart, RequestEnd>;

const CLOSER = '</execute>';
const END = '<end>';

/** Continuations one step may take, so a model that keeps stopping cannot loop forever. */
export const MAX_CONTINUATIONS = 3;

/**
 * Characters of text read past the end of a step's output while waiting for the usage report
 * (about 4,000 tokens); time is bounded by the provider client's own idle timeout.
 */
export const DRAIN_LIMIT_CHARS = 16_384;

/** What to do when a stop sequence ended a request, by where in the protocol it fired. */
type StopAction = 'continue' | 'close-execute' | 'end';

/**
 * A stop sequence is a marker only where the parser reads markers. Inside a JSON string of an
 * `<execute>` body (A5, A7) or inside `<think>` (A4: the first `</think>` closes it, anything else
 * is text), and for `</execute>` in prose when the provider says so, the text was data:
 * generation continues. With an `<execute>` block open, the provider swallowed its closer, which is
 * put back. Anywhere else (`<end>`, a natural end) the output is over; a swallowed `<end>` needs no
 * marker, as a step without calls ends the turn anyway (A9).
 */
function actionAt(position: ParserPosition, sequence: string | undefined): StopAction {
  if (position === 'execute-string' || position === 'think') return 'continue';
  if (position === 'prose') return sequence === CLOSER ? 'continue' : 'end';
  if (position === 'execute') return sequence === END ? 'end' : 'close-execute';
  return 'end';
}

/**
 * A step's output from one or more provider requests, with stop sequences handled as
 * {@link actionAt} decides. A continuation puts the swallowed sequence back when the provider says
 * which one fired; otherwise it lets the model regenerate it, in a request without stop sequences
 * whose text past the end of the step's output is discarded ({@link usageAfterEnd}). At most
 * {@link MAX_CONTINUATIONS}; stopping the iteration early closes the provider's stream.
 */
export async function* continueAtStops(
  send: ProviderRequest,
  stopSequences: readonly string[],
): AsyncGenerator<ModelPart> {
  const parser = createParser();
  let output = '';
  let stops = stopSequences;
  for (let continuations = 0; ; continuations++) {
    const iterator = send(output, stops);
    let end: RequestEnd = { stopped: false };
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
        // A provider without (or ignoring) stop sequences went on where it should have stopped:
        // the rest is read for its usage report only.
        if (parser.position() === 'done') {
          yield* usageAfterEnd(iterator);
          break;
        }
      }
    } finally {
      await iterator.return?.({ stopped: false });
    }
    const action = end.stopped ? actionAt(parser.position(), end.sequence) : 'end';
    if (action === 'continue' && continuations < MAX_CONTINUATIONS) {
      if (end.sequence === undefined) stops = [];
      else {
        output += end.sequence;
        parser.push(end.sequence);
        yield end.sequence;
      }
      continue;
    }
    if (action === 'close-execute') yield CLOSER;
    return;
  }
}

/**
 * The usage reports in the rest of a request whose step output is over: a provider reports usage
 * at the end of its stream, so a step closed at its marker reads on to it, discarding the text
 * (the step's metric must equal what the provider billed). Past {@link DRAIN_LIMIT_CHARS} of text
 * the request is closed and its usage stays unknown.
 */
async function* usageAfterEnd(iterator: AsyncGenerator<ModelPart, RequestEnd>): AsyncGenerator<ModelUsage> {
  let chars = 0;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const part = next.value;
    if (typeof part === 'string') chars += part.length;
    else if ('inputTokens' in part) yield part;
    if (chars > DRAIN_LIMIT_CHARS) return;
  }
}
