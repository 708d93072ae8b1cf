import type { StartMode } from './task-states.js';

/** The parameters of a `states:startExecution` task, as the engine evaluated them. */
export interface StartExecutionParameters {
  StateMachineArn: string;
  /** The execution's input: a JSON string or a JSON value. */
  Input?: unknown;
  Name?: string;
}

/** A nested execution as a startExecution task reports it. */
export interface NestedExecution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: unknown;
  startDate: number;
}

/** The execution input a task passed: `Input` as a JSON value (a JSON string parsed). */
export function executionInput(parameters: StartExecutionParameters): unknown {
  const { Input } = parameters;
  if (typeof Input !== 'string') return Input ?? {};
  try {
    return JSON.parse(Input);
  } catch {
    throw new TypeError(`StartExecution's Input must be JSON; received ${Input.slice(0, 200)}.`);
  }
}

/** What a startExecution task returns right away (it does not wait for the execution). */
export function startedResult(execution: NestedExecution) {
  return { ExecutionArn: execution.executionArn, StartDate: execution.startDate };
}

/**
 * What a `.sync` (Input and Output as JSON strings) or `.sync:2` (as JSON values) task returns
 * once its execution succeeded: the execution's description, as Step Functions gives it.
 */
export function succeededResult(
  mode: Exclude<StartMode, 'start'>,
  execution: NestedExecution,
  output: unknown,
) {
  const json = (value: unknown) => (mode === 'sync:2' ? value : JSON.stringify(value));
  return {
    ExecutionArn: execution.executionArn,
    StateMachineArn: execution.stateMachineArn,
    Name: execution.name,
    Status: 'SUCCEEDED',
    StartDate: execution.startDate,
    StopDate: Date.now(),
    Input: json(execution.input),
    InputDetails: { Included: true },
    Output: json(output),
    OutputDetails: { Included: true },
  };
}

/**
 * The error a `.sync` task fails with when its execution failed: `States.TaskFailed`, whose cause
 * describes the execution with its own error and cause, as Step Functions reports it.
 */
export function childFailedError(execution: NestedExecution, failure: unknown): Error {
  const { name, message } = failure instanceof Error ? failure : { name: 'Error', message: String(failure) };
  const error = new Error(
    JSON.stringify({
      ExecutionArn: execution.executionArn,
      StateMachineArn: execution.stateMachineArn,
      Name: execution.name,
      Status: 'FAILED',
      StartDate: execution.startDate,
      StopDate: Date.now(),
      Error: name,
      Cause: message,
    }),
  );
  error.name = 'States.TaskFailed';
  return error;
}
