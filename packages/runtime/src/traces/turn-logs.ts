import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import type { StepUsage } from '../usage/step-usage.js';

/** One ended turn of a session's log: its events from its user message to its end, and its steps' usage. */
export interface TurnLog {
  session: string;
  turn: string;
  /** Its events, oldest first: the user message (when one began it), `turn_start` … `turn_end`. */
  events: readonly StoredEvent[];
  /** The usage ledger's entries of its model steps (and their compactions), oldest first. */
  entries: readonly StepUsage[];
  /** Its first record, which names the agent's version; a turn that failed before it has none. */
  start: WireEventOf<'turn_start'> | undefined;
  end: WireEventOf<'turn_end'>;
}

/**
 * The ended turns of a session's log, oldest first, each with its events (from its user message
 * to its `turn_end`) and its ledger entries (the batches `<turn>.<n>`). A turn still running has no
 * `turn_end` yet and is left out; so is one a user message cut short (a fork of a batch's results
 * inherits its parent's turn unended, and its own next turn begins at its own message). Events at
 * or before `after` (a fork's inherited prefix) belong to another session's turns and are left out.
 */
export function turnLogs(
  session: string,
  log: { events: readonly StoredEvent[]; entries: readonly StepUsage[]; after?: number },
): TurnLog[] {
  const events = log.events.filter(({ seq }) => log.after === undefined || seq > log.after);
  const turns: TurnLog[] = [];
  let from: number | undefined;
  events.forEach(({ event }, index) => {
    if (event.type === 'user') from = index;
    if (event.type !== 'turn_end' || from === undefined) return;
    const { turn } = event.payload;
    const own = events.slice(from, index + 1);
    const start = own.find(
      (stored): stored is StoredEvent & { event: WireEventOf<'turn_start'> } =>
        stored.event.type === 'turn_start' && stored.event.payload.turn === turn,
    )?.event;
    const entries = log.entries.filter(({ batch }) => batch.startsWith(`${turn}.`));
    turns.push({ session, turn, events: own, entries, start, end: event });
    from = undefined;
  });
  return turns;
}
