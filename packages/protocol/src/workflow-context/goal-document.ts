import { CONVERGENCE_INSTRUCTION } from './convergence-instruction.js';
import { correctionElement } from './correction-element.js';
import { instructionText } from './instruction-text.js';
import { openTag } from './open-tag.js';
import { priorGoalElements } from './prior-goal-elements.js';
import type { ConvergenceIteration, CurrentGoal, RenderContextInput } from './render-input.js';
import { renderVariables } from './variables.js';
import { xmlElement } from './xml-element.js';
import { xmlLines } from './xml-lines.js';
import { xmlValue } from './xml-value.js';

/** A goal document's input: a {@link RenderContextInput} with the goal to run now. */
export type GoalDocumentInput = Omit<RenderContextInput, 'current'> & { current: CurrentGoal };

/**
 * The user message of a workflow goal (E1–E9): `<workflow name>`, then `<context>` (prior goals,
 * loop iterations, convergence history; omitted when empty), `<current-goal>`, the convergence
 * instruction of a CONVERGE goal and the correction, each after one blank line, then a blank line
 * and `</workflow>` with no newline after it.
 */
export function renderGoalDocument(input: GoalDocumentInput): string {
  const blocks = [
    contextElement(input),
    currentGoalElement(input),
    input.converge === undefined ? undefined : CONVERGENCE_INSTRUCTION,
    correctionElement(input.correction),
  ].filter((block) => block !== undefined);
  return [openTag('workflow', { name: input.workflow.name }), ...blocks, '</workflow>'].join('\n\n');
}

/** E1, E6, E8: a blank line after every two-space entry, including the last. */
function contextElement(input: GoalDocumentInput): string | undefined {
  const entries = priorGoalElements(input.prior ?? [], '  ');
  const history = input.converge?.history ?? [];
  if (history.length > 0) entries.push(convergenceHistoryElement(history));
  if (entries.length === 0) return undefined;
  return `<context>\n${entries.map((entry) => `${entry}\n\n`).join('')}</context>`;
}

function convergenceHistoryElement(history: readonly ConvergenceIteration[]): string {
  const iterations = history.map(({ n, output }) =>
    xmlElement('iteration', { n: String(n) }, xmlValue(output), '    '),
  );
  return xmlElement('convergence-history', {}, xmlLines(iterations), '  ');
}

function currentGoalElement(input: GoalDocumentInput): string {
  const { id, description, outputs, loop, iteration } = input.current;
  const attributes =
    loop === undefined || iteration === undefined ? { id } : { id, loop, iteration: String(iteration) };
  const text = instructionText(description, outputs, renderVariables(input));
  return xmlElement('current-goal', attributes, xmlValue(text));
}
