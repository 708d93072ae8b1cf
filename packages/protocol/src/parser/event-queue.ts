import type { ParsedEvent } from './parsed-event.js';

const NO_EVENTS: readonly ParsedEvent[] = Object.freeze([]);

/** The events a sink has produced and not yet handed out. */
export class EventQueue {
  #events: ParsedEvent[] = [];

  push(...events: ParsedEvent[]): void {
    this.#events.push(...events);
  }

  /** Hands out the queued events; most chunks complete none, so that case allocates nothing. */
  take(): readonly ParsedEvent[] {
    if (this.#events.length === 0) return NO_EVENTS;
    const events = this.#events;
    this.#events = [];
    return events;
  }
}
