import type { ParsedEvent } from './parsed-event.js';
import { STEP_CAPS } from './step-caps.js';

/**
 * Keeps one model step's events within {@link STEP_CAPS} (decision 0012): events in the order the
 * parser hands them out, until one more would pass the cap; then, in their place, one error
 * without a position naming the cap (as for a batch over its cap, A6), and nothing more. A batch's
 * elements come out together and are kept or dropped together, so no batch runs in part.
 */
export class StepEventCap {
  readonly #cap: number;
  #kept = 0;
  #over = false;

  /** @param cap the events a step may store; @default STEP_CAPS.events */
  constructor(cap: number = STEP_CAPS.events) {
    this.#cap = cap;
  }

  /** Whether the step passed the cap: its output is over, and nothing more is admitted. */
  get over(): boolean {
    return this.#over;
  }

  /** The events of `events` the step keeps, then the cap's error if they pass it. */
  admit(events: readonly ParsedEvent[]): ParsedEvent[] {
    const kept: ParsedEvent[] = [];
    let at = 0;
    while (at < events.length && !this.#over) {
      const end = unitEnd(events, at);
      const stored = isElement(events[at]) ? end - at : isText(events[at]) ? 1 : 0;
      if (this.#kept + stored > this.#cap) {
        this.#over = true;
        kept.push({ type: 'error', content: capMessage(this.#cap, this.#kept) });
      } else {
        this.#kept += stored;
        for (; at < end; at++) kept.push(events[at] as ParsedEvent);
      }
    }
    return kept;
  }
}

/** A thought or a prose fragment: stored, one event each. */
function isText(event: ParsedEvent | undefined): boolean {
  return event?.type === 'think' || event?.type === 'respond';
}

/** An element of a batch: a call, or an invalid element, which is stored as a call (decision 0002). */
function isElement(event: ParsedEvent | undefined): boolean {
  return event?.type === 'call' || (event?.type === 'error' && event.payload !== undefined);
}

/** Where the unit starting at `at` ends: after a batch's last element, else after the one event. */
function unitEnd(events: readonly ParsedEvent[], at: number): number {
  let end = at + 1;
  if (isElement(events[at])) while (isElement(events[end])) end++;
  return end;
}

function capMessage(cap: number, kept: number): string {
  return `This step wrote more than ${cap} thoughts, prose fragments and calls, the protocol's cap per model step: the first ${kept} were kept and the rest dropped, so no call of this step ran. Write fewer, longer <think> blocks and prose fragments, and make your calls in the next step.`;
}
