export { AgentStateMachine, type AgentStateMachineProps } from './agent-state-machine.js';
export { AgentStep, type AgentStepProps, type LambdaToolProps } from './agent-step.js';
export { AgentStepStack, type AgentStepStackProps } from './agent-step-stack.js';
export { EventLogTable, type EventLogTableProps } from './event-log-table.js';
export { ExecutionFailureAlarm, type ExecutionFailureAlarmProps } from './execution-failure-alarm.js';
export {
  repositoryRoot,
  STEP_BUNDLING,
  StepLambda,
  type StepLambdaProps,
  type StepName,
} from './step-lambda.js';
