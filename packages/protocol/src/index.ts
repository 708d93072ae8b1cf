export { defineWorkflow } from './agentfile/define-workflow.js';
export { type AgentfileProblem, formatAgentfileProblem } from './agentfile/format-agentfile-problem.js';
export { InvalidWorkflowError } from './agentfile/invalid-workflow-error.js';
export {
  type ParseAgentfileOptions,
  type ParsedAgentfile,
  parseAgentfile,
} from './agentfile/parse-agentfile.js';
export type { ReadAgentfileFile } from './agentfile/parse-state.js';
export { type ParsedWorkflowSpec, parseWorkflowSpec } from './agentfile/parse-workflow-spec.js';
export {
  WORKFLOW_IDENTIFIER,
  type WorkflowAgent,
  type WorkflowGoal,
  type WorkflowInput,
  type WorkflowLoopStep,
  type WorkflowRunStep,
  type WorkflowSpec,
  type WorkflowStep,
  type WorkflowSupervision,
  type WorkflowWithin,
  workflowSpecSchema,
} from './agentfile/workflow-spec.js';
export {
  type CallOutcome,
  type ErrorBody,
  type EventsPage,
  type FieldProblem,
  type ForkBody,
  type ForkedFrom,
  forkBodySchema,
  type IfBusy,
  ifBusySchema,
  type LoggedEvent,
  loggedEvent,
  type QueueChange,
  type QueuedTurn,
  type SessionForked,
  type SessionListItem,
  type SessionSummary,
  type SessionsList,
  type TurnAccepted,
  type TurnBody,
  type TurnCancelled,
  type TurnQueued,
  type TurnWithdrawn,
  turnBodySchema,
} from './api/api-shapes.js';
export {
  type ApprovalDecided,
  type ApprovalDecisionBody,
  type ApprovalsList,
  approvalDecisionBodySchema,
  type PendingApproval,
  pendingApproval,
  type ToolsList,
} from './api/approval-shapes.js';
export { corsOriginProblem } from './api/cors-origin-problem.js';
export { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS } from './api/cors-preflight.js';
export { fieldProblems } from './api/field-problems.js';
export {
  type GateDecided,
  type GateDecisionBody,
  gateDecisionBodySchema,
  type WorkflowAccepted,
  type WorkflowGate,
  type WorkflowGoalOutput,
  type WorkflowRunListItem,
  type WorkflowRunStatus,
  type WorkflowRunSummary,
  type WorkflowRunsList,
  type WorkflowStartBody,
  workflowStartBodySchema,
} from './api/workflow-shapes.js';
export {
  type ApprovalSettlement,
  approvalId,
  approvalSettlementSchema,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  SETTLED_APPROVAL_STATUSES,
  type SettledApprovalStatus,
} from './approvals/approval-payloads.js';
export {
  type ApprovalRecord,
  approvalWaitMs,
  pendingApprovals,
  sessionApprovals,
} from './approvals/session-approvals.js';
export { blockJson } from './context/block-json.js';
export { type BuildMessagesOptions, buildMessages, renderMessages } from './context/build-messages.js';
export { capContent, DEFAULT_MAX_RESULT_BYTES } from './context/cap-content.js';
export {
  type CompactedView,
  type Compaction,
  compactedView,
  summaryMessage,
} from './context/compacted-view.js';
export { compactionCuts } from './context/compaction-cuts.js';
export {
  type ContextSettings,
  contextSettingsSchema,
  DEFAULT_COMPACT_AT,
  MIN_WINDOW_TOKENS,
} from './context/context-settings.js';
export { CONTEXT_WINDOWS, contextWindowOf } from './context/context-windows.js';
export {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTokens,
} from './context/estimate-tokens.js';
export type { ModelMessage } from './context/model-message.js';
export { deepFreeze } from './deep-freeze.js';
export { ERROR_NAMES, type ErrorName } from './error-names.js';
export { forkPoints, nearestForkPoints } from './events/fork-points.js';
export { elementName, rememberCall, storedCall, storedCallName } from './events/stored-call.js';
export {
  isPersistedType,
  PERSISTED_EVENT_TYPES,
  type PersistedEvent,
  type PersistedEventType,
  persistedEventSchema,
  type StoredEvent,
  storedEventSchema,
} from './events/stored-event.js';
export {
  APPROVAL_STATUSES,
  type ApprovalStatus,
  approvalEventSchema,
  COMPACTION_STRATEGIES,
  type CompactionStrategy,
  callEventSchema,
  cancelledEventSchema,
  compactedEventSchema,
  type EventType,
  endEventSchema,
  errorEventSchema,
  executeEventSchema,
  interruptEventSchema,
  metricEventSchema,
  metricPayloadSchema,
  respondEventSchema,
  resultEventSchema,
  resultPayloadSchema,
  TURN_END_STATUSES,
  type TurnEndStatus,
  thinkEventSchema,
  tokenUsageSchema,
  turnEndEventSchema,
  turnStartEventSchema,
  userEventSchema,
  type WireEvent,
  type WireEventOf,
  wireEventSchema,
} from './events/wire-event.js';
export { BATCH_CAPS } from './parser/batch-caps.js';
export {
  createParser,
  createPositionTracker,
  type ParserOptions,
  type ParserPosition,
  type PositionTracker,
  type StreamingParser,
} from './parser/create-parser.js';
export { parse } from './parser/parse.js';
export {
  type BatchElement,
  checkCall,
  type ParsedBatch,
  type ParsedCall,
  parseBatch,
} from './parser/parse-batch.js';
export type { ParsedEvent, ParseMode } from './parser/parsed-event.js';
export { STEP_CAPS } from './parser/step-caps.js';
export { StepEventCap } from './parser/step-event-cap.js';
export { StepOutputCap } from './parser/step-output-cap.js';
export {
  API_AUTH_MODES,
  type ApiAuthMode,
  ENV_NAMES,
  TRACES_TO_CLOUDWATCH,
  UNNAMED_AGENT,
} from './payloads/env-names.js';
export {
  MAX_ANSWER_CHARS,
  MAX_REQUEST_ID_LENGTH,
  TURN_EVENT_SOURCE,
  TURN_EVENT_TYPES,
  type TurnRequest,
  type TurnResult,
  turnRequestSchema,
  turnResultSchema,
  turnUsageSchema,
  WORKFLOW_EVENT_TYPES,
} from './payloads/execution-contract.js';
export { APPROVAL_CALL_WEIGHT, historyNearlyFull } from './payloads/history-budget.js';
export {
  MODEL_PROVIDERS,
  type ModelProfiles,
  type ModelProvider,
  modelChoiceAmong,
  modelChoiceSchema,
  modelProfilesSchema,
  providerModel,
  SCRIPTED_MODEL,
} from './payloads/model-choice.js';
export {
  isSessionId,
  MAX_SESSION_ID_LENGTH,
  SESSION_ID_RULE,
  sessionIdSchema,
} from './payloads/session-id.js';
export { STACK_OUTPUTS } from './payloads/stack-outputs.js';
export { MODEL_STEP_STATES, STATE_NAMES } from './payloads/state-names.js';
export {
  type AdvanceTurnInput,
  type AdvanceTurnOutput,
  type AwaitApprovalInput,
  advanceTurnInputSchema,
  advanceTurnOutputSchema,
  awaitApprovalInputSchema,
  type Budget,
  budgetSchema,
  type CallItem,
  type CallResult,
  type CaughtError,
  type ClosedBatch,
  callItemSchema,
  callResultSchema,
  caughtErrorSchema,
  closedBatchSchema,
  DEFAULT_RUNAWAY_LIMITS,
  DEFAULT_TURN_LIMITS,
  type DescribeTurnInput,
  describeTurnInputSchema,
  type ExpireApprovalInput,
  expireApprovalInputSchema,
  type FailTurnInput,
  type FinishTurnInput,
  failTurnInputSchema,
  finishTurnInputSchema,
  INLINE_CALL_BYTES,
  INLINE_CALLS_BYTES,
  INLINE_OUTCOME_BYTES,
  INLINE_OUTCOMES_BYTES,
  type InvokeToolInput,
  invokeToolInputSchema,
  type LoopState,
  loopStateSchema,
  type ModelStepOutput,
  modelStepOutputSchema,
  NEXT,
  type RecordToolFailureInput,
  type Requester,
  type RunawayLimits,
  recordToolFailureInputSchema,
  requesterSchema,
  runawayLimitsSchema,
  type StartTurnInput,
  startTurnInputSchema,
  type TurnInput,
  type TurnLimits,
  type TurnOutput,
  toolExecutionSchema,
  turnInputSchema,
  turnLimitsSchema,
  turnOutputSchema,
} from './payloads/step-payloads.js';
export {
  STOPPED_EXECUTION_STATUSES,
  type StoppedExecution,
  stoppedExecutionSchema,
} from './payloads/stopped-execution.js';
export { exampleArgs } from './prompt/example-args.js';
export { renderSystemPrompt, type SystemPromptOptions } from './prompt/render-system-prompt.js';
export { describeTool, type ToolDescription, toolDescriptionSchema } from './prompt/tool-description.js';
export { resultEvent, type UnstampedResultEvent } from './results/result-event.js';
export { BATCH_TOOL_NAME, type ToolOutcome, toolOutcomeSchema } from './results/tool-outcome.js';
export { costBudgetUnpriced } from './usage/cost-budget-unpriced.js';
export { DEFAULT_PRICES, priceOf } from './usage/price-table.js';
export {
  type ModelPrice,
  modelPriceSchema,
  type PriceTable,
  priceTableSchema,
} from './usage/price-table-schema.js';
export { tenantCeilingSchema } from './usage/tenant-ceiling.js';
export { escapeXml } from './workflow-context/escape-xml.js';
export { fieldText } from './workflow-context/field-text.js';
export { firstJsonObject } from './workflow-context/first-json-object.js';
export { type GoalDocumentInput, renderGoalDocument } from './workflow-context/goal-document.js';
export { interpolate } from './workflow-context/interpolate.js';
export { renderContext } from './workflow-context/render-context.js';
export {
  type ConvergenceIteration,
  type CurrentGoal,
  convergenceIterationSchema,
  currentGoalSchema,
  type PriorCompletion,
  priorCompletionSchema,
  type RenderContextInput,
  renderContextInputSchema,
  type TaskAssignment,
  taskAssignmentSchema,
  type WorkflowCorrection,
  workflowCorrectionSchema,
} from './workflow-context/render-input.js';
export { renderTaskDocument, type TaskDocumentInput } from './workflow-context/task-document.js';
export { renderVariables } from './workflow-context/variables.js';
export {
  GATE_STATUSES,
  type GateStatus,
  GOAL_PHASES,
  type GoalPhase,
  VERDICTS,
  WORKFLOW_END_STATUSES,
  type WorkflowRecord,
  type WorkflowRecordOf,
  workflowEventSchema,
  workflowRecordSchema,
} from './workflows/workflow-event.js';
export {
  type AdvanceWorkflowInput,
  type AwaitGateInput,
  advanceWorkflowInputSchema,
  awaitGateInputSchema,
  type GoalTurn,
  goalTurnSchema,
  WORKFLOW_NEXT,
  WORKFLOW_STATE_NAMES,
  type WorkflowExecutionInput,
  type WorkflowState,
  workflowExecutionInputSchema,
  workflowStateSchema,
} from './workflows/workflow-payloads.js';
export {
  GOAL_SESSION_SEPARATOR,
  goalSessionId,
  runOfGoalSession,
  WORKFLOW_RUN_ID_RULE,
  workflowRunIdSchema,
} from './workflows/workflow-run-id.js';
