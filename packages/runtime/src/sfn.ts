// Step Functions adapters, apart from the core so that importing the runtime does not load the SFN client.
export { callingStateMachineStarter } from './sfn/calling-state-machine-starter.js';
export {
  StepFunctionsStarter,
  type StepFunctionsStarterOptions,
} from './sfn/step-functions-starter.js';
export { StepFunctionsTaskTokens } from './sfn/step-functions-task-tokens.js';
export {
  StepFunctionsWorkflowStarter,
  type StepFunctionsWorkflowStarterOptions,
} from './sfn/step-functions-workflow-starter.js';
