import * as z from 'zod';
import type { PersistedEvent, StoredEvent } from '../events/stored-event.js';
import type { TurnEndStatus } from '../events/wire-event.js';
import { sessionIdSchema } from '../payloads/session-id.js';
import { budgetSchema, toolExecutionSchema, turnLimitsSchema } from '../payloads/step-payloads.js';
import type { ToolOutcome } from '../results/tool-outcome.js';

/**
 * What a message does when a turn of its session is running: refused (`reject`, `409
 * SessionBusy`), queued to start its own turn once the running one ends (`enqueue`), or started at
 * once after the running turn is cancelled (`interrupt`).
 */
export const ifBusySchema = z.enum(['reject', 'enqueue', 'interrupt']);

/** One of {@link ifBusySchema}'s choices. */
export type IfBusy = z.infer<typeof ifBusySchema>;

/**
 * The body of `POST /sessions` and `POST /sessions/{id}/messages`: the user's message and,
 * optionally, the turn's step limit, the session's budget, how batches run and what to do while a
 * turn runs (`ifBusy`, default `reject`).
 */
export const turnBodySchema = z
  .object({
    message: z.string().min(1, 'must not be empty'),
    maxSteps: turnLimitsSchema.shape.maxSteps.optional(),
    budget: budgetSchema.optional(),
    toolExecution: toolExecutionSchema.optional(),
    ifBusy: ifBusySchema.optional(),
  })
  .strict();

/** A turn's request body. */
export type TurnBody = z.infer<typeof turnBodySchema>;

/** The answer to a started turn: it runs; follow it on the session's stream. */
export interface TurnAccepted {
  session: string;
  turn: string;
  status: 'running';
}

/**
 * The body of `POST /sessions/{id}/fork`: the seq to fork at (a turn's end or a batch's results)
 * and, optionally, the new session's id.
 */
export const forkBodySchema = z
  .object({
    at: z.number().int().min(1, 'must be a seq of the session (1 or more)'),
    session: sessionIdSchema.optional(),
  })
  .strict();

/** A fork's request body. */
export type ForkBody = z.infer<typeof forkBodySchema>;

/** Where a forked session's log came from: the session it was forked from and the last seq it shares. */
export interface ForkedFrom {
  session: string;
  seq: number;
}

/** The answer to `POST /sessions/{id}/fork`: the new session, idle, and where its log came from. */
export interface SessionForked {
  session: string;
  forkedFrom: ForkedFrom;
}

/** The answer to a message queued behind the running turn (`ifBusy: "enqueue"`): its turn and place in line (1: next). */
export interface TurnQueued {
  session: string;
  turn: string;
  status: 'queued';
  position: number;
}

/** A message waiting for its turn, as `GET /sessions/{id}` lists it. */
export interface QueuedTurn {
  turn: string;
  message: string;
  /** 1: the next to start. */
  position: number;
  /** When it was queued (ISO 8601). */
  queuedAt: string;
}

/**
 * What a session's stream says of its queue, in frames without ids (they are not log entries): a
 * message queued (its place in line), its turn started (`messageSeq`: the seq of its `user` event),
 * or it was withdrawn.
 */
export type QueueChange =
  | { type: 'turn_queued'; turn: string; position: number; message: string }
  | { type: 'turn_started'; turn: string; messageSeq: number }
  | { type: 'turn_withdrawn'; turn: string };

/**
 * A call's outcome as a session's stream sends it while its batch still waits for other calls (a
 * frame without an id: not a log entry): the item the batch's `result` will hold at `position`, and
 * how long the call ran (ms) when it ran. The `result` is still what is final.
 */
export type CallOutcome = ToolOutcome & {
  type: 'call_outcome';
  /** The batch (model step) of the call. */
  batch: string;
  /** The call's place in its batch, from 0. */
  position: number;
  ms?: number;
};

/** The answer to `DELETE /sessions/{id}/queue/{turn}`: the queued message will not start. */
export interface TurnWithdrawn {
  session: string;
  turn: string;
  status: 'withdrawn';
}

/** The answer to `POST /sessions/{id}/cancel`: the turn that was stopped. */
export interface TurnCancelled {
  session: string;
  turn: string;
  status: 'cancelled';
}

/** `GET /sessions/{id}`: where a session's turns stand and what it has spent. */
export interface SessionSummary {
  session: string;
  /**
   * The session's first message, trimmed, its whitespace collapsed and cut at 80 characters (the
   * last one then `…`); `null` while it has none.
   */
  title: string | null;
  /** `running` while a turn has not ended; `waiting` while it waits for a person to decide a call. */
  status: 'idle' | 'running' | 'waiting';
  /** Turns started. */
  turns: number;
  /** The `seq` of the newest logged event. */
  lastSeq: number;
  /** The last turn that ended and how (a failed one shows here); `null` until one has. */
  lastTurn: { turn: string; status: TurnEndStatus } | null;
  /**
   * The agent version each turn ran on (decision 0040), as its `turn_start` recorded it, oldest
   * first; a turn started by a runtime that records none has no entry.
   */
  versions: Array<{ turn: string; version: string }>;
  /** Tokens so far, and the estimated cost when every model used has a price. */
  usage: { input: number; output: number; costUsd?: number };
  /** The session and seq it was forked from, for a fork (its log shares theirs up to that seq). */
  forkedFrom?: ForkedFrom;
  /** The messages waiting for the running turn to end, in the order their turns will start. */
  queued: QueuedTurn[];
}

/** A session as `GET /sessions` lists it: its summary, when it was created and last changed (ISO 8601). */
export interface SessionListItem extends SessionSummary {
  createdAt: string;
  /** When its newest event was logged; `null` when it has none. */
  lastActivity: string | null;
}

/**
 * `GET /sessions`: the caller's sessions, newest first; `next` is the next page's `after`, `null`
 * on the last; `totals` adds up this page's sessions.
 */
export interface SessionsList {
  sessions: SessionListItem[];
  next: string | null;
  /** This page's sessions added up: how many, their tokens, and their cost when each one's is known. */
  totals: { sessions: number; input: number; output: number; costUsd?: number };
}

/** An event of a session's log as clients get it (API, `agentstep events --json`): the wire event and its `seq`. */
export type LoggedEvent = PersistedEvent & { seq: number };

/** A stored event as clients get it: its wire event with its `seq`, without the storage fields. */
export function loggedEvent({ seq, event }: StoredEvent): LoggedEvent {
  return { seq, ...event };
}

/** `GET /sessions/{id}/events`: a page of the log, oldest first; `next` is the next page's `after`, `null` on the last. */
export interface EventsPage {
  events: LoggedEvent[];
  next: number | null;
}

/** One problem with a request: where (`path`, dotted) and what. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Every refusal's body: `{"error": {"code", "message", "fields"?}}`. */
export interface ErrorBody {
  error: { code: string; message: string; fields?: FieldProblem[] };
}
