import { BATCH_TOOL_NAME, type CaughtError, type RecordToolFailureInput } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import { callResult } from './call-result.js';
import type { InvokeToolOutput } from './invoke-tool.js';
import { outcomeUnknown } from './outcome-unknown.js';
import { calledTool, readCalls } from './read-calls.js';

/**
 * Gives a call whose tool function failed outright (crash, time-out, throttling after retries) a
 * failure outcome that says why (B4), unless the call already has one. A call whose run was marked
 * started (a non-idempotent tool, decision 0031) may have had its effect: its failure is
 * `outcome unknown: …`.
 */
export async function recordToolFailure(
  input: RecordToolFailureInput,
  deps: { log: EventLog; outcomes: OutcomeStore },
): Promise<InvokeToolOutput> {
  const ref = { session: input.session, batch: input.batch, position: input.position };
  const [calls, started] = await Promise.all([
    readCalls(deps.log, input, [input]),
    deps.outcomes.started(ref),
  ]);
  const tool = calledTool(calls.get(input.position)) || BATCH_TOOL_NAME;
  const outcome = await deps.outcomes.put(
    ref,
    started
      ? outcomeUnknown(tool, afterStart(input.error))
      : {
          tool,
          status: 'failure',
          content: `The ${tool} tool's function failed: ${describeCaught(input.error)}`,
        },
  );
  return callResult(input.position, outcome, input.count);
}

/** The errors of a tools function stopped at its time limit: by Step Functions, or by Lambda. */
const TIMEOUTS = new Set(['States.Timeout', 'Sandbox.Timedout']);

/** Why a started call's outcome is unknown, from the error that ended its tools function. */
function afterStart(error: CaughtError): string {
  return TIMEOUTS.has(error.Error ?? '')
    ? 'the tools function timed out after it may have started'
    : `the tools function failed after it may have started (${describeCaught(error)})`;
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
