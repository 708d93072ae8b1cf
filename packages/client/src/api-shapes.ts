export type {
  ApprovalDecided,
  ApprovalDecisionBody as ApprovalDecision,
  ApprovalsList,
  EventsPage,
  ForkBody as ForkRequest,
  GateDecided,
  GateDecisionBody as GateDecision,
  LoggedEvent,
  PendingApproval,
  SessionForked,
  SessionListItem,
  SessionSummary,
  SessionsList,
  ToolDescription,
  ToolsList,
  TurnAccepted,
  TurnBody as TurnRequest,
  TurnQueued,
  TurnWithdrawn,
  WorkflowAccepted,
  WorkflowGate,
  WorkflowGoalOutput,
  WorkflowRunListItem,
  WorkflowRunStatus,
  WorkflowRunSummary,
  WorkflowRunsList,
  WorkflowStartBody as WorkflowRequest,
} from '@agentstep/protocol';

import type { TurnEndStatus } from '@agentstep/protocol';

/** How a turn is requested. */
export interface TurnOptions {
  /** A retried request with the same key gets the first answer and starts nothing. */
  idempotencyKey?: string;
}

/** Which page of the log to read. */
export interface EventsQuery {
  /** Events after this `seq`. @default 0, the start */
  after?: number;
  /** At most this many (1–1000). @default 100 */
  limit?: number;
}

/** Which page of a list to read. */
export interface ListQuery {
  /** Items after this one: the previous page's `next`. @default the first page */
  after?: string;
  /** At most this many (1–100). @default 50 */
  limit?: number;
}

/** Which sessions to list: each field given narrows the list. */
export interface SessionsQuery extends ListQuery {
  /** Only sessions whose id or title holds this text, ignoring case (at most 200 characters). @default every session */
  q?: string;
  /** Only sessions with this status. @default every status */
  status?: 'idle' | 'running' | 'waiting';
  /** Only sessions whose last ended turn ended so: `failed` finds the failed ones. @default however it ended */
  lastTurn?: TurnEndStatus;
  /** Only sessions created at or after this ISO 8601 date (midnight UTC) or date-time with its offset. @default since the first */
  createdAfter?: string;
  /** Only sessions created before this ISO 8601 date or date-time. @default until now */
  createdBefore?: string;
}
