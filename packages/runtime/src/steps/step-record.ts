import type { ParsedEvent } from '@agentstep/protocol';
import type { NewEvent } from '../event-log/event-log.js';

/** A model step's output as it is stored (docs/decisions/0002). */
export interface StepRecord {
  events: NewEvent[];
  /** The reason an `<execute>` body had no positions (A6), if it had none. */
  batchFailure?: string;
}

/**
 * Turns a step's parsed events into log entries: `think` and `respond` with the batch id, each
 * call, valid or not, as a `call` at its position (an invalid element keeps what the model wrote,
 * so rebuilt calls and results stay aligned), and a body-level error as `batchFailure`.
 */
export function stepRecord(parsed: readonly ParsedEvent[], batch: string, timestamp: number): StepRecord {
  const record: StepRecord = { events: [] };
  const call = (index: number, content: string): NewEvent => ({
    batch,
    position: index,
    event: { type: 'call', content, payload: { index }, timestamp },
  });
  for (const event of parsed) {
    if (event.type === 'think' || event.type === 'respond') {
      record.events.push({ batch, event: { type: event.type, content: event.content, timestamp } });
    } else if (event.type === 'call') {
      record.events.push(call(event.payload.index, event.content));
    } else if (event.type === 'error' && event.payload !== undefined) {
      record.events.push(call(event.payload.index, event.payload.element));
    } else if (event.type === 'error') {
      record.batchFailure = event.content;
    }
  }
  return record;
}
