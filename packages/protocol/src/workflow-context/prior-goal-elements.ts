import { type LabelledOutput, priorGoals } from './prior-goals.js';
import type { PriorCompletion } from './render-input.js';
import { xmlElement } from './xml-element.js';
import { xmlLines } from './xml-lines.js';
import { xmlValue } from './xml-value.js';

/**
 * The entries of a `<context>` for prior completions (E3, E8): a `<goal id>` per goal outside
 * loops, then an `<iteration n>` per loop iteration holding its goals, one more `indent` in. Each
 * element is returned without a trailing newline; iteration goals have no blank line between them.
 */
export function priorGoalElements(prior: readonly PriorCompletion[], indent: string): string[] {
  const { goals, iterations } = priorGoals(prior);
  return [
    ...goals.map((goal) => goalElement(goal, indent)),
    ...iterations.map(({ n, goals: iterationGoals }) => {
      const body = xmlLines(iterationGoals.map((goal) => goalElement(goal, `${indent}${indent}`)));
      return xmlElement('iteration', { n: String(n) }, body, indent);
    }),
  ];
}

function goalElement(goal: LabelledOutput, indent: string): string {
  return xmlElement('goal', { id: goal.label }, xmlValue(goal.output), indent);
}
