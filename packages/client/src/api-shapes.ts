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

/** Which sessions to list. */
export interface SessionsQuery extends ListQuery {
  /** Only sessions with this status. @default every status */
  status?: 'idle' | 'running' | 'waiting';
}
