import type { WireEventOf } from '../events/wire-event.js';
import type { ToolOutcome } from './tool-outcome.js';

/** A `result` event before the caller stamps its timestamp. */
export type UnstampedResultEvent = Omit<WireEventOf<'result'>, 'timestamp'>;

/**
 * The batch's single `result` event (B5): `content` is the JSON text of the outcomes in call order,
 * `payload` counts them and, when any is known, says how long each call ran (`durationsMs`, never
 * part of what the model reads).
 */
export function resultEvent(
  outcomes: readonly ToolOutcome[],
  durationsMs: ReadonlyArray<number | null> = [],
): UnstampedResultEvent {
  const items = outcomes.map(({ tool, status, content }) => ({ tool, status, content: content ?? null }));
  const successes = items.filter((item) => item.status === 'success').length;
  const timed = durationsMs.some((ms) => ms !== null);
  return {
    type: 'result',
    content: JSON.stringify(items),
    payload: {
      tools_executed: items.length,
      success_count: successes,
      failure_count: items.length - successes,
      ...(timed ? { durations_ms: [...durationsMs] } : {}),
    },
  };
}
