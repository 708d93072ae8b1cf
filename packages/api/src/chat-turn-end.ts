import type { StoredEvent } from '@agentstep/protocol';
import { type StreamEnd, WAITING } from './stream-format.js';

/**
 * When a stream of one turn is over, shown the turn's events oldest first: at the turn's end, with
 * its status; or once a call of the turn waits for a person (`waiting`), so the client can decide it.
 */
export function chatTurnEnd(turn: string): (events: readonly StoredEvent[]) => StreamEnd | undefined {
  const pending = new Set<string>();
  return (events) => {
    for (const { event } of events) {
      if (event.type === 'turn_end') return { status: event.payload.status, turn };
      if (event.type !== 'approval') continue;
      if (event.payload.status === 'requested') pending.add(event.payload.id);
      else pending.delete(event.payload.id);
    }
    return pending.size > 0 ? { status: WAITING, turn } : undefined;
  };
}
