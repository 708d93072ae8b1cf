import type { StepName } from '@agentstep/infra';

/** What a Task state of the loop does, as the local engine runs it. */
export type TaskKind =
  | { kind: 'lambda'; functionName: string }
  | { kind: 'lambda-by-name' }
  | { kind: 'start-execution' };

type States = Record<string, Record<string, unknown>>;

const FUNCTION_ARN = /^arn:aws:lambda:[^:]+:\d+:function:([^:]+)$/;

/**
 * Every Task state of a definition (Map item processors included) and what it does. A task that
 * has no local equivalent is an error: left alone, the engine would call real AWS.
 */
export function taskStates(
  definition: { States: unknown },
  functions: ReadonlyMap<string, StepName>,
): Map<string, TaskKind> {
  const tasks = new Map<string, TaskKind>();
  const visit = (states: States) => {
    for (const [name, state] of Object.entries(states)) {
      const processor = (state.ItemProcessor ?? state.Iterator) as { States: States } | undefined;
      if (processor) visit(processor.States);
      if (state.Type === 'Task') tasks.set(name, taskKind(name, String(state.Resource), functions));
    }
  };
  visit(definition.States as States);
  return tasks;
}

function taskKind(name: string, resource: string, functions: ReadonlyMap<string, StepName>): TaskKind {
  if (resource.endsWith(':states:::lambda:invoke')) return { kind: 'lambda-by-name' };
  if (resource.endsWith(':states:::states:startExecution')) return { kind: 'start-execution' };
  const functionName = FUNCTION_ARN.exec(resource)?.[1] ?? '';
  if (!functions.has(functionName))
    throw new Error(`Task ${name} calls ${resource}, which has no local equivalent.`);
  return { kind: 'lambda', functionName };
}

/** A function's local name from a name or an ARN, as `FunctionName` may hold either. */
export function functionNameOf(nameOrArn: string): string {
  return FUNCTION_ARN.exec(nameOrArn)?.[1] ?? nameOrArn;
}
