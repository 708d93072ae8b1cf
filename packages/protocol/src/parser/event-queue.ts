import type { ParsedEvent } from './parsed-event.js';

const NO_EVENTS: readonly ParsedEvent[] = Object.freeze([]);

/** The events a sink has produced and not yet handed out. */
export class EventQueue {
  #events: ParsedEvent[] = [];

  push(event: ParsedEvent): void {
    this.#events.push(event);
  }

  /** Queues many events; never spread as arguments, which overflows the stack past ~100k. */
  pushAll(events: readonly ParsedEvent[]): void {
    for (const event of events) this.#events.push(event);
  }

  /** Hands out the queued events; most chunks complete none, so that case allocates nothing. */
  take(): readonly ParsedEvent[] {
    if (this.#events.length === 0) return NO_EVENTS;
    const events = this.#events;
    this.#events = [];
    return events;
  }
}
