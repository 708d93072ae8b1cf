import type { StoredEvent } from '@agentstep/protocol';
import type { NewEvent } from './event-log.js';

/** A log entry in canonical field order, so every adapter returns byte-identical entries. */
export function toStoredEvent(
  session: string,
  seq: number,
  { event, batch, position }: NewEvent,
): StoredEvent {
  return {
    session,
    seq,
    ...(batch === undefined ? {} : { batch }),
    ...(position === undefined ? {} : { position }),
    event,
  };
}
