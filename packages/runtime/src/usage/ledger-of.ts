import type { Appended } from '../event-log/event-log.js';
import { MODEL_STEP_KEY_PREFIX } from './model-step-key.js';
import { type StepUsage, stepUsageSchema } from './step-usage.js';

/** A model step's append as a ledger reads it: what it left, under which key. */
export type KeyedAppend = Appended & { key: string };

/**
 * The ledger a session's model-step appends make: one entry per append with a note, its session
 * and batch from the key (unless the note names its batch, as a compaction's does), in log order
 * (a step's appends never share a seq with another's).
 */
export function ledgerOf(session: string, appends: readonly KeyedAppend[]): StepUsage[] {
  return appends
    .filter((append) => append.note !== undefined)
    .sort((a, b) => a.firstSeq - b.firstSeq)
    .map((append) =>
      stepUsageSchema.parse({
        batch: append.key.slice(MODEL_STEP_KEY_PREFIX.length),
        ...append.note,
        session,
      }),
    );
}
