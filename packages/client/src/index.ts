export type { FieldProblem } from '@agentstep/protocol';
export { AgentStepClient, type ClientOptions } from './agentstep-client.js';
export type {
  ApprovalDecided,
  ApprovalDecision,
  ApprovalsList,
  EventsPage,
  EventsQuery,
  GateDecided,
  GateDecision,
  LoggedEvent,
  PendingApproval,
  SessionSummary,
  TurnAccepted,
  TurnOptions,
  TurnRequest,
  WorkflowAccepted,
  WorkflowGate,
  WorkflowGoalOutput,
  WorkflowRequest,
  WorkflowRunStatus,
  WorkflowRunSummary,
} from './api-shapes.js';
export { AgentStepApiError, StreamDroppedError } from './errors.js';
export type { StreamOptions } from './follow-stream.js';
export type { StreamDone, StreamEvent, StreamItem } from './stream-item.js';
