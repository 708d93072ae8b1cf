import {
  type BatchElement,
  type StoredEvent,
  storedCall,
  type ToolOutcome,
  toolOutcomeSchema,
  type WireEventOf,
} from '@agentstep/protocol';
import * as z from 'zod';

/** A call of a batch: its stored event, its position in the batch, and the call it holds, checked. */
export interface BatchCall {
  stored: StoredEvent & { event: WireEventOf<'call'> };
  position: number;
  element: BatchElement;
}

/**
 * A batch of a turn, read once: its calls in log order, its `result` (none when the turn ended
 * first) and that result's outcomes by position, and its approvals.
 */
export interface TurnBatch {
  id: string;
  calls: BatchCall[];
  result: WireEventOf<'result'> | undefined;
  outcomes: readonly (ToolOutcome | undefined)[];
  approvals: Array<StoredEvent & { event: WireEventOf<'approval'> }>;
}

/** The batches with calls among `events` (a turn's), in the order they were logged. */
export function turnBatches(events: readonly StoredEvent[]): TurnBatch[] {
  const batches = new Map<string, TurnBatch>();
  for (const stored of events) {
    const { event, batch: id } = stored;
    if (id === undefined) continue;
    const batch = batches.get(id) ?? { id, calls: [], result: undefined, outcomes: [], approvals: [] };
    batches.set(id, batch);
    if (event.type === 'call') {
      const position = stored.position ?? event.payload?.index ?? 0;
      batch.calls.push({
        stored: { ...stored, event },
        position,
        element: storedCall(event.content, position),
      });
    }
    if (event.type === 'approval') batch.approvals.push({ ...stored, event });
    if (event.type === 'result') {
      batch.result = event;
      batch.outcomes = outcomesOf(event);
    }
  }
  return [...batches.values()].filter(({ calls }) => calls.length > 0);
}

const outcomesSchema = z.array(toolOutcomeSchema.or(z.unknown().transform(() => undefined)));

/** A result's outcomes by position; an item that is no outcome is none, not a reason to drop the rest. */
function outcomesOf(result: WireEventOf<'result'>): readonly (ToolOutcome | undefined)[] {
  try {
    return outcomesSchema.safeParse(JSON.parse(result.content)).data ?? [];
  } catch {
    return [];
  }
}
