import { createPositionTracker, type ParserPosition } from '@agentstep/protocol';
import type { ModelPart } from './model.js';
import { UNREPORTED_USAGE } from './model-usage.js';
import { closeDrained, type Drain, usageAfterEnd } from './usage-after-end.js';

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
 * whose text past the end of the step's output is discarded (`usageAfterEnd`). At most
 * {@link MAX_CONTINUATIONS}; stopping the iteration early closes the provider's stream.
 */
export async function* continueAtStops(
  send: ProviderRequest,
  stopSequences: readonly string[],
): AsyncGenerator<ModelPart> {
  // Where the output is, without parsing it a second time: the step's own parser makes its events.
  const parser = createPositionTracker();
  let output = '';
  let stops = stopSequences;
  // Requests of the step that reported their usage, and those that did not.
  const reports = { reported: 0, unreported: 0 };
  for (let continuations = 0; ; continuations++) {
    const iterator = send(output, stops);
    const drain: Drain = { readPending: false };
    let end: RequestEnd = { stopped: false };
    let reported = false;
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
        reported ||= typeof next.value !== 'string' && 'inputTokens' in next.value;
        yield next.value;
        // A provider without (or ignoring) stop sequences went on where it should have stopped:
        // the rest is read for its usage report only.
        if (parser.position() === 'done') {
          for await (const usage of usageAfterEnd(iterator, drain)) {
            reported = true;
            yield usage;
          }
          break;
        }
      }
    } finally {
      await closeDrained(iterator, drain, { stopped: false });
    }
    reports[reported ? 'reported' : 'unreported']++;
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
    // Some requests reported usage and some did not: the sum of the first is not what the step cost.
    if (reports.reported > 0 && reports.unreported > 0) yield UNREPORTED_USAGE;
    return;
  }
}
