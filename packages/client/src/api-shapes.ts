export type {
  ApprovalDecided,
  ApprovalDecisionBody as ApprovalDecision,
  ApprovalsList,
  EventsPage,
  GateDecided,
  GateDecisionBody as GateDecision,
  LoggedEvent,
  PendingApproval,
  SessionSummary,
  TurnAccepted,
  TurnBody as TurnRequest,
  WorkflowAccepted,
  WorkflowGate,
  WorkflowGoalOutput,
  WorkflowRunStatus,
  WorkflowRunSummary,
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
