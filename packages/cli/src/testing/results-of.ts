import { type StoredEvent, toolOutcomeSchema } from '@agentstep/protocol';
import * as z from 'zod';

/** One tool call of a turn and its outcome. */
export interface AgentRunResult {
  /** The tool the model called. */
  name: string;
  /** The arguments as the model wrote them; `null` when its batch did not parse into calls. */
  args: unknown;
  /** Whether the call succeeded. */
  ok: boolean;
  /** The tool's output when it succeeded, else the failure message the model read. */
  output: unknown;
}

const outcomesSchema = z.array(toolOutcomeSchema);

/**
 * Every call of the log's `result` events, in order, each with the arguments of the `call` event
 * at its position in the same batch.
 */
export function resultsOf(events: readonly StoredEvent[]): AgentRunResult[] {
  return events.flatMap(({ batch, event }) => {
    if (event.type !== 'result') return [];
    const calls = events.filter((stored) => stored.batch === batch && stored.event.type === 'call');
    return outcomesSchema.parse(JSON.parse(event.content)).map((outcome, index) => ({
      name: outcome.tool,
      args: argsOf(calls.find((call) => call.position === index)),
      ok: outcome.status === 'success',
      output: outcome.content,
    }));
  });
}

function argsOf(call: StoredEvent | undefined): unknown {
  if (call?.event.type !== 'call') return null;
  const written = JSON.parse(call.event.content) as { args?: unknown };
  return written.args ?? null;
}
