import type { LeaseOptions } from '../event-log/event-log.js';
import type { AppendResultsDeps } from './append-results.js';
import { batchId } from './batch-id.js';
import { takeSession } from './take-session.js';

/** What a client submits to start a turn. */
export interface SubmitTurnInput {
  session: string;
  turn: string;
  prompt: string;
  /** Instructions the turn's system prompt starts with (a workflow agent's persona). @default none */
  instructions?: string;
  /** The model profile every step of the turn uses (a workflow agent's `REQUIRES`). @default the default model */
  model?: string;
  /** The turn's lease: its length, and whether to take the session from a live holder. */
  lease?: LeaseOptions;
}

/** The idempotency key of a turn's user message: whether it exists tells whether the turn was submitted. */
export function userMessageKey(turn: string): string {
  return `user:${turn}`;
}

/**
 * Starts a turn on the client side, before its execution starts: takes the session for the turn
 * (SessionBusy while another turn's lease runs; an expired turn is closed in the log) and appends
 * the user message, idempotently per turn. Returns the turn it took the session from, if any.
 */
export async function submitTurn(
  input: SubmitTurnInput,
  deps: AppendResultsDeps,
): Promise<{ previous?: string }> {
  const taken = await takeSession(input.session, input.turn, input.lease ?? {}, deps);
  await deps.log.append({
    session: input.session,
    turn: input.turn,
    key: userMessageKey(input.turn),
    events: [{ event: userEvent(input, deps.clock.now() / 1000) }],
    // The turn's start: its first model step finds it and knows it was not taken yet.
    mark: batchId(input.turn, 0),
  });
  return taken;
}

function userEvent(input: SubmitTurnInput, timestamp: number) {
  const { prompt: content, instructions, model } = input;
  return {
    type: 'user' as const,
    content,
    timestamp,
    ...(instructions === undefined ? {} : { instructions }),
    ...(model === undefined ? {} : { model }),
  };
}
