import type { ParsedEvent } from '@agentstep/protocol';

/** One parsed event as a JSON line in the spec's wire shape, stamped with `timestamp` in seconds. */
export function wireLine(event: ParsedEvent, nowMs: number): string {
  return `${JSON.stringify({ ...event, timestamp: nowMs / 1000 })}\n`;
}
