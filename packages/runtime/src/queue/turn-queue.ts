import type { TurnInput } from '@agentstep/protocol';

/**
 * A message that arrived while a turn ran (`ifBusy: "enqueue"` or `"interrupt"`): it starts its
 * own turn, under the id it was given when queued, once the session is free.
 */
export interface QueuedMessage {
  /** The turn this message starts: fixed when it is queued, so a retried start starts it once. */
  turn: string;
  prompt: string;
  /** The turn's limits, budget, tool execution and requester, as its execution's input will carry them. */
  limits?: Omit<TurnInput, 'session' | 'turn'>;
  /** When it was queued, in ms since the epoch. */
  queuedAt: number;
  /** A host is starting its turn: it can no longer be withdrawn. */
  claimed?: boolean;
}

/** Where a message goes in its session's queue: after the others (`enqueue`), or before them (`interrupt`). */
export type QueuePlace = 'last' | 'first';

/**
 * Each session's durable queue of messages waiting for the running turn to end, in start order
 * (decision 0033). A message can be withdrawn until a host claims it to start its turn.
 */
export interface TurnQueue {
  /**
   * Adds `message` to `session`'s queue and answers its 1-based position in start order. A turn is
   * queued once, however often (or however concurrently) it is added: adding it again changes
   * nothing and answers its position, or 0 once it has left the queue (started or withdrawn).
   */
  enqueue(session: string, message: QueuedMessage, place?: QueuePlace): Promise<number>;
  /** The session's queued messages, claimed or not, in start order. */
  list(session: string): Promise<QueuedMessage[]>;
  /** Removes a queued message no host has claimed; false when it is not (unknown, claimed or started). */
  withdraw(session: string, turn: string): Promise<boolean>;
  /** Claims a queued message for starting its turn (it can no longer be withdrawn); false when it is gone. */
  claim(session: string, turn: string): Promise<boolean>;
  /** Removes a message whose turn has started (or could not start). */
  remove(session: string, turn: string): Promise<void>;
  /** The sessions that have queued messages, for a host that starts to look at once. */
  sessions(): Promise<string[]>;
}
