import type { WorkflowSpec } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import { InvalidWorkflowInputError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { appendRecords } from './append-records.js';

/** The key of a run's `start` append: a session whose log has it is a workflow run. */
export const WORKFLOW_START_KEY = 'start';

/** A new workflow run: its id, its workflow (FROM files inlined) and the inputs given. */
export interface StartWorkflowInput {
  run: string;
  spec: WorkflowSpec;
  inputs: Readonly<Record<string, string>>;
}

/**
 * Begins a workflow run before its execution starts: checks the inputs against the workflow's INPUT
 * statements (an undeclared one, or a missing one without a DEFAULT, refuses the run: nothing is
 * written), then appends the `start` record, idempotently per run. Returns the inputs with defaults.
 */
export async function startWorkflow(
  input: StartWorkflowInput,
  deps: { log: EventLog; clock: Clock },
): Promise<Record<string, string>> {
  const inputs = runInputs(input.spec, input.inputs);
  await deps.log.acquireTurn(input.run, input.run);
  const start = { kind: 'start' as const, spec: input.spec, inputs };
  await appendRecords(input.run, WORKFLOW_START_KEY, [{ record: start, content: input.spec.name }], deps);
  return inputs;
}

/** The run's inputs: those given, then each declared default; refuses undeclared and missing ones. */
export function runInputs(
  spec: WorkflowSpec,
  given: Readonly<Record<string, string>>,
): Record<string, string> {
  const declared = new Set(spec.inputs.map(({ name }) => name));
  const undeclared = Object.keys(given).filter((name) => !declared.has(name));
  if (undeclared.length > 0) {
    throw new InvalidWorkflowInputError(
      `Workflow ${spec.name} declares no input ${undeclared.join(', ')}; its inputs are: ${[...declared].join(', ') || 'none'}.`,
    );
  }
  const inputs: Record<string, string> = {};
  const missing: string[] = [];
  for (const { name, default: fallback } of spec.inputs) {
    const value = given[name] ?? fallback;
    if (value === undefined) missing.push(name);
    else inputs[name] = value;
  }
  if (missing.length > 0) {
    throw new InvalidWorkflowInputError(
      `Workflow ${spec.name} needs a value for input ${missing.join(', ')} (it has no DEFAULT).`,
    );
  }
  return inputs;
}
