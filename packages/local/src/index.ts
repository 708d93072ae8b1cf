export type { ChaosOptions } from './chaos.js';
export { dynamoDbLocalClient } from './dynamo-db-local/dynamo-db-local-client.js';
export { JavaMissingError } from './dynamo-db-local/java-missing-error.js';
export { runningDynamoDbLocals } from './dynamo-db-local/orphans.js';
export {
  openSharedDynamoDbLocal,
  type SharedDynamoDbLocal,
  type SharedDynamoDbLocalOptions,
  type StoreChange,
} from './dynamo-db-local/shared-dynamo-db-local.js';
export {
  type DynamoDbLocal,
  type DynamoDbLocalOptions,
  startDynamoDbLocal,
} from './dynamo-db-local/start-dynamo-db-local.js';
export { type CloseTurnDeps, closeOrphanedTurns } from './executions/close-orphaned-turns.js';
export { ExecutionOwners, type OwnedTurn } from './executions/execution-owners.js';
export { loadAgent } from './load-agent.js';
export {
  AGENT_STATE_MACHINE,
  type ExecutionRun,
  LocalEngine,
  type LocalEngineOptions,
  type TaskCall,
  type TurnRun,
  WORKFLOW_STATE_MACHINE,
} from './local-engine.js';
export { LocalEventBus, type PublishedEvent } from './local-event-bus.js';
export { LocalExecutionStarter, type LocalExecutionStarterOptions } from './local-execution-starter.js';
export type { LocalDeps } from './local-handlers.js';
export { LocalWorkflowStarter } from './local-workflow-starter.js';
export { resolveTokens, type TemplateResources } from './resolve-tokens.js';
export type { EngineEvent, RunStats } from './run-stats.js';
export { startQueuedTurns } from './start-queued-turns.js';
export type { DefinitionProps, SynthesizedAgent } from './synthesize-agent.js';
export type { StartMode, TaskKind } from './task-states.js';
export {
  DynamoTaskTokenCompletions,
  type DynamoTaskTokenCompletionsOptions,
  TASK_TOKENS_PARTITION,
} from './task-tokens/dynamo-task-token-completions.js';
export { InMemoryTaskTokenCompletions } from './task-tokens/in-memory-task-token-completions.js';
export { LocalTaskTokens, TASK_TOKEN_POLL_MS } from './task-tokens/local-task-tokens.js';
export { TaskDoesNotExistError } from './task-tokens/task-does-not-exist-error.js';
export type { TaskTokenCompletion, TaskTokenCompletions } from './task-tokens/task-token-completions.js';
