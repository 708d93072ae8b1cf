import { BATCH_TOOL_NAME, type CaughtError, type RecordToolFailureInput } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import type { InvokeToolOutput } from './invoke-tool.js';
import { calledTool, readCalls } from './read-calls.js';

/**
 * Gives a call whose tool function failed outright (crash, time-out, throttling after retries) a
 * failure outcome that says why (B4), unless the call already has one.
 */
export async function recordToolFailure(
  input: RecordToolFailureInput,
  deps: { log: EventLog; outcomes: OutcomeStore },
): Promise<InvokeToolOutput> {
  const calls = await readCalls(deps.log, input, [input]);
  const tool = calledTool(calls.get(input.position)) || BATCH_TOOL_NAME;
  const outcome = await deps.outcomes.put(
    { session: input.session, batch: input.batch, position: input.position },
    {
      tool,
      status: 'failure',
      content: `The ${tool} tool's function failed: ${describeCaught(input.error)}`,
    },
  );
  return { position: input.position, status: outcome.status };
}

/** A caught error in one line: a Lambda error's own message when the cause carries one. */
export function describeCaught(error: CaughtError): string {
  const name = error.Error ?? 'Error';
  try {
    const cause = JSON.parse(error.Cause ?? '') as { errorMessage?: unknown };
    if (typeof cause.errorMessage === 'string') return `${name}: ${cause.errorMessage}`;
  } catch {
    // Not JSON: Step Functions' own errors carry plain text.
  }
  return error.Cause ? `${name}: ${error.Cause}` : name;
}
