import type { ToolOutcome } from '@agentstep/protocol';

/** A call's outcome as stored: the `<results>` item, and how long the call ran (ms) when it ran. */
export type StoredOutcome = ToolOutcome & { ms?: number };

/** Names one call: its session, its batch (model step) and its position in the batch. */
export interface CallRef {
  session: string;
  batch: string;
  position: number;
}

/**
 * Each call's outcome, stored once (B4): InvokeTool writes it, AdvanceTurn (closeBatch) reads the batch back
 * in call order. The first outcome stored for a call wins, so a re-delivered invocation can never
 * change what the log will say.
 */
export interface OutcomeStore {
  /** Stores `outcome` unless the call has one already; returns the one that is stored. */
  put(call: CallRef, outcome: StoredOutcome): Promise<StoredOutcome>;
  /** The call's stored outcome, if any. */
  get(call: CallRef): Promise<StoredOutcome | undefined>;
  /**
   * Marks the call's run as started, once: true for the delivery that marked it, false when it was
   * already marked. A non-idempotent call runs only in the delivery that marked it.
   */
  markStarted(call: CallRef): Promise<boolean>;
  /** Whether the call's run was marked started. */
  started(call: CallRef): Promise<boolean>;
  /** Outcomes of positions 0…count-1, `undefined` where none is stored yet. */
  list(session: string, batch: string, count: number): Promise<Array<StoredOutcome | undefined>>;
}
