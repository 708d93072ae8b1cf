import type { ToolOutcome } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { CallRef, OutcomeStore } from '../outcomes/outcome-store.js';
import type { Tool, ToolContext } from '../tools/define-tool.js';
import { runTool } from '../tools/run-tool.js';
import { outcomeUnknown } from './outcome-unknown.js';
import { turnEndSignal } from './turn-end-signal.js';

/** Why a redelivered non-idempotent call is not run: its first run may have had its effect. */
export const STARTED_WITHOUT_OUTCOME =
  'an earlier delivery of this call started it and stored no outcome (its tools function crashed or timed out), so it is not run a second time: check whether its effect happened before calling it again';

/**
 * Runs a validated call at most once when its tool is not idempotent (decision 0031): only the
 * delivery that marks the call started runs it; a later one, finding the mark with no outcome,
 * answers `outcome unknown`. An idempotent tool (or one from a copy of the package without the
 * flag is not: only `idempotent: true` is) runs on every delivery that finds no outcome. While it
 * runs, its turn is watched: once the turn has ended (a cancel closed it), the call is stopped.
 */
export async function runOnce(
  tool: Tool,
  args: Record<string, unknown>,
  call: CallRef & Omit<ToolContext, 'signal' | 'idempotencyKey'>,
  { outcomes, log }: { outcomes: OutcomeStore; log: EventLog },
): Promise<ToolOutcome> {
  const ref = { session: call.session, batch: call.batch, position: call.position };
  if (tool.idempotent !== true && !(await outcomes.markStarted(ref))) {
    return outcomeUnknown(tool.name, STARTED_WITHOUT_OUTCOME);
  }
  // A turn closed while its call runs (a cancel stopped it) tells the call: its signal aborts.
  const watch = turnEndSignal(log, call);
  try {
    return await runTool(tool, args, call, watch.signal);
  } finally {
    watch.stop();
  }
}
