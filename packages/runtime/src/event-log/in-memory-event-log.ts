import type { StoredEvent } from '@agentstep/protocol';
import { SessionBusyError } from '../errors.js';
import type { AppendRequest, AppendResult, EventLog } from './event-log.js';
import { toStoredEvent } from './to-stored-event.js';

interface SessionState {
  events: StoredEvent[];
  appends: Map<string, AppendResult>;
  turn?: string;
}

/**
 * An {@link EventLog} in process memory: the same contract as DynamoDB, for unit tests and for
 * running without Java. Stored events are copied in and out, so callers cannot alter the log.
 */
export class InMemoryEventLog implements EventLog {
  readonly #sessions = new Map<string, SessionState>();

  async append({ session, turn, key, events }: AppendRequest): Promise<AppendResult> {
    const state = this.#session(session);
    const previous = state.appends.get(key);
    if (previous !== undefined) return { ...previous, replayed: true };
    if (state.turn !== turn) throw new SessionBusyError(session, state.turn, turn);
    const firstSeq = state.events.length + 1;
    events.forEach((event, index) => {
      state.events.push(structuredClone(toStoredEvent(session, firstSeq + index, event)));
    });
    const result = { firstSeq, count: events.length, replayed: false };
    state.appends.set(key, result);
    return result;
  }

  async read(session: string, options: { afterSeq?: number } = {}): Promise<StoredEvent[]> {
    const events = this.#sessions.get(session)?.events ?? [];
    return structuredClone(events.slice(options.afterSeq ?? 0));
  }

  async acquireTurn(session: string, turn: string): Promise<void> {
    const state = this.#session(session);
    if (state.turn !== undefined && state.turn !== turn)
      throw new SessionBusyError(session, state.turn, turn);
    state.turn = turn;
  }

  async releaseTurn(session: string, turn: string): Promise<void> {
    const state = this.#sessions.get(session);
    if (state?.turn === turn) delete state.turn;
  }

  #session(session: string): SessionState {
    let state = this.#sessions.get(session);
    if (state === undefined) {
      state = { events: [], appends: new Map() };
      this.#sessions.set(session, state);
    }
    return state;
  }
}
