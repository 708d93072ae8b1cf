import type { TurnResult } from '@agentstep/protocol';
import { type TurnEvents, turnEventEntry } from '@agentstep/runtime';

/** One event a state machine published (`events:putEvents`), as EventBridge would receive it. */
export interface PublishedEvent {
  source: string;
  detailType: string;
  detail: unknown;
  /** The bus it was sent to: `default` unless the entry named one. */
  eventBusName: string;
}

/** A `PutEvents` entry as a task's parameters hold it. */
interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: unknown;
  EventBusName?: string;
}

/** How many published events the bus keeps for `events` (listeners hear every one). */
const MAX_KEPT_EVENTS = 1_000;

/**
 * The local stand-in for EventBridge: the events the engine's `events:putEvents` tasks publish are
 * kept here, in order, and handed to whoever listens (`agentstep invoke --events` prints them).
 * Turns closed outside the state machine are announced here too ({@link TurnEvents}).
 */
export class LocalEventBus implements TurnEvents {
  readonly #events: PublishedEvent[] = [];
  readonly #listeners = new Set<(event: PublishedEvent) => void>();
  /** How many events were ever published: each gets its own id. */
  #published = 0;

  /** The events published so far (the newest 1,000), oldest first. */
  get events(): readonly PublishedEvent[] {
    return this.#events;
  }

  /** Calls `listener` with each event published from now on; returns how to stop. */
  listen(listener: (event: PublishedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async publish(result: TurnResult): Promise<void> {
    await this.putEvents({ Entries: [turnEventEntry(result)] });
  }

  /** The task's `PutEvents`: keeps its entries and answers as EventBridge does. */
  async putEvents(parameters: { Entries?: PutEventsEntry[] }) {
    const entries = parameters.Entries ?? [];
    for (const entry of entries) {
      const event: PublishedEvent = {
        source: entry.Source ?? '',
        detailType: entry.DetailType ?? '',
        detail: typeof entry.Detail === 'string' ? JSON.parse(entry.Detail) : entry.Detail,
        eventBusName: entry.EventBusName ?? 'default',
      };
      this.#published++;
      this.#events.push(event);
      // A long-lived server publishes without end: only the newest events are kept.
      if (this.#events.length > MAX_KEPT_EVENTS) this.#events.shift();
      for (const listener of this.#listeners) listener(event);
    }
    return {
      Entries: entries.map((_, index) => ({
        EventId: `local-${this.#published - entries.length + index}`,
      })),
      FailedEntryCount: 0,
    };
  }
}
