/** How a Task state starts another execution: and moves on, or waits for it (`.sync`, `.sync:2`). */
export type StartMode = 'start' | 'sync' | 'sync:2';

/** What a Task state of a hosted state machine does, as the local engine runs it. */
export type TaskKind =
  | { kind: 'lambda'; functionName: string }
  | { kind: 'lambda-by-name' }
  /** `lambda:invoke.waitForTaskToken`: invokes, then waits for its token until `timeoutSeconds`. */
  | { kind: 'lambda-wait-for-task-token'; timeoutSeconds: number }
  | { kind: 'start-execution'; mode: StartMode }
  /** `aws-sdk:sfn:describeExecution`: how ContinueAsNew finds the version it runs on. */
  | { kind: 'describe-execution' }
  | { kind: 'put-events' };

/**
 * aws-local-stepfunctions' timeout of a Task state that sets no `TimeoutSeconds` (Step Functions
 * sets none), which a local wait for a task token must match.
 */
const ENGINE_DEFAULT_TASK_TIMEOUT_SECONDS = 60;

type States = Record<string, Record<string, unknown>>;

/** A function's ARN, unqualified or qualified by a version or alias (locally, always `$LATEST`). */
const FUNCTION_ARN = /^arn:aws:lambda:[^:]+:\d+:function:([^:]+)(?::[^:]+)?$/;
const WAIT_FOR_TASK_TOKEN = ':states:::lambda:invoke.waitForTaskToken';
const START_EXECUTION = /:states:::states:startExecution(?:\.(sync(?::2)?))?$/;

/**
 * Every state of a definition by name, those of Map item processors and Parallel branches
 * included (state names are unique across a whole definition).
 */
export function allStates(definition: { States: unknown }): Map<string, Record<string, unknown>> {
  const all = new Map<string, Record<string, unknown>>();
  const visit = (states: States) => {
    for (const [name, state] of Object.entries(states)) {
      all.set(name, state);
      const processor = (state.ItemProcessor ?? state.Iterator) as { States: States } | undefined;
      if (processor) visit(processor.States);
      for (const branch of (state.Branches ?? []) as Array<{ States: States }>) visit(branch.States);
    }
  };
  visit(definition.States as States);
  return all;
}

/**
 * Every Task state of a definition and what it does. A task that has no local equivalent is an
 * error: left alone, the engine would call real AWS.
 */
export function taskStates(
  definition: { States: unknown },
  functions: { has(name: string): boolean },
): Map<string, TaskKind> {
  const tasks = new Map<string, TaskKind>();
  for (const [name, state] of allStates(definition)) {
    if (state.Type === 'Task') tasks.set(name, taskKind(name, state, functions));
  }
  return tasks;
}

function taskKind(
  name: string,
  state: Record<string, unknown>,
  functions: { has(name: string): boolean },
): TaskKind {
  const resource = String(state.Resource);
  if (resource.endsWith(':states:::lambda:invoke')) return { kind: 'lambda-by-name' };
  if (resource.endsWith(':states:::events:putEvents')) return { kind: 'put-events' };
  if (resource.endsWith(':states:::aws-sdk:sfn:describeExecution')) return { kind: 'describe-execution' };
  if (resource.endsWith(WAIT_FOR_TASK_TOKEN)) return waitForTaskToken(name, state);
  const start = START_EXECUTION.exec(resource);
  if (start) return { kind: 'start-execution', mode: (start[1] as StartMode | undefined) ?? 'start' };
  const functionName = FUNCTION_ARN.exec(resource)?.[1] ?? '';
  if (!functions.has(functionName))
    throw new Error(`Task ${name} calls ${resource}, which has no local equivalent.`);
  return { kind: 'lambda', functionName };
}

function waitForTaskToken(name: string, state: Record<string, unknown>): TaskKind {
  // The wait must end with the engine's timeout, and the engine keeps its JSONPath evaluation to itself.
  if (state.TimeoutSecondsPath !== undefined)
    throw new Error(
      `Task ${name} sets TimeoutSecondsPath, which the local engine does not run on .waitForTaskToken; set TimeoutSeconds.`,
    );
  // The engine's own test: a missing (or zero) TimeoutSeconds means its default.
  const timeoutSeconds = Number(state.TimeoutSeconds) || ENGINE_DEFAULT_TASK_TIMEOUT_SECONDS;
  return { kind: 'lambda-wait-for-task-token', timeoutSeconds };
}

/** A function's local name from a name or an ARN, as `FunctionName` may hold either. */
export function functionNameOf(nameOrArn: string): string {
  return FUNCTION_ARN.exec(nameOrArn)?.[1] ?? nameOrArn;
}
