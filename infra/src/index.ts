export { AgentStateMachine, type AgentStateMachineProps } from './agent-state-machine.js';
export { AgentStep, type AgentStepProps, type LambdaToolProps } from './agent-step.js';
export { AgentStepStack, type AgentStepStackProps } from './agent-step-stack.js';
export { EventLogTable, type EventLogTableProps } from './event-log-table.js';
export {
  repositoryRoot,
  STEP_BUNDLING,
  StepFunction,
  type StepFunctionProps,
  type StepName,
} from './step-function.js';
