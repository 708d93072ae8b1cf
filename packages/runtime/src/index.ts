// The core: ports, in-memory adapters, scripted models, tools and use cases. Nothing here loads a
// provider SDK, the http tool, middy, Powertools or an AWS SDK client: those sit behind subpaths.

export {
  agentVersionInputs,
  type VersionedSettings,
  versionedTool,
} from './agent/agent-version-inputs.js';
export {
  type Agent,
  type AgentDefinition,
  agentDefinitionSchema,
  checkedAgent,
  defineAgent,
  InvalidAgentError,
} from './agent/define-agent.js';
export { moduleDefault } from './agent/module-default.js';
export {
  type ApprovalRules,
  approvalTimeoutMs,
  needsApproval,
} from './approvals/approval-rules.js';
export {
  type ApprovalTokenStore,
  InMemoryApprovalTokenStore,
} from './approvals/approval-token-store.js';
export { type AwaitApprovalDeps, awaitApproval } from './approvals/await-approval.js';
export type { WakeDeps } from './approvals/cancel-waiting-approvals.js';
export {
  ApprovalArgsInvalidError,
  type DecideApprovalDeps,
  decideApproval,
} from './approvals/decide-approval.js';
export { expireApproval } from './approvals/expire-approval.js';
export type { TaskTokens } from './approvals/task-tokens.js';
export { type Clock, systemClock } from './clock/clock.js';
export { ContextCache } from './context/context-cache.js';
export { type ContextOptions, contextOptions } from './context/context-options.js';
export { windowOf } from './context/context-window.js';
export {
  AlreadyDecidedError,
  AppendConflictError,
  ApprovalNotFoundError,
  ApprovalRequiredError,
  ApprovalSettledError,
  CallNotFoundError,
  ContextOverflowError,
  EmptyModelOutputError,
  GateAnsweredError,
  GateNotFoundError,
  GateSettledError,
  InvalidForkPointError,
  InvalidToolError,
  InvalidTurnRequestError,
  InvalidWorkflowInputError,
  NoTurnRunningError,
  type OverflowSizes,
  SessionBusyError,
  SessionExistsError,
  StoreUnavailableError,
  UnknownModelProfileError,
  WorkflowNotFoundError,
  WorkflowSessionError,
} from './errors.js';
export { CachedEventLog, type CachedEventLogOptions } from './event-log/cached-event-log.js';
export {
  type Appended,
  type AppendNote,
  type AppendRequest,
  type AppendResult,
  DEFAULT_LEASE_MS,
  type EventLog,
  type ForkOptions,
  type ForkOrigin,
  type LeaseOptions,
  type LeaseTaken,
  type NewEvent,
} from './event-log/event-log.js';
export { eventLogWith } from './event-log/event-log-with.js';
export { InMemoryEventLog } from './event-log/in-memory-event-log.js';
export { type AnnounceDeps, announceTurnEnd } from './events/announce-turn-end.js';
export { InMemoryTurnEvents } from './events/in-memory-turn-events.js';
export { type TurnEvents, turnEventEntry } from './events/turn-events.js';
export { inMemoryStores } from './in-memory-stores.js';
export {
  continueAtStops,
  MAX_CONTINUATIONS,
  type ProviderRequest,
  type RequestEnd,
} from './model/continue-at-stops.js';
export {
  GoalScriptedModel,
  type GoalScripts,
  goalKey,
  goalScriptsSchema,
} from './model/goal-scripted-model.js';
export type { Model, ModelPart, ModelReasoning, ModelRequest } from './model/model.js';
export {
  ContextTooLongError,
  ModelAuthFailedError,
  ModelNotFoundError,
  ModelRejectedRequestError,
  ModelUnavailableError,
} from './model/model-errors.js';
export { addUsage, type ModelUsage, modelUsageSchema, NO_USAGE } from './model/model-usage.js';
export type { Provider, ProviderConnection } from './model/provider.js';
export { ProviderModel } from './model/provider-model.js';
export { ProviderRegistry } from './model/provider-registry.js';
export { providerSchema } from './model/provider-schema.js';
export { RecordingModel } from './model/recording-model.js';
export { type Cassette, cassetteSchema, ReplayModel } from './model/replay-model.js';
export {
  KEPT_CALLS,
  modelScriptSchema,
  parseJsonWith,
  ScriptEndedError,
  ScriptedModel,
  type ScriptedStep,
} from './model/scripted-model.js';
export { InMemoryOutcomeStore } from './outcomes/in-memory-outcome-store.js';
export type { CallRef, OutcomeStore, StoredOutcome } from './outcomes/outcome-store.js';
export { InMemoryTurnQueue } from './queue/in-memory-turn-queue.js';
export { type StartQueuedTurnDeps, startQueuedTurn } from './queue/start-queued-turn.js';
export { startQueuedTurnAfter } from './queue/start-queued-turn-after.js';
export type { QueuedMessage, QueuePlace, TurnQueue } from './queue/turn-queue.js';
export { describeTurn, type PendingTurn, turnAnswer, turnEndOf } from './requests/describe-turn.js';
export { describedAfter } from './requests/described-end.js';
export { type RequestedIds, requestIds } from './requests/request-ids.js';
export { type DuplicateRequest, type RequestTurnDeps, requestTurn } from './requests/request-turn.js';
export {
  type ExecutionTurnInput,
  startExecutionTurn,
} from './requests/start-execution-turn.js';
export { storedSession, storedSessionOf, tenantTag, tenantTagOf } from './requests/stored-session.js';
export {
  type BegunTurn,
  beginTurn,
  type IdSource,
  randomIds,
  type TurnRequest,
} from './session/begin-turn.js';
export { type CancelDeps, cancelTurn, DEFAULT_CANCEL_GRACE_MS } from './session/cancel-turn.js';
export type { ExecutionStarter } from './session/execution-starter.js';
export { type ForkRequest, forkSession } from './session/fork-session.js';
export { InMemoryStepStream } from './session/in-memory-step-stream.js';
export { LastSeqs } from './session/last-seqs.js';
export {
  type DirectoryEntry,
  type DirectoryKind,
  InMemorySessionDirectory,
  type SessionDirectory,
} from './session/session-directory.js';
export {
  type SessionDisplay,
  SessionFollower,
  type SessionItem,
  type SessionSource,
} from './session/session-follower.js';
export type { DraftPosition, StepDraft, StepDrafts } from './session/step-drafts.js';
export type { StepStream, StreamedChunk } from './session/step-stream.js';
export { advanceTurn } from './steps/advance-turn.js';
export type { AppendResultsDeps } from './steps/append-results.js';
export { batchId, turnOfBatch } from './steps/batch-id.js';
export { closeBatch } from './steps/close-batch.js';
export { closeOpenBatch, type OpenBatchRef } from './steps/close-open-batch.js';
export { closeStoppedExecution } from './steps/close-stopped-execution.js';
export { CANCELLED_CALL, closeStoppedTurn } from './steps/close-stopped-turn.js';
export { endTurn, type TurnEnd } from './steps/end-turn.js';
export { failTurn } from './steps/fail-turn.js';
export { CANCELLED_MESSAGE, finishTurn } from './steps/finish-turn.js';
export { type InvokeToolDeps, type InvokeToolOutput, invokeTool } from './steps/invoke-tool.js';
export { modelStep } from './steps/model-step.js';
export type { ModelStepDeps } from './steps/model-step-deps.js';
export { describeCaught, recordToolFailure } from './steps/record-tool-failure.js';
export { releaseTurn } from './steps/release-turn.js';
export { STOP_SEQUENCES } from './steps/run-model.js';
export { startTurn } from './steps/start-turn.js';
export { stateBytes } from './steps/state-bytes.js';
export { type SubmitTurnInput, submitTurn, userMessageKey } from './steps/submit-turn.js';
export { takeSession } from './steps/take-session.js';
export { TurnTallies } from './steps/turn-tallies.js';
export { cancelTurnsOfSuspended, type RunningTurn } from './tenants/cancel-suspended-turns.js';
export { CONTROLS_FRESH_MS, RecentTenantControls } from './tenants/recent-tenant-controls.js';
export {
  type CeilingDeps,
  RESERVED_OUTPUT_TOKENS,
  reserveStep,
  type StepReservation,
  type StepUse,
  settleStep,
} from './tenants/step-ceiling.js';
export { type SuspensionInForce, sessionSuspended, suspensionOf } from './tenants/suspension-of.js';
export {
  type Ceiling,
  ceilingOf,
  EVERY_TENANT,
  InMemoryTenantControls,
  type Suspension,
  type TenantControl,
  type TenantControls,
} from './tenants/tenant-controls.js';
export {
  InvalidTenantOperationError,
  operateTenant,
  parseTenantOperation,
  TENANT_ACTIONS,
  type TenantOperation,
  type TenantOperationDeps,
  type TenantReport,
  tenantOperationSchema,
} from './tenants/tenant-operation.js';
export { type TenantRefusal, type TenantRefusalDeps, tenantRefusal } from './tenants/tenant-refusal.js';
export {
  InMemoryTenantSpend,
  MICROS_PER_USD,
  periodEnd,
  type Refusal,
  type Reservation,
  SPEND_PERIODS,
  SPEND_UNITS,
  type SpendLimits,
  type SpendPeriod,
  type SpendUnit,
  type Spent,
  type TenantSpend,
} from './tenants/tenant-spend.js';
export { defineTool, type Tool, type ToolContext, type ToolDefinition } from './tools/define-tool.js';
export { demoTools } from './tools/demo-tools.js';
export { MAX_TOOL_OUTPUT_BYTES, runTool } from './tools/run-tool.js';
export { createToolset, type Toolset } from './tools/toolset.js';
export { type ArgsCheck, validateArgs } from './tools/validate-args.js';
export type { LogSpan, LogSpanEvent, LogSpanLink, SpanValue } from './traces/log-span.js';
export { sessionSpans } from './traces/session-spans.js';
export { type BatchCall, type TurnBatch, turnBatches } from './traces/turn-batches.js';
export { type TurnLog, turnLogs } from './traces/turn-logs.js';
export type { TurnSpanOptions } from './traces/turn-spans.js';
export { costOf } from './usage/cost-of.js';
export { InMemoryUsageLedger } from './usage/in-memory-usage-ledger.js';
export { modelStepKey } from './usage/model-step-key.js';
export { metricEvents, type SessionSpend, sessionSpend } from './usage/session-spend.js';
export { spentBudget } from './usage/spent-budget.js';
export { type StepUsage, stepUsageSchema } from './usage/step-usage.js';
export type { UsageLedger } from './usage/usage-ledger.js';
export { advanceWorkflow, DEFAULT_GOAL_STEPS } from './workflows/advance-workflow.js';
export { documentSeen } from './workflows/document-seen.js';
export {
  type AwaitGateDeps,
  awaitGate,
  decideGate,
  type GateDecision,
  type GateDeps,
} from './workflows/gates.js';
export { goalContext } from './workflows/goal-context.js';
export { refuseWorkflowSession } from './workflows/refuse-workflow-session.js';
export { type Logged, type RunLog, recordsOf, runLogOf } from './workflows/run-log.js';
export { workflowRunSummary } from './workflows/run-summary.js';
export { runInputs, type StartWorkflowInput, startWorkflow } from './workflows/start-workflow.js';
export type { WorkflowStarter } from './workflows/workflow-starter.js';
export {
  LocalDirectoryWorkspace,
  type LocalDirectoryWorkspaceOptions,
} from './workspace/local-directory-workspace.js';
export { resolveWorkspacePath } from './workspace/resolve-workspace-path.js';
export type {
  FilePage,
  ReadWindow,
  Workspace,
  WorkspaceEntry,
  WorkspaceQuota,
} from './workspace/workspace.js';
export { workspaceTools } from './workspace/workspace-tools.js';
