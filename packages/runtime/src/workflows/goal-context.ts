import { fieldText, type RenderContextInput, type WorkflowRecordOf } from '@agentstep/protocol';
import { type RunLog, recordsOf } from './run-log.js';
import type { Slot } from './workflow-slots.js';

/** A correction the next attempt of a goal carries (E3). */
export interface Correction {
  source: 'supervisor' | 'human';
  text: string;
}

/** A goal completion, logged or about to be: its record and its output. */
export interface GoalCompletion {
  record: WorkflowRecordOf<'goal'>;
  content: string;
}

/** What a goal document shows besides the run's completed goals. */
export interface GoalDocumentParts {
  /** Completions of this attempt not in the log yet (a USING goal's agents, for its synthesis): after the others. */
  completions?: readonly GoalCompletion[];
  /** A CONVERGE goal's completed iterations, oldest first (E6); `undefined` for other goals. */
  history?: ReadonlyArray<{ n: number; output: string }>;
  correction?: Correction;
}

/**
 * The render input of the document a goal's run sees (E1–E9), from the run's log alone: its inputs,
 * every completed goal in log order (E3), the current goal, and its history and correction.
 */
export function goalContext(log: RunLog, slot: Slot, parts: GoalDocumentParts = {}): RenderContextInput {
  const { goal } = slot;
  return {
    ...common(log, parts.completions),
    render: 'goal',
    ...(parts.history ? { converge: { history: [...parts.history] } } : {}),
    current: {
      id: goal.name,
      description: goal.description,
      ...(goal.outputs.length > 0 ? { outputs: [...goal.outputs] } : {}),
      ...(slot.loop === undefined ? {} : { loop: slot.loop, iteration: slot.iteration }),
    },
    ...(parts.correction ? { correction: parts.correction } : {}),
  };
}

/**
 * The render input of the task document a USING agent of a goal sees (E7): the completed goals,
 * then the interpolated goal text as its objective, with the agent's own fields.
 */
export function agentContext(
  log: RunLog,
  slot: Slot,
  agent: RunLog['spec']['agents'][number],
  correction?: Correction,
): RenderContextInput {
  return {
    ...common(log),
    render: 'task',
    task: {
      role: agent.name,
      parent_goal: slot.goal.name,
      task: slot.goal.description,
      ...(agent.outputs.length > 0 ? { outputs: [...agent.outputs] } : {}),
      include_prior: true,
      interpolate: true,
    },
    ...(correction ? { correction } : {}),
  };
}

function common(log: RunLog, completions: readonly GoalCompletion[] = []) {
  return {
    workflow: { name: log.spec.name },
    inputs: { ...log.inputs },
    prior: [...recordsOf(log, 'goal'), ...completions].map(priorOf),
  };
}

function priorOf({ record, content }: GoalCompletion): NonNullable<RenderContextInput['prior']>[number] {
  const fields = Object.entries(record.fields ?? {}).map(([name, value]) => [name, fieldText(value)]);
  return {
    id: record.goal,
    output: content,
    ...(record.agent === undefined ? {} : { agent: record.agent }),
    ...(record.loop === undefined ? {} : { loop: record.loop, iteration: record.iteration }),
    ...(fields.length > 0 ? { fields: Object.fromEntries(fields) } : {}),
  };
}
