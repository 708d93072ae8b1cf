import type { Budget, PersistedEvent, TurnInput } from '@agentstep/protocol';

/** What starts a turn: the user's message and, optionally, the turn's limits and the session's budget. */
export interface TurnRequest {
  message: string;
  /** Model steps the turn may take. @default the server's (50) */
  maxSteps?: number;
  /** What the session may spend before its turns stop. @default no budget */
  budget?: Budget;
  /** Run a batch's calls at once or one after another. @default 'parallel' */
  toolExecution?: NonNullable<TurnInput['toolExecution']>;
}

/** How a turn is requested. */
export interface TurnOptions {
  /** A retried request with the same key gets the first answer and starts nothing. */
  idempotencyKey?: string;
}

/** The answer to a started turn: it runs; follow it with `stream`. */
export interface TurnAccepted {
  session: string;
  turn: string;
  status: 'running';
}

/** Where a session's turns stand and what it has spent. */
export interface SessionSummary {
  session: string;
  /** `running` while a turn has not ended. */
  status: 'idle' | 'running';
  /** Turns started. */
  turns: number;
  /** The `seq` of the newest logged event. */
  lastSeq: number;
  /** Tokens so far, and the estimated cost when every model used has a price. */
  usage: { input: number; output: number; costUsd?: number };
}

/** An event of a session's log as the API sends it: the spec's wire event and its `seq`. */
export type LoggedEvent = PersistedEvent & { seq: number };

/** A page of a session's log, oldest first; `next` is the `after` of the next page, `null` on the last. */
export interface EventsPage {
  events: LoggedEvent[];
  next: number | null;
}

/** Which page of the log to read. */
export interface EventsQuery {
  /** Events after this `seq`. @default 0, the start */
  after?: number;
  /** At most this many (1–1000). @default 100 */
  limit?: number;
}
