export type { ChaosOptions } from './chaos.js';
export { loadAgent } from './load-agent.js';
export {
  AGENT_STATE_MACHINE,
  type ExecutionRun,
  LocalEngine,
  type LocalEngineOptions,
  type TurnRun,
} from './local-engine.js';
export { LocalExecutionStarter } from './local-execution-starter.js';
export type { LocalDeps } from './local-handlers.js';
export type { EngineEvent, RunStats } from './run-stats.js';
export {
  type DynamoDbLocal,
  type DynamoDbLocalOptions,
  JavaMissingError,
  startDynamoDbLocal,
} from './start-dynamo-db-local.js';
export type { SynthesizedAgent } from './synthesize-agent.js';
