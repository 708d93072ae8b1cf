const SEQ_DIGITS = 12;

/** Sort keys of the items one session owns in the event-log table. */
export const sortKeys = {
  /** The session head: next free seq and the turn that holds the session. */
  head: 'head',
  /** Where a model step's context starts since the latest compaction (decision 0039). */
  contextStart: 'context',
  /** One event. Zero-padded so string order is seq order. */
  event: (seq: number) => `e#${String(seq).padStart(SEQ_DIGITS, '0')}`,
  /** The marker of one part of one idempotent append. */
  append: (key: string, part: number) => `a#${key}#${part}`,
  /** The prefix of the markers of every append whose key starts with `keyPrefix`. */
  appendPrefix: (keyPrefix: string) => `a#${keyPrefix}`,
  /** The prefix of one batch's call outcomes. */
  outcomePrefix: (batch: string) => `o#${batch}#`,
  /** One call's outcome. Zero-padded so string order is position order. */
  outcome: (batch: string, position: number) => `o#${batch}#${String(position).padStart(6, '0')}`,
  /** The marker that a non-idempotent call's run started (decision 0031). */
  started: (batch: string, position: number) => `r#${batch}#${String(position).padStart(6, '0')}`,
  /** A queued message (decision 0033): interrupting ones (`first`) sort before the others, then by time queued. */
  queued: (place: 'first' | 'last', queuedAt: number, turn: string) =>
    `q#${place === 'first' ? 0 : 1}#${String(queuedAt).padStart(15, '0')}#${turn}`,
  /** The prefix of a session's queued messages. */
  queuedPrefix: 'q#',
  /** The mark that a turn was queued, kept after it leaves the queue: a turn is queued once. */
  queuedOnce: (turn: string) => `qt#${turn}`,
  /** The task token of the call waiting on one approval. */
  taskToken: (approval: string) => `t#${approval}`,
  /** The prefix of one content-addressed body's chunks. */
  chunkPrefix: (hash: string) => `c#${hash}#`,
  /** One chunk of a content-addressed body. */
  chunk: (hash: string, index: number) => `c#${hash}#${String(index).padStart(6, '0')}`,
  /** One part of a model step's streamed text, until the table's TTL removes it. Zero-padded: key order is write order. */
  draft: (step: number, part: number) =>
    `d#${String(step).padStart(6, '0')}#${String(part).padStart(6, '0')}`,
  /** The prefix of every draft of a session, or of one step's. */
  draftPrefix: (step?: number) => (step === undefined ? 'd#' : `d#${String(step).padStart(6, '0')}#`),
} as const;

/** The highest event sort key, for reading to the end of a log. */
export const LAST_EVENT_KEY = sortKeys.event(10 ** SEQ_DIGITS - 1);
