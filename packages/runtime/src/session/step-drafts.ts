/**
 * One part of a model step's streamed text, as written while the model streams: the chunks
 * streamed since the previous part, coalesced. A preview only; the logged step stays the truth.
 */
export interface StepDraft {
  session: string;
  /** The session's model step index (from 0). */
  step: number;
  /** The part's place in its step, from 0. */
  part: number;
  /** The session log's last seq as the step began: the step's own events come after it. */
  afterSeq: number;
  text: string;
}

/** Where a step's parts stand in a session's drafts: after the latest step's, or after a part. */
export type DraftPosition = Pick<StepDraft, 'step' | 'part'>;

/** Where model steps leave their streamed text for readers in other processes. */
export interface StepDrafts {
  /** Stores one part. */
  put(draft: StepDraft): Promise<void>;
  /** Every part of `session`'s latest step, in order (none when it has none). */
  latest(session: string): Promise<StepDraft[]>;
  /** Every part of `session` written after `position` (from the first without it), in order. */
  after(session: string, position?: DraftPosition): Promise<StepDraft[]>;
}
