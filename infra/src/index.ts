export { AgentStateMachine, type AgentStateMachineProps } from './agent-state-machine.js';
export { AgentStep, type AgentStepProps, type LambdaToolProps } from './agent-step.js';
export {
  AgentStepApi,
  type AgentStepApiAuth,
  type AgentStepApiOptions,
  type AgentStepApiProps,
  type AgentStepConsoleOptions,
  type ApiFunctionName,
} from './agent-step-api.js';
export {
  AgentStepConsole,
  type AgentStepConsoleProps,
  API_PATH_PREFIXES,
  type ConsoleOidcSettings,
} from './agent-step-console.js';
export {
  AgentStepSmokeStack,
  type AgentStepSmokeStackProps,
  SMOKE_EVENT_SOURCE,
} from './agent-step-smoke-stack.js';
export { AgentStepStack, type AgentStepStackProps } from './agent-step-stack.js';
export { BundledLambda, type BundledLambdaProps } from './bundled-lambda.js';
export type { AgentDeployment } from './deployment-preference.js';
export { EventLogTable, type EventLogTableProps } from './event-log-table.js';
export type { EventTurnOptions } from './event-turn-target.js';
export { ExecutionFailureAlarm, type ExecutionFailureAlarmProps } from './execution-failure-alarm.js';
export { GRANTS_NO_CALL_MAKES } from './grants-no-call-makes.js';
export { LIVE_ALIAS_NAME, LiveAlias, type LiveAliasProps } from './live-alias.js';
export { type QueueTurnOptions, QueueTurnPipe, type QueueTurnPipeProps } from './queue-turn-pipe.js';
export { STEP_BUNDLING } from './step-bundling.js';
export {
  type DeployedStepName,
  type LoopStepName,
  StepLambda,
  type StepLambdaProps,
  type StepName,
  type WorkflowStepName,
} from './step-lambda.js';
export { type AgentTraces, TraceExport, type TraceExportProps } from './trace-export.js';
export type { TurnTriggerOptions } from './turn-trigger-options.js';
export { WorkflowStateMachine, type WorkflowStateMachineProps } from './workflow-state-machine.js';
