import {
  type Requester,
  type StoppedExecution,
  startTurnInputSchema,
  turnRequestSchema,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { userMessageKey } from '../steps/submit-turn.js';
import { requestIds } from './request-ids.js';
import { submittedBy } from './request-turn.js';
import { requesterOf } from './requester-of.js';

/** The turn a stopped execution ran: its ids, who asked for it, and whether it was its first execution. */
export interface StoppedTurn {
  session: string;
  turn: string;
  request: Requester | null;
  /** The turn's first execution (not one it continued in): the one whose end callers wait for. */
  first: boolean;
}

/**
 * The turn a stopped execution ran, from its input: a submitted or continued turn names it; a turn
 * request names it through its ids, if this execution started that turn (a duplicate's turn is
 * another execution's, and an execution that stopped before StartTurn started none).
 */
export async function stoppedTurnOf(
  execution: StoppedExecution,
  log: EventLog,
): Promise<StoppedTurn | undefined> {
  const submitted = startTurnInputSchema.safeParse(execution.input);
  if (submitted.success) {
    const { session, turn, request, step } = submitted.data;
    return { session, turn, request: request ?? null, first: step === undefined };
  }
  const requested = turnRequestSchema.safeParse(execution.input);
  if (!requested.success) return undefined;
  const ids = requestIds(requested.data, execution.name);
  if ((await submittedBy(log, ids.stored, userMessageKey(ids.turn))) !== execution.name) return undefined;
  return {
    session: ids.stored,
    turn: ids.turn,
    request: requesterOf(requested.data, ids.session),
    first: true,
  };
}
