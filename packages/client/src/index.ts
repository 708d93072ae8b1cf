export type { CallOutcome, FieldProblem, QueueChange } from '@agentstep/protocol';
export { AgentStepClient, type ClientOptions } from './agentstep-client.js';
export type {
  ApprovalDecided,
  ApprovalDecision,
  ApprovalsList,
  EventsPage,
  EventsQuery,
  ForkRequest,
  GateDecided,
  GateDecision,
  ListQuery,
  LoggedEvent,
  PendingApproval,
  SessionForked,
  SessionListItem,
  SessionSummary,
  SessionsList,
  SessionsQuery,
  ToolDescription,
  TurnAccepted,
  TurnOptions,
  TurnQueued,
  TurnRequest,
  TurnWithdrawn,
  WorkflowAccepted,
  WorkflowGate,
  WorkflowGoalOutput,
  WorkflowRequest,
  WorkflowRunListItem,
  WorkflowRunStatus,
  WorkflowRunSummary,
  WorkflowRunsList,
} from './api-shapes.js';
export { AgentStepApiError, StreamDroppedError } from './errors.js';
export type { StreamOptions } from './follow-stream.js';
export type { StreamDone, StreamEvent, StreamItem, StreamText } from './stream-item.js';
