import {
  type AdvanceTurnInput,
  BATCH_TOOL_NAME,
  type CallResult,
  resultEvent,
  type ToolOutcome,
} from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { AppendResult, EventLog } from '../event-log/event-log.js';
import type { OutcomeStore, StoredOutcome } from '../outcomes/outcome-store.js';
import { calledTool, readCalls } from './read-calls.js';

/** What appending a batch's result needs. */
export interface AppendResultsDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  clock: Clock;
}

/**
 * Appends the batch's single `result` event in call order (B4, B5), with how long each call ran
 * when its outcome says so. A position without a stored outcome gets a failure saying `missing`,
 * so no call is ever left without a result. It ends the
 * session's hold: no call of the batch waits for anyone any more. It returns where the result
 * landed, and whether the turn had been asked to stop by then.
 */
export async function appendResults(
  batch: Pick<AdvanceTurnInput, 'session' | 'turn' | 'batch' | 'calls' | 'count' | 'outcomes'>,
  deps: AppendResultsDeps,
  missing: string,
): Promise<AppendResult> {
  const stored =
    carriedOutcomes(batch.outcomes, batch.count) ??
    (await deps.outcomes.list(batch.session, batch.batch, batch.count));
  const calls = stored.includes(undefined) ? await readCalls(deps.log, batch, batch.calls) : new Map();
  const outcomes = stored.map(
    (outcome, position): ToolOutcome =>
      outcome ?? {
        tool: calledTool(calls.get(position)) || BATCH_TOOL_NAME,
        status: 'failure',
        content: missing,
      },
  );
  return deps.log.append({
    session: batch.session,
    turn: batch.turn,
    key: `result:${batch.batch}`,
    ...expectedAfter(batch.calls),
    holdUntil: 0,
    // The next model step's check: a cancel that came while the batch ran.
    reportCancel: true,
    events: [
      {
        batch: batch.batch,
        event: {
          ...resultEvent(
            outcomes,
            stored.map((outcome) => outcome?.ms ?? null),
          ),
          timestamp: deps.clock.now() / 1000,
        },
      },
    ],
  });
}

/**
 * Where the result should land, as a fresh process can tell without reading: right after the
 * batch's last call, when no call waited for a person (whose decision the log holds after it).
 * A hint only: a wrong one costs the append a read and a retry, never a wrong append.
 */
function expectedAfter(calls: AdvanceTurnInput['calls']): { expectedSeq?: number } {
  if (calls.length === 0 || calls.some((call) => (call.approval ?? null) !== null)) return {};
  return { expectedSeq: Math.max(...calls.map((call) => call.seq)) + 1 };
}

/**
 * The batch's outcomes as its calls carried them back through the map, in call order, when every
 * one of its `count` positions carried its own; `undefined` when one did not (then they are read).
 */
function carriedOutcomes(
  results: readonly CallResult[] | undefined,
  count: number,
): StoredOutcome[] | undefined {
  if (results === undefined) return undefined;
  const byPosition = new Map(results.map((result) => [result.position, result.outcome]));
  const outcomes = Array.from({ length: count }, (_, position) => byPosition.get(position));
  return outcomes.every((outcome) => outcome != null) ? (outcomes as StoredOutcome[]) : undefined;
}
