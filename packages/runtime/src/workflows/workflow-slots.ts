import type { WorkflowSpec } from '@agentstep/protocol';
import { type RunLog, recordsOf } from './run-log.js';
import { variablesOf } from './workflow-variables.js';

/** How a goal is supervised: not at all, by the supervisor model, or by it and a person. */
export type Supervision = 'none' | 'supervised' | 'human';

/** A goal's place in the program: one goal of one RUN step, or of one LOOP iteration. */
export interface Slot {
  id: string;
  goal: WorkflowSpec['goals'][number];
  loop?: string;
  iteration?: number;
  supervision: Supervision;
}

/** The program cannot go on: a LOOP's `WITHIN $var` is not a whole number above 0. */
export interface ProgramError {
  error: string;
  message: string;
}

/**
 * The first slot of the program whose goal has not completed, walking RUN steps in file order and
 * their goals in list order; a LOOP runs its goals per iteration up to WITHIN, and stops early when
 * an iteration's outputs equal the previous one's. `undefined` when every slot has completed.
 */
export function nextSlot(log: RunLog): Slot | ProgramError | undefined {
  const completed = completedOutputs(log);
  for (const [index, step] of log.spec.steps.entries()) {
    if (step.kind === 'run') {
      for (const [position, name] of step.goals.entries()) {
        const slot = `${index}.${position}`;
        if (!completed.has(slot)) return slotOf(log, slot, name, step.supervision);
      }
      continue;
    }
    const limit = withinOf(log, step.within);
    if (typeof limit !== 'number') return limit;
    let previous: string | undefined;
    for (let iteration = 1; iteration <= limit; iteration++) {
      const slots = step.goals.map((_, position) => `${index}.${iteration}.${position}`);
      const pending = slots.findIndex((slot) => !completed.has(slot));
      if (pending >= 0) {
        const name = step.goals[pending] as string;
        return { ...slotOf(log, slots[pending] as string, name, undefined), loop: step.name, iteration };
      }
      const outputs = JSON.stringify(slots.map((slot) => completed.get(slot)));
      if (outputs === previous) break;
      previous = outputs;
    }
  }
  return undefined;
}

/** The number a `WITHIN` names: itself, or a variable's value (fields first, then inputs). */
export function withinOf(log: RunLog, within: number | { variable: string }): number | ProgramError {
  if (typeof within === 'number') return within;
  const value = variablesOf(log)[within.variable];
  const limit = Number(value);
  if (value !== undefined && /^\d+$/.test(value.trim()) && limit > 0) return limit;
  return {
    error: 'InvalidWithin',
    message: `WITHIN $${within.variable} must be a whole number above 0, but it is ${value === undefined ? 'not set' : JSON.stringify(value)}.`,
  };
}

/** Each completed slot's outputs (its goal records' texts, in order). */
function completedOutputs(log: RunLog): Map<string, string[]> {
  const completed = new Map<string, string[]>();
  for (const { record, content } of recordsOf(log, 'goal')) {
    completed.set(record.slot, [...(completed.get(record.slot) ?? []), content]);
  }
  return completed;
}

/** An explicit modifier wins: the goal's, else its RUN step's, else the workflow's default. */
function slotOf(log: RunLog, id: string, name: string, step: string | undefined): Slot {
  const goal = log.spec.goals.find((candidate) => candidate.name === name);
  if (goal === undefined) throw new Error(`The workflow spec has no goal ${name}, which step ${id} runs.`);
  const mode = goal.supervision ?? step ?? log.spec.supervision;
  return { id, goal, supervision: mode === 'supervised' || mode === 'human' ? mode : 'none' };
}
